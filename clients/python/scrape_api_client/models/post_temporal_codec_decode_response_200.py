from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.post_temporal_codec_decode_response_200_payloads_item import (
        PostTemporalCodecDecodeResponse200PayloadsItem,
    )


T = TypeVar("T", bound="PostTemporalCodecDecodeResponse200")


@_attrs_define
class PostTemporalCodecDecodeResponse200:
    """
    Attributes:
        payloads (list[PostTemporalCodecDecodeResponse200PayloadsItem]):
    """

    payloads: list[PostTemporalCodecDecodeResponse200PayloadsItem]

    def to_dict(self) -> dict[str, Any]:
        payloads = []
        for payloads_item_data in self.payloads:
            payloads_item = payloads_item_data.to_dict()
            payloads.append(payloads_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payloads": payloads,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_temporal_codec_decode_response_200_payloads_item import (
            PostTemporalCodecDecodeResponse200PayloadsItem,
        )

        d = dict(src_dict)
        payloads = []
        _payloads = d.pop("payloads")
        for payloads_item_data in _payloads:
            payloads_item = PostTemporalCodecDecodeResponse200PayloadsItem.from_dict(
                payloads_item_data
            )

            payloads.append(payloads_item)

        post_temporal_codec_decode_response_200 = cls(
            payloads=payloads,
        )

        return post_temporal_codec_decode_response_200
