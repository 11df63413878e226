from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_temporal_codec_token_decode_response_200_payloads_item_metadata_type_0 import (
        PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0,
    )


T = TypeVar("T", bound="PostTemporalCodecTokenDecodeResponse200PayloadsItem")


@_attrs_define
class PostTemporalCodecTokenDecodeResponse200PayloadsItem:
    """
    Attributes:
        metadata (None | PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0 | Unset):
        data (None | str | Unset):
    """

    metadata: (
        None | PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0 | Unset
    ) = UNSET
    data: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.post_temporal_codec_token_decode_response_200_payloads_item_metadata_type_0 import (
            PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0,
        )

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(
            self.metadata,
            PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0,
        ):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        data: None | str | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        else:
            data = self.data

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_temporal_codec_token_decode_response_200_payloads_item_metadata_type_0 import (
            PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0,
        )

        d = dict(src_dict)

        def _parse_metadata(
            data: object,
        ) -> (
            None
            | PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0.from_dict(
                    data
                )

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | PostTemporalCodecTokenDecodeResponse200PayloadsItemMetadataType0
                | Unset,
                data,
            )

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_data(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        data = _parse_data(d.pop("data", UNSET))

        post_temporal_codec_token_decode_response_200_payloads_item = cls(
            metadata=metadata,
            data=data,
        )

        return post_temporal_codec_token_decode_response_200_payloads_item
