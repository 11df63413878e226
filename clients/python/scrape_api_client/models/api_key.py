from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ApiKey")


@_attrs_define
class ApiKey:
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
        last_used_at (datetime.datetime | None):
    """

    id: str
    name: None | str
    start: None | str
    prefix: None | str
    remaining: int
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    enabled: bool
    last_used_at: datetime.datetime | None

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

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

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
                "lastUsedAt": last_used_at,
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

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("lastUsedAt"))

        api_key = cls(
            id=id,
            name=name,
            start=start,
            prefix=prefix,
            remaining=remaining,
            created_at=created_at,
            expires_at=expires_at,
            enabled=enabled,
            last_used_at=last_used_at,
        )

        return api_key
