from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetApiUsersSessionResponse200User")


@_attrs_define
class GetApiUsersSessionResponse200User:
    """
    Attributes:
        id (str):
        email (str):
        name (str):
    """

    id: str
    email: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email = self.email

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        name = d.pop("name")

        get_api_users_session_response_200_user = cls(
            id=id,
            email=email,
            name=name,
        )

        return get_api_users_session_response_200_user
