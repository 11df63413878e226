from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_v2_crawl_active_response_200_crawls_item import (
        GetV2CrawlActiveResponse200CrawlsItem,
    )


T = TypeVar("T", bound="GetV2CrawlActiveResponse200")


@_attrs_define
class GetV2CrawlActiveResponse200:
    """
    Attributes:
        success (bool):
        crawls (list[GetV2CrawlActiveResponse200CrawlsItem]):
    """

    success: bool
    crawls: list[GetV2CrawlActiveResponse200CrawlsItem]

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        crawls = []
        for crawls_item_data in self.crawls:
            crawls_item = crawls_item_data.to_dict()
            crawls.append(crawls_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "crawls": crawls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_v2_crawl_active_response_200_crawls_item import (
            GetV2CrawlActiveResponse200CrawlsItem,
        )

        d = dict(src_dict)
        success = d.pop("success")

        crawls = []
        _crawls = d.pop("crawls")
        for crawls_item_data in _crawls:
            crawls_item = GetV2CrawlActiveResponse200CrawlsItem.from_dict(
                crawls_item_data
            )

            crawls.append(crawls_item)

        get_v2_crawl_active_response_200 = cls(
            success=success,
            crawls=crawls,
        )

        return get_v2_crawl_active_response_200
