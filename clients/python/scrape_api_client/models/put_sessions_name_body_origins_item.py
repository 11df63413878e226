from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.put_sessions_name_body_origins_item_local_storage_item import (
        PutSessionsNameBodyOriginsItemLocalStorageItem,
    )


T = TypeVar("T", bound="PutSessionsNameBodyOriginsItem")


@_attrs_define
class PutSessionsNameBodyOriginsItem:
    """
    Attributes:
        origin (str):
        local_storage (list[PutSessionsNameBodyOriginsItemLocalStorageItem] | Unset):
    """

    origin: str
    local_storage: list[PutSessionsNameBodyOriginsItemLocalStorageItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        origin = self.origin

        local_storage: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.local_storage, Unset):
            local_storage = []
            for local_storage_item_data in self.local_storage:
                local_storage_item = local_storage_item_data.to_dict()
                local_storage.append(local_storage_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "origin": origin,
            }
        )
        if local_storage is not UNSET:
            field_dict["localStorage"] = local_storage

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.put_sessions_name_body_origins_item_local_storage_item import (
            PutSessionsNameBodyOriginsItemLocalStorageItem,
        )

        d = dict(src_dict)
        origin = d.pop("origin")

        _local_storage = d.pop("localStorage", UNSET)
        local_storage: list[PutSessionsNameBodyOriginsItemLocalStorageItem] | Unset = (
            UNSET
        )
        if _local_storage is not UNSET:
            local_storage = []
            for local_storage_item_data in _local_storage:
                local_storage_item = (
                    PutSessionsNameBodyOriginsItemLocalStorageItem.from_dict(
                        local_storage_item_data
                    )
                )

                local_storage.append(local_storage_item)

        put_sessions_name_body_origins_item = cls(
            origin=origin,
            local_storage=local_storage,
        )

        put_sessions_name_body_origins_item.additional_properties = d
        return put_sessions_name_body_origins_item

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
