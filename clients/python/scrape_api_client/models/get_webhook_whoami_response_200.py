from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetWebhookWhoamiResponse200")


@_attrs_define
class GetWebhookWhoamiResponse200:
    """
    Attributes:
        user_id (str):
        api_key_id (None | str):
        remaining (int):
    """

    user_id: str
    api_key_id: None | str
    remaining: int

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        api_key_id: None | str
        api_key_id = self.api_key_id

        remaining = self.remaining

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
                "apiKeyId": api_key_id,
                "remaining": remaining,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("userId")

        def _parse_api_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        api_key_id = _parse_api_key_id(d.pop("apiKeyId"))

        remaining = d.pop("remaining")

        get_webhook_whoami_response_200 = cls(
            user_id=user_id,
            api_key_id=api_key_id,
            remaining=remaining,
        )

        return get_webhook_whoami_response_200
