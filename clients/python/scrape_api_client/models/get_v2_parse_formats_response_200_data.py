from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_v2_parse_formats_response_200_data_formats_item import (
        GetV2ParseFormatsResponse200DataFormatsItem,
    )


T = TypeVar("T", bound="GetV2ParseFormatsResponse200Data")


@_attrs_define
class GetV2ParseFormatsResponse200Data:
    """
    Attributes:
        formats (list[GetV2ParseFormatsResponse200DataFormatsItem]):
    """

    formats: list[GetV2ParseFormatsResponse200DataFormatsItem]

    def to_dict(self) -> dict[str, Any]:
        formats = []
        for formats_item_data in self.formats:
            formats_item = formats_item_data.to_dict()
            formats.append(formats_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "formats": formats,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_v2_parse_formats_response_200_data_formats_item import (
            GetV2ParseFormatsResponse200DataFormatsItem,
        )

        d = dict(src_dict)
        formats = []
        _formats = d.pop("formats")
        for formats_item_data in _formats:
            formats_item = GetV2ParseFormatsResponse200DataFormatsItem.from_dict(
                formats_item_data
            )

            formats.append(formats_item)

        get_v2_parse_formats_response_200_data = cls(
            formats=formats,
        )

        return get_v2_parse_formats_response_200_data
