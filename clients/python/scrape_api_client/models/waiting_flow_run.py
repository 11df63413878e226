from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.waiting_flow_run_status import WaitingFlowRunStatus

if TYPE_CHECKING:
    from ..models.waiting_flow_run_links import WaitingFlowRunLinks
    from ..models.waiting_flow_run_waiting_item import WaitingFlowRunWaitingItem


T = TypeVar("T", bound="WaitingFlowRun")


@_attrs_define
class WaitingFlowRun:
    """
    Attributes:
        id (str):
        flow_id (str):
        flow_version (int):
        status (WaitingFlowRunStatus):
        error (Any):
        workflow_id (str):
        created_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        links (WaitingFlowRunLinks):
        flow_name (str):
        waiting (list[WaitingFlowRunWaitingItem]):
    """

    id: str
    flow_id: str
    flow_version: int
    status: WaitingFlowRunStatus
    error: Any
    workflow_id: str
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    links: WaitingFlowRunLinks
    flow_name: str
    waiting: list[WaitingFlowRunWaitingItem]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        flow_id = self.flow_id

        flow_version = self.flow_version

        status = self.status.value

        error = self.error

        workflow_id = self.workflow_id

        created_at = self.created_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        links = self.links.to_dict()

        flow_name = self.flow_name

        waiting = []
        for waiting_item_data in self.waiting:
            waiting_item = waiting_item_data.to_dict()
            waiting.append(waiting_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "flowId": flow_id,
                "flowVersion": flow_version,
                "status": status,
                "error": error,
                "workflowId": workflow_id,
                "createdAt": created_at,
                "startedAt": started_at,
                "finishedAt": finished_at,
                "links": links,
                "flowName": flow_name,
                "waiting": waiting,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.waiting_flow_run_links import WaitingFlowRunLinks
        from ..models.waiting_flow_run_waiting_item import WaitingFlowRunWaitingItem

        d = dict(src_dict)
        id = d.pop("id")

        flow_id = d.pop("flowId")

        flow_version = d.pop("flowVersion")

        status = WaitingFlowRunStatus(d.pop("status"))

        error = d.pop("error")

        workflow_id = d.pop("workflowId")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        links = WaitingFlowRunLinks.from_dict(d.pop("links"))

        flow_name = d.pop("flowName")

        waiting = []
        _waiting = d.pop("waiting")
        for waiting_item_data in _waiting:
            waiting_item = WaitingFlowRunWaitingItem.from_dict(waiting_item_data)

            waiting.append(waiting_item)

        waiting_flow_run = cls(
            id=id,
            flow_id=flow_id,
            flow_version=flow_version,
            status=status,
            error=error,
            workflow_id=workflow_id,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            links=links,
            flow_name=flow_name,
            waiting=waiting,
        )

        return waiting_flow_run
