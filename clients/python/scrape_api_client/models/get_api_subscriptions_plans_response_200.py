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
    from ..models.get_api_subscriptions_plans_response_200_plans_item import (
        GetApiSubscriptionsPlansResponse200PlansItem,
    )


T = TypeVar("T", bound="GetApiSubscriptionsPlansResponse200")


@_attrs_define
class GetApiSubscriptionsPlansResponse200:
    """
    Attributes:
        period_seconds (int):
        refill_policy (Literal['add']):
        plans (list[GetApiSubscriptionsPlansResponse200PlansItem]):
    """

    period_seconds: int
    refill_policy: Literal["add"]
    plans: list[GetApiSubscriptionsPlansResponse200PlansItem]

    def to_dict(self) -> dict[str, Any]:
        period_seconds = self.period_seconds

        refill_policy = self.refill_policy

        plans = []
        for plans_item_data in self.plans:
            plans_item = plans_item_data.to_dict()
            plans.append(plans_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "periodSeconds": period_seconds,
                "refillPolicy": refill_policy,
                "plans": plans,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_api_subscriptions_plans_response_200_plans_item import (
            GetApiSubscriptionsPlansResponse200PlansItem,
        )

        d = dict(src_dict)
        period_seconds = d.pop("periodSeconds")

        refill_policy = cast(Literal["add"], d.pop("refillPolicy"))
        if refill_policy != "add":
            raise ValueError(
                f"refillPolicy must match const 'add', got '{refill_policy}'"
            )

        plans = []
        _plans = d.pop("plans")
        for plans_item_data in _plans:
            plans_item = GetApiSubscriptionsPlansResponse200PlansItem.from_dict(
                plans_item_data
            )

            plans.append(plans_item)

        get_api_subscriptions_plans_response_200 = cls(
            period_seconds=period_seconds,
            refill_policy=refill_policy,
            plans=plans,
        )

        return get_api_subscriptions_plans_response_200
