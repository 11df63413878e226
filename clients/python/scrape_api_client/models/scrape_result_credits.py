from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeResultCredits")


@_attrs_define
class ScrapeResultCredits:
    """
    Attributes:
        cost (int):
        remaining (int):
    """

    cost: int
    remaining: int

    def to_dict(self) -> dict[str, Any]:
        cost = self.cost

        remaining = self.remaining

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cost": cost,
                "remaining": remaining,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cost = d.pop("cost")

        remaining = d.pop("remaining")

        scrape_result_credits = cls(
            cost=cost,
            remaining=remaining,
        )

        return scrape_result_credits
