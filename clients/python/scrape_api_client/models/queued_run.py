from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.queued_run_status import QueuedRunStatus

if TYPE_CHECKING:
    from ..models.queued_run_links import QueuedRunLinks


T = TypeVar("T", bound="QueuedRun")


@_attrs_define
class QueuedRun:
    """
    Attributes:
        id (str):
        status (QueuedRunStatus):
        links (QueuedRunLinks):
    """

    id: str
    status: QueuedRunStatus
    links: QueuedRunLinks

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        links = self.links.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "links": links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queued_run_links import QueuedRunLinks

        d = dict(src_dict)
        id = d.pop("id")

        status = QueuedRunStatus(d.pop("status"))

        links = QueuedRunLinks.from_dict(d.pop("links"))

        queued_run = cls(
            id=id,
            status=status,
            links=links,
        )

        return queued_run
