from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetV2ParseFormatsResponse200DataFormatsItem")


@_attrs_define
class GetV2ParseFormatsResponse200DataFormatsItem:
    """
    Attributes:
        format_ (str):
        kind (str):
        extensions (list[str]):
        mime_types (list[str]):
        available (bool):
    """

    format_: str
    kind: str
    extensions: list[str]
    mime_types: list[str]
    available: bool

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        kind = self.kind

        extensions = self.extensions

        mime_types = self.mime_types

        available = self.available

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "kind": kind,
                "extensions": extensions,
                "mimeTypes": mime_types,
                "available": available,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        format_ = d.pop("format")

        kind = d.pop("kind")

        extensions = cast(list[str], d.pop("extensions"))

        mime_types = cast(list[str], d.pop("mimeTypes"))

        available = d.pop("available")

        get_v2_parse_formats_response_200_data_formats_item = cls(
            format_=format_,
            kind=kind,
            extensions=extensions,
            mime_types=mime_types,
            available=available,
        )

        return get_v2_parse_formats_response_200_data_formats_item
