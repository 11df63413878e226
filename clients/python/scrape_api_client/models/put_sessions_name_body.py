from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.put_sessions_name_body_cookies_item import (
        PutSessionsNameBodyCookiesItem,
    )
    from ..models.put_sessions_name_body_origins_item import (
        PutSessionsNameBodyOriginsItem,
    )


T = TypeVar("T", bound="PutSessionsNameBody")


@_attrs_define
class PutSessionsNameBody:
    """
    Attributes:
        cookies (list[PutSessionsNameBodyCookiesItem] | Unset):
        origins (list[PutSessionsNameBodyOriginsItem] | Unset):
    """

    cookies: list[PutSessionsNameBodyCookiesItem] | Unset = UNSET
    origins: list[PutSessionsNameBodyOriginsItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cookies: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.cookies, Unset):
            cookies = []
            for cookies_item_data in self.cookies:
                cookies_item = cookies_item_data.to_dict()
                cookies.append(cookies_item)

        origins: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.origins, Unset):
            origins = []
            for origins_item_data in self.origins:
                origins_item = origins_item_data.to_dict()
                origins.append(origins_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if cookies is not UNSET:
            field_dict["cookies"] = cookies
        if origins is not UNSET:
            field_dict["origins"] = origins

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.put_sessions_name_body_cookies_item import (
            PutSessionsNameBodyCookiesItem,
        )
        from ..models.put_sessions_name_body_origins_item import (
            PutSessionsNameBodyOriginsItem,
        )

        d = dict(src_dict)
        _cookies = d.pop("cookies", UNSET)
        cookies: list[PutSessionsNameBodyCookiesItem] | Unset = UNSET
        if _cookies is not UNSET:
            cookies = []
            for cookies_item_data in _cookies:
                cookies_item = PutSessionsNameBodyCookiesItem.from_dict(
                    cookies_item_data
                )

                cookies.append(cookies_item)

        _origins = d.pop("origins", UNSET)
        origins: list[PutSessionsNameBodyOriginsItem] | Unset = UNSET
        if _origins is not UNSET:
            origins = []
            for origins_item_data in _origins:
                origins_item = PutSessionsNameBodyOriginsItem.from_dict(
                    origins_item_data
                )

                origins.append(origins_item)

        put_sessions_name_body = cls(
            cookies=cookies,
            origins=origins,
        )

        put_sessions_name_body.additional_properties = d
        return put_sessions_name_body

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
