from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostApiUsersCreateApiKeysBody")


@_attrs_define
class PostApiUsersCreateApiKeysBody:
    """
    Attributes:
        name (str):
        prefix (str | Unset):  Default: 'sk_'.
        expires_in (int | Unset):
    """

    name: str
    prefix: str | Unset = "sk_"
    expires_in: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        prefix = self.prefix

        expires_in = self.expires_in

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if prefix is not UNSET:
            field_dict["prefix"] = prefix
        if expires_in is not UNSET:
            field_dict["expiresIn"] = expires_in

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        prefix = d.pop("prefix", UNSET)

        expires_in = d.pop("expiresIn", UNSET)

        post_api_users_create_api_keys_body = cls(
            name=name,
            prefix=prefix,
            expires_in=expires_in,
        )

        return post_api_users_create_api_keys_body
