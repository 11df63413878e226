from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeResultLinksItem")


@_attrs_define
class ScrapeResultLinksItem:
    """
    Attributes:
        url (str):
        text (str):
        rel (None | str):
    """

    url: str
    text: str
    rel: None | str

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        text = self.text

        rel: None | str
        rel = self.rel

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "text": text,
                "rel": rel,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        text = d.pop("text")

        def _parse_rel(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        rel = _parse_rel(d.pop("rel"))

        scrape_result_links_item = cls(
            url=url,
            text=text,
            rel=rel,
        )

        return scrape_result_links_item
