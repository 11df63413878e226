from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.crawl_page import CrawlPage


T = TypeVar("T", bound="CrawlPages")


@_attrs_define
class CrawlPages:
    """
    Attributes:
        pages (list[CrawlPage]):
        next_ (None | str):
    """

    pages: list[CrawlPage]
    next_: None | str

    def to_dict(self) -> dict[str, Any]:
        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)

        next_: None | str
        next_ = self.next_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "pages": pages,
                "next": next_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.crawl_page import CrawlPage

        d = dict(src_dict)
        pages = []
        _pages = d.pop("pages")
        for pages_item_data in _pages:
            pages_item = CrawlPage.from_dict(pages_item_data)

            pages.append(pages_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        crawl_pages = cls(
            pages=pages,
            next_=next_,
        )

        return crawl_pages
