from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="FirecrawlV2MapResponseLinksItem")


@_attrs_define
class FirecrawlV2MapResponseLinksItem:
    """
    Attributes:
        url (str):
        title (str | Unset):
        description (str | Unset):
    """

    url: str
    title: str | Unset = UNSET
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        title = self.title

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        title = d.pop("title", UNSET)

        description = d.pop("description", UNSET)

        firecrawl_v2_map_response_links_item = cls(
            url=url,
            title=title,
            description=description,
        )

        return firecrawl_v2_map_response_links_item
