from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.post_temporal_codec_token_decode_body_payloads_item import (
        PostTemporalCodecTokenDecodeBodyPayloadsItem,
    )


T = TypeVar("T", bound="PostTemporalCodecTokenDecodeBody")


@_attrs_define
class PostTemporalCodecTokenDecodeBody:
    """
    Attributes:
        payloads (list[PostTemporalCodecTokenDecodeBodyPayloadsItem]):
    """

    payloads: list[PostTemporalCodecTokenDecodeBodyPayloadsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        payloads = []
        for payloads_item_data in self.payloads:
            payloads_item = payloads_item_data.to_dict()
            payloads.append(payloads_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "payloads": payloads,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_temporal_codec_token_decode_body_payloads_item import (
            PostTemporalCodecTokenDecodeBodyPayloadsItem,
        )

        d = dict(src_dict)
        payloads = []
        _payloads = d.pop("payloads")
        for payloads_item_data in _payloads:
            payloads_item = PostTemporalCodecTokenDecodeBodyPayloadsItem.from_dict(
                payloads_item_data
            )

            payloads.append(payloads_item)

        post_temporal_codec_token_decode_body = cls(
            payloads=payloads,
        )

        post_temporal_codec_token_decode_body.additional_properties = d
        return post_temporal_codec_token_decode_body

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
