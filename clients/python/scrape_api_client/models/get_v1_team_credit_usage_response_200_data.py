from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetV1TeamCreditUsageResponse200Data")


@_attrs_define
class GetV1TeamCreditUsageResponse200Data:
    """
    Attributes:
        remaining_credits (int):
        plan_credits (None):
        billing_period_start (None):
        billing_period_end (None):
    """

    remaining_credits: int
    plan_credits: None
    billing_period_start: None
    billing_period_end: None

    def to_dict(self) -> dict[str, Any]:
        remaining_credits = self.remaining_credits

        plan_credits = self.plan_credits

        billing_period_start = self.billing_period_start

        billing_period_end = self.billing_period_end

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "remainingCredits": remaining_credits,
                "planCredits": plan_credits,
                "billingPeriodStart": billing_period_start,
                "billingPeriodEnd": billing_period_end,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        remaining_credits = d.pop("remainingCredits")

        plan_credits = d.pop("planCredits")

        billing_period_start = d.pop("billingPeriodStart")

        billing_period_end = d.pop("billingPeriodEnd")

        get_v1_team_credit_usage_response_200_data = cls(
            remaining_credits=remaining_credits,
            plan_credits=plan_credits,
            billing_period_start=billing_period_start,
            billing_period_end=billing_period_end,
        )

        return get_v1_team_credit_usage_response_200_data
