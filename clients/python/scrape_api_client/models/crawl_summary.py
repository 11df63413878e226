from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.crawl_summary_kind import CrawlSummaryKind
from ..models.crawl_summary_status import CrawlSummaryStatus

if TYPE_CHECKING:
    from ..models.crawl_summary_links import CrawlSummaryLinks


T = TypeVar("T", bound="CrawlSummary")


@_attrs_define
class CrawlSummary:
    """
    Attributes:
        id (str):
        kind (CrawlSummaryKind):
        status (CrawlSummaryStatus):
        url (None | str):
        total (int):
        completed (int):
        failed (int):
        skipped (int):
        credits_ (int):
        created_at (datetime.datetime):
        started_at (datetime.datetime | None):
        finished_at (datetime.datetime | None):
        links (CrawlSummaryLinks):
    """

    id: str
    kind: CrawlSummaryKind
    status: CrawlSummaryStatus
    url: None | str
    total: int
    completed: int
    failed: int
    skipped: int
    credits_: int
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    links: CrawlSummaryLinks
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        status = self.status.value

        url: None | str
        url = self.url

        total = self.total

        completed = self.completed

        failed = self.failed

        skipped = self.skipped

        credits_ = self.credits_

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "status": status,
                "url": url,
                "total": total,
                "completed": completed,
                "failed": failed,
                "skipped": skipped,
                "credits": credits_,
                "created_at": created_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "links": links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.crawl_summary_links import CrawlSummaryLinks

        d = dict(src_dict)
        id = d.pop("id")

        kind = CrawlSummaryKind(d.pop("kind"))

        status = CrawlSummaryStatus(d.pop("status"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        total = d.pop("total")

        completed = d.pop("completed")

        failed = d.pop("failed")

        skipped = d.pop("skipped")

        credits_ = d.pop("credits")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

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

        started_at = _parse_started_at(d.pop("started_at"))

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

        finished_at = _parse_finished_at(d.pop("finished_at"))

        links = CrawlSummaryLinks.from_dict(d.pop("links"))

        crawl_summary = cls(
            id=id,
            kind=kind,
            status=status,
            url=url,
            total=total,
            completed=completed,
            failed=failed,
            skipped=skipped,
            credits_=credits_,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            links=links,
        )

        crawl_summary.additional_properties = d
        return crawl_summary

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
