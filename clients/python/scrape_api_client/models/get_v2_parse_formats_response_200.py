from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_v2_parse_formats_response_200_data import (
        GetV2ParseFormatsResponse200Data,
    )


T = TypeVar("T", bound="GetV2ParseFormatsResponse200")


@_attrs_define
class GetV2ParseFormatsResponse200:
    """
    Attributes:
        success (bool):
        data (GetV2ParseFormatsResponse200Data):
    """

    success: bool
    data: GetV2ParseFormatsResponse200Data

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_v2_parse_formats_response_200_data import (
            GetV2ParseFormatsResponse200Data,
        )

        d = dict(src_dict)
        success = d.pop("success")

        data = GetV2ParseFormatsResponse200Data.from_dict(d.pop("data"))

        get_v2_parse_formats_response_200 = cls(
            success=success,
            data=data,
        )

        return get_v2_parse_formats_response_200
