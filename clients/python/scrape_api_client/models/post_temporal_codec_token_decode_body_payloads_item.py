from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_temporal_codec_token_decode_body_payloads_item_metadata_type_0 import (
        PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0,
    )


T = TypeVar("T", bound="PostTemporalCodecTokenDecodeBodyPayloadsItem")


@_attrs_define
class PostTemporalCodecTokenDecodeBodyPayloadsItem:
    """
    Attributes:
        metadata (None | PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0 | Unset):
        data (None | str | Unset):
    """

    metadata: (
        None | PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0 | Unset
    ) = UNSET
    data: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.post_temporal_codec_token_decode_body_payloads_item_metadata_type_0 import (
            PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0,
        )

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(
            self.metadata, PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0
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
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if data is not UNSET:
            field_dict["data"] = data

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_temporal_codec_token_decode_body_payloads_item_metadata_type_0 import (
            PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0,
        )

        d = dict(src_dict)

        def _parse_metadata(
            data: object,
        ) -> None | PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = (
                    PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0.from_dict(
                        data
                    )
                )

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | PostTemporalCodecTokenDecodeBodyPayloadsItemMetadataType0
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

        post_temporal_codec_token_decode_body_payloads_item = cls(
            metadata=metadata,
            data=data,
        )

        post_temporal_codec_token_decode_body_payloads_item.additional_properties = d
        return post_temporal_codec_token_decode_body_payloads_item

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
