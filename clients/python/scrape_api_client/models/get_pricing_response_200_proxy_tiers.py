from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_pricing_response_200_proxy_tiers_tiers import (
        GetPricingResponse200ProxyTiersTiers,
    )


T = TypeVar("T", bound="GetPricingResponse200ProxyTiers")


@_attrs_define
class GetPricingResponse200ProxyTiers:
    """
    Attributes:
        tiers (GetPricingResponse200ProxyTiersTiers):
        configured (list[str]):
        escalation (str):
    """

    tiers: GetPricingResponse200ProxyTiersTiers
    configured: list[str]
    escalation: str

    def to_dict(self) -> dict[str, Any]:
        tiers = self.tiers.to_dict()

        configured = self.configured

        escalation = self.escalation

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "tiers": tiers,
                "configured": configured,
                "escalation": escalation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_pricing_response_200_proxy_tiers_tiers import (
            GetPricingResponse200ProxyTiersTiers,
        )

        d = dict(src_dict)
        tiers = GetPricingResponse200ProxyTiersTiers.from_dict(d.pop("tiers"))

        configured = cast(list[str], d.pop("configured"))

        escalation = d.pop("escalation")

        get_pricing_response_200_proxy_tiers = cls(
            tiers=tiers,
            configured=configured,
            escalation=escalation,
        )

        return get_pricing_response_200_proxy_tiers
