from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetPricingResponse200Jobs")


@_attrs_define
class GetPricingResponse200Jobs:
    """
    Attributes:
        map_ (int):
        crawl (str):
        batch_scrape (str):
        extract (str):
        crawl_params_preview (int):
    """

    map_: int
    crawl: str
    batch_scrape: str
    extract: str
    crawl_params_preview: int

    def to_dict(self) -> dict[str, Any]:
        map_ = self.map_

        crawl = self.crawl

        batch_scrape = self.batch_scrape

        extract = self.extract

        crawl_params_preview = self.crawl_params_preview

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "map": map_,
                "crawl": crawl,
                "batch_scrape": batch_scrape,
                "extract": extract,
                "crawl_params_preview": crawl_params_preview,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        map_ = d.pop("map")

        crawl = d.pop("crawl")

        batch_scrape = d.pop("batch_scrape")

        extract = d.pop("extract")

        crawl_params_preview = d.pop("crawl_params_preview")

        get_pricing_response_200_jobs = cls(
            map_=map_,
            crawl=crawl,
            batch_scrape=batch_scrape,
            extract=extract,
            crawl_params_preview=crawl_params_preview,
        )

        return get_pricing_response_200_jobs
