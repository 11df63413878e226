from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.post_api_payments_id_local_webhook_response_200_headers import (
        PostApiPaymentsIdLocalWebhookResponse200Headers,
    )


T = TypeVar("T", bound="PostApiPaymentsIdLocalWebhookResponse200")


@_attrs_define
class PostApiPaymentsIdLocalWebhookResponse200:
    """
    Attributes:
        method (Literal['POST']):
        url (str):
        headers (PostApiPaymentsIdLocalWebhookResponse200Headers):
        body (str):
    """

    method: Literal["POST"]
    url: str
    headers: PostApiPaymentsIdLocalWebhookResponse200Headers
    body: str

    def to_dict(self) -> dict[str, Any]:
        method = self.method

        url = self.url

        headers = self.headers.to_dict()

        body = self.body

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "method": method,
                "url": url,
                "headers": headers,
                "body": body,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_api_payments_id_local_webhook_response_200_headers import (
            PostApiPaymentsIdLocalWebhookResponse200Headers,
        )

        d = dict(src_dict)
        method = cast(Literal["POST"], d.pop("method"))
        if method != "POST":
            raise ValueError(f"method must match const 'POST', got '{method}'")

        url = d.pop("url")

        headers = PostApiPaymentsIdLocalWebhookResponse200Headers.from_dict(
            d.pop("headers")
        )

        body = d.pop("body")

        post_api_payments_id_local_webhook_response_200 = cls(
            method=method,
            url=url,
            headers=headers,
            body=body,
        )

        return post_api_payments_id_local_webhook_response_200
