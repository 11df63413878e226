from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.firecrawl_v2_map_response_links_item import (
        FirecrawlV2MapResponseLinksItem,
    )


T = TypeVar("T", bound="FirecrawlV2MapResponse")


@_attrs_define
class FirecrawlV2MapResponse:
    """
    Attributes:
        success (bool):
        links (list[FirecrawlV2MapResponseLinksItem]):
    """

    success: bool
    links: list[FirecrawlV2MapResponseLinksItem]

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        links = []
        for links_item_data in self.links:
            links_item = links_item_data.to_dict()
            links.append(links_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "links": links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_v2_map_response_links_item import (
            FirecrawlV2MapResponseLinksItem,
        )

        d = dict(src_dict)
        success = d.pop("success")

        links = []
        _links = d.pop("links")
        for links_item_data in _links:
            links_item = FirecrawlV2MapResponseLinksItem.from_dict(links_item_data)

            links.append(links_item)

        firecrawl_v2_map_response = cls(
            success=success,
            links=links,
        )

        return firecrawl_v2_map_response
