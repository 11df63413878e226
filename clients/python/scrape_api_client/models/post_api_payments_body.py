from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostApiPaymentsBody")


@_attrs_define
class PostApiPaymentsBody:
    """
    Attributes:
        pack_id (str):
    """

    pack_id: str

    def to_dict(self) -> dict[str, Any]:
        pack_id = self.pack_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "packId": pack_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        pack_id = d.pop("packId")

        post_api_payments_body = cls(
            pack_id=pack_id,
        )

        return post_api_payments_body
