from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.crawl_queued_kind import CrawlQueuedKind
from ..models.crawl_queued_status import CrawlQueuedStatus

if TYPE_CHECKING:
    from ..models.crawl_queued_links import CrawlQueuedLinks


T = TypeVar("T", bound="CrawlQueued")


@_attrs_define
class CrawlQueued:
    """
    Attributes:
        id (str):
        kind (CrawlQueuedKind):
        status (CrawlQueuedStatus):
        links (CrawlQueuedLinks):
    """

    id: str
    kind: CrawlQueuedKind
    status: CrawlQueuedStatus
    links: CrawlQueuedLinks

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        status = self.status.value

        links = self.links.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "status": status,
                "links": links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.crawl_queued_links import CrawlQueuedLinks

        d = dict(src_dict)
        id = d.pop("id")

        kind = CrawlQueuedKind(d.pop("kind"))

        status = CrawlQueuedStatus(d.pop("status"))

        links = CrawlQueuedLinks.from_dict(d.pop("links"))

        crawl_queued = cls(
            id=id,
            kind=kind,
            status=status,
            links=links,
        )

        return crawl_queued
