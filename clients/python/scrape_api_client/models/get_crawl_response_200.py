from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.crawl_summary import CrawlSummary


T = TypeVar("T", bound="GetCrawlResponse200")


@_attrs_define
class GetCrawlResponse200:
    """
    Attributes:
        crawls (list[CrawlSummary]):
        next_cursor (None | str):
    """

    crawls: list[CrawlSummary]
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        crawls = []
        for crawls_item_data in self.crawls:
            crawls_item = crawls_item_data.to_dict()
            crawls.append(crawls_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "crawls": crawls,
                "nextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.crawl_summary import CrawlSummary

        d = dict(src_dict)
        crawls = []
        _crawls = d.pop("crawls")
        for crawls_item_data in _crawls:
            crawls_item = CrawlSummary.from_dict(crawls_item_data)

            crawls.append(crawls_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        get_crawl_response_200 = cls(
            crawls=crawls,
            next_cursor=next_cursor,
        )

        return get_crawl_response_200
