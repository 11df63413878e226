from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScrapeRunDetailEscalationType0Item")


@_attrs_define
class ScrapeRunDetailEscalationType0Item:
    """
    Attributes:
        attempt (int):
        engine (str):
        proxy_tier (str):
        outcome (str):
        escalated (str | Unset):
        blocked_by (str | Unset):
    """

    attempt: int
    engine: str
    proxy_tier: str
    outcome: str
    escalated: str | Unset = UNSET
    blocked_by: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        engine = self.engine

        proxy_tier = self.proxy_tier

        outcome = self.outcome

        escalated = self.escalated

        blocked_by = self.blocked_by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "engine": engine,
                "proxy_tier": proxy_tier,
                "outcome": outcome,
            }
        )
        if escalated is not UNSET:
            field_dict["escalated"] = escalated
        if blocked_by is not UNSET:
            field_dict["blocked_by"] = blocked_by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        engine = d.pop("engine")

        proxy_tier = d.pop("proxy_tier")

        outcome = d.pop("outcome")

        escalated = d.pop("escalated", UNSET)

        blocked_by = d.pop("blocked_by", UNSET)

        scrape_run_detail_escalation_type_0_item = cls(
            attempt=attempt,
            engine=engine,
            proxy_tier=proxy_tier,
            outcome=outcome,
            escalated=escalated,
            blocked_by=blocked_by,
        )

        return scrape_run_detail_escalation_type_0_item
