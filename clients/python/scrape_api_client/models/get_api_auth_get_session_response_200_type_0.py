from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_api_auth_get_session_response_200_type_0_session import (
        GetApiAuthGetSessionResponse200Type0Session,
    )
    from ..models.get_api_auth_get_session_response_200_type_0_user import (
        GetApiAuthGetSessionResponse200Type0User,
    )


T = TypeVar("T", bound="GetApiAuthGetSessionResponse200Type0")


@_attrs_define
class GetApiAuthGetSessionResponse200Type0:
    """
    Attributes:
        session (GetApiAuthGetSessionResponse200Type0Session):
        user (GetApiAuthGetSessionResponse200Type0User):
    """

    session: GetApiAuthGetSessionResponse200Type0Session
    user: GetApiAuthGetSessionResponse200Type0User

    def to_dict(self) -> dict[str, Any]:
        session = self.session.to_dict()

        user = self.user.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "session": session,
                "user": user,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_api_auth_get_session_response_200_type_0_session import (
            GetApiAuthGetSessionResponse200Type0Session,
        )
        from ..models.get_api_auth_get_session_response_200_type_0_user import (
            GetApiAuthGetSessionResponse200Type0User,
        )

        d = dict(src_dict)
        session = GetApiAuthGetSessionResponse200Type0Session.from_dict(
            d.pop("session")
        )

        user = GetApiAuthGetSessionResponse200Type0User.from_dict(d.pop("user"))

        get_api_auth_get_session_response_200_type_0 = cls(
            session=session,
            user=user,
        )

        return get_api_auth_get_session_response_200_type_0
