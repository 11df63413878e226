from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostApiAuthSignInEmailBody")


@_attrs_define
class PostApiAuthSignInEmailBody:
    """
    Attributes:
        email (str):
        password (str):
        remember_me (bool | Unset):
        callback_url (str | Unset):
    """

    email: str
    password: str
    remember_me: bool | Unset = UNSET
    callback_url: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        password = self.password

        remember_me = self.remember_me

        callback_url = self.callback_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "email": email,
                "password": password,
            }
        )
        if remember_me is not UNSET:
            field_dict["rememberMe"] = remember_me
        if callback_url is not UNSET:
            field_dict["callbackURL"] = callback_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        password = d.pop("password")

        remember_me = d.pop("rememberMe", UNSET)

        callback_url = d.pop("callbackURL", UNSET)

        post_api_auth_sign_in_email_body = cls(
            email=email,
            password=password,
            remember_me=remember_me,
            callback_url=callback_url,
        )

        post_api_auth_sign_in_email_body.additional_properties = d
        return post_api_auth_sign_in_email_body

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
