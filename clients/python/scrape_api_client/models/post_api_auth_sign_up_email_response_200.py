from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_api_auth_sign_up_email_response_200_user import (
        PostApiAuthSignUpEmailResponse200User,
    )


T = TypeVar("T", bound="PostApiAuthSignUpEmailResponse200")


@_attrs_define
class PostApiAuthSignUpEmailResponse200:
    """
    Attributes:
        user (PostApiAuthSignUpEmailResponse200User):
        token (None | str | Unset):
    """

    user: PostApiAuthSignUpEmailResponse200User
    token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        token: None | str | Unset
        if isinstance(self.token, Unset):
            token = UNSET
        else:
            token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user": user,
            }
        )
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_api_auth_sign_up_email_response_200_user import (
            PostApiAuthSignUpEmailResponse200User,
        )

        d = dict(src_dict)
        user = PostApiAuthSignUpEmailResponse200User.from_dict(d.pop("user"))

        def _parse_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        token = _parse_token(d.pop("token", UNSET))

        post_api_auth_sign_up_email_response_200 = cls(
            user=user,
            token=token,
        )

        post_api_auth_sign_up_email_response_200.additional_properties = d
        return post_api_auth_sign_up_email_response_200

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
