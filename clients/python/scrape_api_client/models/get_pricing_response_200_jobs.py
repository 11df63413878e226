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
    """

    map_: int
    crawl: str
    batch_scrape: str

    def to_dict(self) -> dict[str, Any]:
        map_ = self.map_

        crawl = self.crawl

        batch_scrape = self.batch_scrape

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "map": map_,
                "crawl": crawl,
                "batch_scrape": batch_scrape,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        map_ = d.pop("map")

        crawl = d.pop("crawl")

        batch_scrape = d.pop("batch_scrape")

        get_pricing_response_200_jobs = cls(
            map_=map_,
            crawl=crawl,
            batch_scrape=batch_scrape,
        )

        return get_pricing_response_200_jobs
