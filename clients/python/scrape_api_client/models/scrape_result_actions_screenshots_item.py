from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeResultActionsScreenshotsItem")


@_attrs_define
class ScrapeResultActionsScreenshotsItem:
    """
    Attributes:
        url (str):
        width (int):
        height (int):
        bytes_ (int):
    """

    url: str
    width: int
    height: int
    bytes_: int

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        width = self.width

        height = self.height

        bytes_ = self.bytes_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
                "width": width,
                "height": height,
                "bytes": bytes_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        width = d.pop("width")

        height = d.pop("height")

        bytes_ = d.pop("bytes")

        scrape_result_actions_screenshots_item = cls(
            url=url,
            width=width,
            height=height,
            bytes_=bytes_,
        )

        return scrape_result_actions_screenshots_item
