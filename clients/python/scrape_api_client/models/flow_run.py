from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.flow_run_status import FlowRunStatus

if TYPE_CHECKING:
    from ..models.flow_run_credits import FlowRunCredits
    from ..models.flow_run_links import FlowRunLinks
    from ..models.flow_run_nodes_item import FlowRunNodesItem


T = TypeVar("T", bound="FlowRun")


@_attrs_define
class FlowRun:
    """
    Attributes:
        id (str):
        flow_id (str):
        flow_version (int):
        status (FlowRunStatus):
        error (Any):
        workflow_id (str):
        created_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        links (FlowRunLinks):
        credits_ (FlowRunCredits):
        nodes (list[FlowRunNodesItem]):
    """

    id: str
    flow_id: str
    flow_version: int
    status: FlowRunStatus
    error: Any
    workflow_id: str
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    links: FlowRunLinks
    credits_: FlowRunCredits
    nodes: list[FlowRunNodesItem]

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

        credits_ = self.credits_.to_dict()

        nodes = []
        for nodes_item_data in self.nodes:
            nodes_item = nodes_item_data.to_dict()
            nodes.append(nodes_item)

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
                "credits": credits_,
                "nodes": nodes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.flow_run_credits import FlowRunCredits
        from ..models.flow_run_links import FlowRunLinks
        from ..models.flow_run_nodes_item import FlowRunNodesItem

        d = dict(src_dict)
        id = d.pop("id")

        flow_id = d.pop("flowId")

        flow_version = d.pop("flowVersion")

        status = FlowRunStatus(d.pop("status"))

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

        links = FlowRunLinks.from_dict(d.pop("links"))

        credits_ = FlowRunCredits.from_dict(d.pop("credits"))

        nodes = []
        _nodes = d.pop("nodes")
        for nodes_item_data in _nodes:
            nodes_item = FlowRunNodesItem.from_dict(nodes_item_data)

            nodes.append(nodes_item)

        flow_run = cls(
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
            credits_=credits_,
            nodes=nodes,
        )

        return flow_run
