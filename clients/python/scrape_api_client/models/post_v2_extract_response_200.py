from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostV2ExtractResponse200")


@_attrs_define
class PostV2ExtractResponse200:
    """
    Attributes:
        success (bool):
        id (str):
        url_trace (list[str]):
    """

    success: bool
    id: str
    url_trace: list[str]

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        id = self.id

        url_trace = self.url_trace

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "id": id,
                "urlTrace": url_trace,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        success = d.pop("success")

        id = d.pop("id")

        url_trace = cast(list[str], d.pop("urlTrace"))

        post_v2_extract_response_200 = cls(
            success=success,
            id=id,
            url_trace=url_trace,
        )

        return post_v2_extract_response_200
