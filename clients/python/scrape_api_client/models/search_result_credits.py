from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="SearchResultCredits")


@_attrs_define
class SearchResultCredits:
    """
    Attributes:
        cost (float):
        remaining (float):
    """

    cost: float
    remaining: float

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

        search_result_credits = cls(
            cost=cost,
            remaining=remaining,
        )

        return search_result_credits
