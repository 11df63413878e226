from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV2SearchResponse200")


@_attrs_define
class PostV2SearchResponse200:
    """
    Attributes:
        success (bool):
        data (Any):
        credits_used (float | Unset):
        id (str | Unset):
        warning (str | Unset):
    """

    success: bool
    data: Any
    credits_used: float | Unset = UNSET
    id: str | Unset = UNSET
    warning: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        data = self.data

        credits_used = self.credits_used

        id = self.id

        warning = self.warning

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "success": success,
                "data": data,
            }
        )
        if credits_used is not UNSET:
            field_dict["creditsUsed"] = credits_used
        if id is not UNSET:
            field_dict["id"] = id
        if warning is not UNSET:
            field_dict["warning"] = warning

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        success = d.pop("success")

        data = d.pop("data")

        credits_used = d.pop("creditsUsed", UNSET)

        id = d.pop("id", UNSET)

        warning = d.pop("warning", UNSET)

        post_v2_search_response_200 = cls(
            success=success,
            data=data,
            credits_used=credits_used,
            id=id,
            warning=warning,
        )

        post_v2_search_response_200.additional_properties = d
        return post_v2_search_response_200

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
