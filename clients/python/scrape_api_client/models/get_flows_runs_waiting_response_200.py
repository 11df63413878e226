from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.waiting_flow_run import WaitingFlowRun


T = TypeVar("T", bound="GetFlowsRunsWaitingResponse200")


@_attrs_define
class GetFlowsRunsWaitingResponse200:
    """
    Attributes:
        runs (list[WaitingFlowRun]):
    """

    runs: list[WaitingFlowRun]

    def to_dict(self) -> dict[str, Any]:
        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "runs": runs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.waiting_flow_run import WaitingFlowRun

        d = dict(src_dict)
        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:
            runs_item = WaitingFlowRun.from_dict(runs_item_data)

            runs.append(runs_item)

        get_flows_runs_waiting_response_200 = cls(
            runs=runs,
        )

        return get_flows_runs_waiting_response_200
