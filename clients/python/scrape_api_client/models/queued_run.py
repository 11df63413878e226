from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.queued_run_links import QueuedRunLinks


T = TypeVar("T", bound="QueuedRun")


@_attrs_define
class QueuedRun:
    """
    Attributes:
        id (str):
        status (Literal['queued']):
        links (QueuedRunLinks):
    """

    id: str
    status: Literal["queued"]
    links: QueuedRunLinks

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status

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

        status = cast(Literal["queued"], d.pop("status"))
        if status != "queued":
            raise ValueError(f"status must match const 'queued', got '{status}'")

        links = QueuedRunLinks.from_dict(d.pop("links"))

        queued_run = cls(
            id=id,
            status=status,
            links=links,
        )

        return queued_run
