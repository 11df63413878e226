from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Session")


@_attrs_define
class Session:
    """
    Attributes:
        name (str):
        domains (list[str]): The domains of its cookies and the hosts of its local storage.
        size_bytes (int): Its storage state as JSON, in bytes (bounded by SESSION_MAX_BYTES).
        cookie_count (int):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        last_used_at (datetime.datetime | None): When a scrape last started from it.
        expires_at (datetime.datetime | None): The latest expiry among its cookies; null when they are session cookies.
    """

    name: str
    domains: list[str]
    size_bytes: int
    cookie_count: int
    created_at: datetime.datetime
    updated_at: datetime.datetime
    last_used_at: datetime.datetime | None
    expires_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        domains = self.domains

        size_bytes = self.size_bytes

        cookie_count = self.cookie_count

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "domains": domains,
                "size_bytes": size_bytes,
                "cookie_count": cookie_count,
                "created_at": created_at,
                "updated_at": updated_at,
                "last_used_at": last_used_at,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        domains = cast(list[str], d.pop("domains"))

        size_bytes = d.pop("size_bytes")

        cookie_count = d.pop("cookie_count")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

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

        last_used_at = _parse_last_used_at(d.pop("last_used_at"))

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

        expires_at = _parse_expires_at(d.pop("expires_at"))

        session = cls(
            name=name,
            domains=domains,
            size_bytes=size_bytes,
            cookie_count=cookie_count,
            created_at=created_at,
            updated_at=updated_at,
            last_used_at=last_used_at,
            expires_at=expires_at,
        )

        return session
