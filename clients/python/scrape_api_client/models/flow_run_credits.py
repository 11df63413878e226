from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FlowRunCredits")


@_attrs_define
class FlowRunCredits:
    """
    Attributes:
        spent (int):
    """

    spent: int

    def to_dict(self) -> dict[str, Any]:
        spent = self.spent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "spent": spent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        spent = d.pop("spent")

        flow_run_credits = cls(
            spent=spent,
        )

        return flow_run_credits
