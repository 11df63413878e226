from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetPricingResponse200Cache")


@_attrs_define
class GetPricingResponse200Cache:
    """
    Attributes:
        hit (int):
        rule (str):
    """

    hit: int
    rule: str

    def to_dict(self) -> dict[str, Any]:
        hit = self.hit

        rule = self.rule

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "hit": hit,
                "rule": rule,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        hit = d.pop("hit")

        rule = d.pop("rule")

        get_pricing_response_200_cache = cls(
            hit=hit,
            rule=rule,
        )

        return get_pricing_response_200_cache
