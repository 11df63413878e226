from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_api_users_session_response_200_session import (
        GetApiUsersSessionResponse200Session,
    )
    from ..models.get_api_users_session_response_200_user import (
        GetApiUsersSessionResponse200User,
    )


T = TypeVar("T", bound="GetApiUsersSessionResponse200")


@_attrs_define
class GetApiUsersSessionResponse200:
    """
    Attributes:
        user (GetApiUsersSessionResponse200User):
        session (GetApiUsersSessionResponse200Session):
    """

    user: GetApiUsersSessionResponse200User
    session: GetApiUsersSessionResponse200Session

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        session = self.session.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user": user,
                "session": session,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_api_users_session_response_200_session import (
            GetApiUsersSessionResponse200Session,
        )
        from ..models.get_api_users_session_response_200_user import (
            GetApiUsersSessionResponse200User,
        )

        d = dict(src_dict)
        user = GetApiUsersSessionResponse200User.from_dict(d.pop("user"))

        session = GetApiUsersSessionResponse200Session.from_dict(d.pop("session"))

        get_api_users_session_response_200 = cls(
            user=user,
            session=session,
        )

        return get_api_users_session_response_200
