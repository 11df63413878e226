from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetV1TeamTokenUsageResponse200Data")


@_attrs_define
class GetV1TeamTokenUsageResponse200Data:
    """
    Attributes:
        remaining_tokens (int): Always 0: there is no token budget, model work is priced in credits
        plan_tokens (None):
        billing_period_start (None):
        billing_period_end (None):
        tokens_used (int):
        prompt_tokens (int):
        completion_tokens (int):
    """

    remaining_tokens: int
    plan_tokens: None
    billing_period_start: None
    billing_period_end: None
    tokens_used: int
    prompt_tokens: int
    completion_tokens: int

    def to_dict(self) -> dict[str, Any]:
        remaining_tokens = self.remaining_tokens

        plan_tokens = self.plan_tokens

        billing_period_start = self.billing_period_start

        billing_period_end = self.billing_period_end

        tokens_used = self.tokens_used

        prompt_tokens = self.prompt_tokens

        completion_tokens = self.completion_tokens

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "remainingTokens": remaining_tokens,
                "planTokens": plan_tokens,
                "billingPeriodStart": billing_period_start,
                "billingPeriodEnd": billing_period_end,
                "tokensUsed": tokens_used,
                "promptTokens": prompt_tokens,
                "completionTokens": completion_tokens,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        remaining_tokens = d.pop("remainingTokens")

        plan_tokens = d.pop("planTokens")

        billing_period_start = d.pop("billingPeriodStart")

        billing_period_end = d.pop("billingPeriodEnd")

        tokens_used = d.pop("tokensUsed")

        prompt_tokens = d.pop("promptTokens")

        completion_tokens = d.pop("completionTokens")

        get_v1_team_token_usage_response_200_data = cls(
            remaining_tokens=remaining_tokens,
            plan_tokens=plan_tokens,
            billing_period_start=billing_period_start,
            billing_period_end=billing_period_end,
            tokens_used=tokens_used,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
        )

        return get_v1_team_token_usage_response_200_data
