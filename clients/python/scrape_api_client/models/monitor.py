from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.monitor_compare import MonitorCompare

if TYPE_CHECKING:
    from ..models.monitor_check import MonitorCheck
    from ..models.monitor_ignore import MonitorIgnore
    from ..models.monitor_request import MonitorRequest
    from ..models.monitor_schedule import MonitorSchedule


T = TypeVar("T", bound="Monitor")


@_attrs_define
class Monitor:
    """
    Attributes:
        id (str):
        name (str):
        request (MonitorRequest):
        schedule (MonitorSchedule):
        compare (MonitorCompare):
        ignore (MonitorIgnore):
        paused (bool):
        schedule_id (str):
        failures_in_a_row (int):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        last_check (MonitorCheck | None):
    """

    id: str
    name: str
    request: MonitorRequest
    schedule: MonitorSchedule
    compare: MonitorCompare
    ignore: MonitorIgnore
    paused: bool
    schedule_id: str
    failures_in_a_row: int
    created_at: datetime.datetime
    updated_at: datetime.datetime
    last_check: MonitorCheck | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.monitor_check import MonitorCheck

        id = self.id

        name = self.name

        request = self.request.to_dict()

        schedule = self.schedule.to_dict()

        compare = self.compare.value

        ignore = self.ignore.to_dict()

        paused = self.paused

        schedule_id = self.schedule_id

        failures_in_a_row = self.failures_in_a_row

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        last_check: dict[str, Any] | None
        if isinstance(self.last_check, MonitorCheck):
            last_check = self.last_check.to_dict()
        else:
            last_check = self.last_check

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "request": request,
                "schedule": schedule,
                "compare": compare,
                "ignore": ignore,
                "paused": paused,
                "scheduleId": schedule_id,
                "failuresInARow": failures_in_a_row,
                "createdAt": created_at,
                "updatedAt": updated_at,
                "lastCheck": last_check,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.monitor_check import MonitorCheck
        from ..models.monitor_ignore import MonitorIgnore
        from ..models.monitor_request import MonitorRequest
        from ..models.monitor_schedule import MonitorSchedule

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        request = MonitorRequest.from_dict(d.pop("request"))

        schedule = MonitorSchedule.from_dict(d.pop("schedule"))

        compare = MonitorCompare(d.pop("compare"))

        ignore = MonitorIgnore.from_dict(d.pop("ignore"))

        paused = d.pop("paused")

        schedule_id = d.pop("scheduleId")

        failures_in_a_row = d.pop("failuresInARow")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        def _parse_last_check(data: object) -> MonitorCheck | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_check_type_0 = MonitorCheck.from_dict(data)

                return last_check_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MonitorCheck | None, data)

        last_check = _parse_last_check(d.pop("lastCheck"))

        monitor = cls(
            id=id,
            name=name,
            request=request,
            schedule=schedule,
            compare=compare,
            ignore=ignore,
            paused=paused,
            schedule_id=schedule_id,
            failures_in_a_row=failures_in_a_row,
            created_at=created_at,
            updated_at=updated_at,
            last_check=last_check,
        )

        monitor.additional_properties = d
        return monitor

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
