from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_api_payments_id_local_webhook_body_outcome import (
    PostApiPaymentsIdLocalWebhookBodyOutcome,
)

T = TypeVar("T", bound="PostApiPaymentsIdLocalWebhookBody")


@_attrs_define
class PostApiPaymentsIdLocalWebhookBody:
    """
    Attributes:
        outcome (PostApiPaymentsIdLocalWebhookBodyOutcome):
    """

    outcome: PostApiPaymentsIdLocalWebhookBodyOutcome

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        outcome = PostApiPaymentsIdLocalWebhookBodyOutcome(d.pop("outcome"))

        post_api_payments_id_local_webhook_body = cls(
            outcome=outcome,
        )

        return post_api_payments_id_local_webhook_body
