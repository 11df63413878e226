from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.monitor_check_with_snapshot_status import MonitorCheckWithSnapshotStatus

if TYPE_CHECKING:
    from ..models.monitor_check_with_snapshot_diff_type_0 import (
        MonitorCheckWithSnapshotDiffType0,
    )
    from ..models.monitor_check_with_snapshot_error_type_0 import (
        MonitorCheckWithSnapshotErrorType0,
    )


T = TypeVar("T", bound="MonitorCheckWithSnapshot")


@_attrs_define
class MonitorCheckWithSnapshot:
    """
    Attributes:
        id (str):
        monitor_id (str):
        status (MonitorCheckWithSnapshotStatus):
        http_status (int | None):
        scrape_run_id (str):
        scheduled_at (datetime.datetime):
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        diff (MonitorCheckWithSnapshotDiffType0 | None):
        error (MonitorCheckWithSnapshotErrorType0 | None):
        snapshot (None | str):
    """

    id: str
    monitor_id: str
    status: MonitorCheckWithSnapshotStatus
    http_status: int | None
    scrape_run_id: str
    scheduled_at: datetime.datetime
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    diff: MonitorCheckWithSnapshotDiffType0 | None
    error: MonitorCheckWithSnapshotErrorType0 | None
    snapshot: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.monitor_check_with_snapshot_diff_type_0 import (
            MonitorCheckWithSnapshotDiffType0,
        )
        from ..models.monitor_check_with_snapshot_error_type_0 import (
            MonitorCheckWithSnapshotErrorType0,
        )

        id = self.id

        monitor_id = self.monitor_id

        status = self.status.value

        http_status: int | None
        http_status = self.http_status

        scrape_run_id = self.scrape_run_id

        scheduled_at = self.scheduled_at.isoformat()

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        diff: dict[str, Any] | None
        if isinstance(self.diff, MonitorCheckWithSnapshotDiffType0):
            diff = self.diff.to_dict()
        else:
            diff = self.diff

        error: dict[str, Any] | None
        if isinstance(self.error, MonitorCheckWithSnapshotErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        snapshot: None | str
        snapshot = self.snapshot

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "monitorId": monitor_id,
                "status": status,
                "httpStatus": http_status,
                "scrapeRunId": scrape_run_id,
                "scheduledAt": scheduled_at,
                "createdAt": created_at,
                "finishedAt": finished_at,
                "diff": diff,
                "error": error,
                "snapshot": snapshot,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.monitor_check_with_snapshot_diff_type_0 import (
            MonitorCheckWithSnapshotDiffType0,
        )
        from ..models.monitor_check_with_snapshot_error_type_0 import (
            MonitorCheckWithSnapshotErrorType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        monitor_id = d.pop("monitorId")

        status = MonitorCheckWithSnapshotStatus(d.pop("status"))

        def _parse_http_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        http_status = _parse_http_status(d.pop("httpStatus"))

        scrape_run_id = d.pop("scrapeRunId")

        scheduled_at = datetime.datetime.fromisoformat(d.pop("scheduledAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

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

        def _parse_diff(data: object) -> MonitorCheckWithSnapshotDiffType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                diff_type_0 = MonitorCheckWithSnapshotDiffType0.from_dict(data)

                return diff_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MonitorCheckWithSnapshotDiffType0 | None, data)

        diff = _parse_diff(d.pop("diff"))

        def _parse_error(data: object) -> MonitorCheckWithSnapshotErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = MonitorCheckWithSnapshotErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MonitorCheckWithSnapshotErrorType0 | None, data)

        error = _parse_error(d.pop("error"))

        def _parse_snapshot(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        snapshot = _parse_snapshot(d.pop("snapshot"))

        monitor_check_with_snapshot = cls(
            id=id,
            monitor_id=monitor_id,
            status=status,
            http_status=http_status,
            scrape_run_id=scrape_run_id,
            scheduled_at=scheduled_at,
            created_at=created_at,
            finished_at=finished_at,
            diff=diff,
            error=error,
            snapshot=snapshot,
        )

        monitor_check_with_snapshot.additional_properties = d
        return monitor_check_with_snapshot

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
