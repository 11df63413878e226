from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeResultActionsScrapesItem")


@_attrs_define
class ScrapeResultActionsScrapesItem:
    """
    Attributes:
        url (str):
        html (str):
    """

    url: str
    html: str

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        html = self.html

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "html": html,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        html = d.pop("html")

        scrape_result_actions_scrapes_item = cls(
            url=url,
            html=html,
        )

        return scrape_result_actions_scrapes_item
