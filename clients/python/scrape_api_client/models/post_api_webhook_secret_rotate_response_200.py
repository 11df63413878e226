from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostApiWebhookSecretRotateResponse200")


@_attrs_define
class PostApiWebhookSecretRotateResponse200:
    """
    Attributes:
        secret (str):
    """

    secret: str

    def to_dict(self) -> dict[str, Any]:
        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        secret = d.pop("secret")

        post_api_webhook_secret_rotate_response_200 = cls(
            secret=secret,
        )

        return post_api_webhook_secret_rotate_response_200
