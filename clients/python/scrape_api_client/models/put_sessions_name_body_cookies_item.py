from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.put_sessions_name_body_cookies_item_same_site import (
    PutSessionsNameBodyCookiesItemSameSite,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PutSessionsNameBodyCookiesItem")


@_attrs_define
class PutSessionsNameBodyCookiesItem:
    """
    Attributes:
        name (str):
        value (str):
        domain (str):
        path (str | Unset):  Default: '/'.
        expires (float | Unset):  Default: -1.0.
        http_only (bool | Unset):  Default: False.
        secure (bool | Unset):  Default: False.
        same_site (PutSessionsNameBodyCookiesItemSameSite | Unset):  Default:
            PutSessionsNameBodyCookiesItemSameSite.LAX.
    """

    name: str
    value: str
    domain: str
    path: str | Unset = "/"
    expires: float | Unset = -1.0
    http_only: bool | Unset = False
    secure: bool | Unset = False
    same_site: PutSessionsNameBodyCookiesItemSameSite | Unset = (
        PutSessionsNameBodyCookiesItemSameSite.LAX
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value = self.value

        domain = self.domain

        path = self.path

        expires = self.expires

        http_only = self.http_only

        secure = self.secure

        same_site: str | Unset = UNSET
        if not isinstance(self.same_site, Unset):
            same_site = self.same_site.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "value": value,
                "domain": domain,
            }
        )
        if path is not UNSET:
            field_dict["path"] = path
        if expires is not UNSET:
            field_dict["expires"] = expires
        if http_only is not UNSET:
            field_dict["httpOnly"] = http_only
        if secure is not UNSET:
            field_dict["secure"] = secure
        if same_site is not UNSET:
            field_dict["sameSite"] = same_site

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        value = d.pop("value")

        domain = d.pop("domain")

        path = d.pop("path", UNSET)

        expires = d.pop("expires", UNSET)

        http_only = d.pop("httpOnly", UNSET)

        secure = d.pop("secure", UNSET)

        _same_site = d.pop("sameSite", UNSET)
        same_site: PutSessionsNameBodyCookiesItemSameSite | Unset
        if isinstance(_same_site, Unset):
            same_site = UNSET
        else:
            same_site = PutSessionsNameBodyCookiesItemSameSite(_same_site)

        put_sessions_name_body_cookies_item = cls(
            name=name,
            value=value,
            domain=domain,
            path=path,
            expires=expires,
            http_only=http_only,
            secure=secure,
            same_site=same_site,
        )

        put_sessions_name_body_cookies_item.additional_properties = d
        return put_sessions_name_body_cookies_item

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
