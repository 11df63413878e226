from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostApiUsersCreateApiKeysResponse201")


@_attrs_define
class PostApiUsersCreateApiKeysResponse201:
    """
    Attributes:
        id (str):
        name (None | str):
        start (None | str):
        prefix (None | str):
        remaining (int):
        created_at (datetime.datetime):
        expires_at (datetime.datetime | None):
        enabled (bool):
        key (str): The secret: shown once, here.
    """

    id: str
    name: None | str
    start: None | str
    prefix: None | str
    remaining: int
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    enabled: bool
    key: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name: None | str
        name = self.name

        start: None | str
        start = self.start

        prefix: None | str
        prefix = self.prefix

        remaining = self.remaining

        created_at = self.created_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        enabled = self.enabled

        key = self.key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "start": start,
                "prefix": prefix,
                "remaining": remaining,
                "createdAt": created_at,
                "expiresAt": expires_at,
                "enabled": enabled,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        def _parse_start(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        start = _parse_start(d.pop("start"))

        def _parse_prefix(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        prefix = _parse_prefix(d.pop("prefix"))

        remaining = d.pop("remaining")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expiresAt"))

        enabled = d.pop("enabled")

        key = d.pop("key")

        post_api_users_create_api_keys_response_201 = cls(
            id=id,
            name=name,
            start=start,
            prefix=prefix,
            remaining=remaining,
            created_at=created_at,
            expires_at=expires_at,
            enabled=enabled,
            key=key,
        )

        return post_api_users_create_api_keys_response_201
