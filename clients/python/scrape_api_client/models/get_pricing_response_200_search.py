from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetPricingResponse200Search")


@_attrs_define
class GetPricingResponse200Search:
    """
    Attributes:
        per_search (int):
        scraped_result (str):
        refunds (str):
    """

    per_search: int
    scraped_result: str
    refunds: str

    def to_dict(self) -> dict[str, Any]:
        per_search = self.per_search

        scraped_result = self.scraped_result

        refunds = self.refunds

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "per_search": per_search,
                "scraped_result": scraped_result,
                "refunds": refunds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        per_search = d.pop("per_search")

        scraped_result = d.pop("scraped_result")

        refunds = d.pop("refunds")

        get_pricing_response_200_search = cls(
            per_search=per_search,
            scraped_result=scraped_result,
            refunds=refunds,
        )

        return get_pricing_response_200_search
