from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.flow import Flow


T = TypeVar("T", bound="GetFlowsResponse200")


@_attrs_define
class GetFlowsResponse200:
    """
    Attributes:
        flows (list[Flow]):
    """

    flows: list[Flow]

    def to_dict(self) -> dict[str, Any]:
        flows = []
        for flows_item_data in self.flows:
            flows_item = flows_item_data.to_dict()
            flows.append(flows_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "flows": flows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.flow import Flow

        d = dict(src_dict)
        flows = []
        _flows = d.pop("flows")
        for flows_item_data in _flows:
            flows_item = Flow.from_dict(flows_item_data)

            flows.append(flows_item)

        get_flows_response_200 = cls(
            flows=flows,
        )

        return get_flows_response_200
