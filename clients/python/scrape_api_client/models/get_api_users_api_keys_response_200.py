from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.api_key import ApiKey


T = TypeVar("T", bound="GetApiUsersApiKeysResponse200")


@_attrs_define
class GetApiUsersApiKeysResponse200:
    """
    Attributes:
        remaining (int):
        keys (list[ApiKey]):
    """

    remaining: int
    keys: list[ApiKey]

    def to_dict(self) -> dict[str, Any]:
        remaining = self.remaining

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "remaining": remaining,
                "keys": keys,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_key import ApiKey

        d = dict(src_dict)
        remaining = d.pop("remaining")

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = ApiKey.from_dict(keys_item_data)

            keys.append(keys_item)

        get_api_users_api_keys_response_200 = cls(
            remaining=remaining,
            keys=keys,
        )

        return get_api_users_api_keys_response_200
