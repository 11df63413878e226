from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="FirecrawlV1MapResponse")


@_attrs_define
class FirecrawlV1MapResponse:
    """
    Attributes:
        success (bool):
        links (list[str]):
    """

    success: bool
    links: list[str]

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        links = self.links

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
        d = dict(src_dict)
        success = d.pop("success")

        links = cast(list[str], d.pop("links"))

        firecrawl_v1_map_response = cls(
            success=success,
            links=links,
        )

        return firecrawl_v1_map_response
