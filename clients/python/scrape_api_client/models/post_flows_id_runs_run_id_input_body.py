from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostFlowsIdRunsRunIdInputBody")


@_attrs_define
class PostFlowsIdRunsRunIdInputBody:
    """
    Attributes:
        node (str):
        value (str):
    """

    node: str
    value: str

    def to_dict(self) -> dict[str, Any]:
        node = self.node

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "node": node,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        node = d.pop("node")

        value = d.pop("value")

        post_flows_id_runs_run_id_input_body = cls(
            node=node,
            value=value,
        )

        return post_flows_id_runs_run_id_input_body
