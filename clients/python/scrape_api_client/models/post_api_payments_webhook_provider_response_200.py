from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostApiPaymentsWebhookProviderResponse200")


@_attrs_define
class PostApiPaymentsWebhookProviderResponse200:
    """
    Attributes:
        received (bool):
        outcome (str):
        payment_id (None | str):
        status (None | str):
    """

    received: bool
    outcome: str
    payment_id: None | str
    status: None | str

    def to_dict(self) -> dict[str, Any]:
        received = self.received

        outcome = self.outcome

        payment_id: None | str
        payment_id = self.payment_id

        status: None | str
        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "received": received,
                "outcome": outcome,
                "paymentId": payment_id,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        received = d.pop("received")

        outcome = d.pop("outcome")

        def _parse_payment_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_id = _parse_payment_id(d.pop("paymentId"))

        def _parse_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        status = _parse_status(d.pop("status"))

        post_api_payments_webhook_provider_response_200 = cls(
            received=received,
            outcome=outcome,
            payment_id=payment_id,
            status=status,
        )

        return post_api_payments_webhook_provider_response_200
