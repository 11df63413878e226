from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_monitor_status import FirecrawlMonitorStatus

if TYPE_CHECKING:
    from ..models.firecrawl_monitor_schedule import FirecrawlMonitorSchedule
    from ..models.firecrawl_monitor_targets_item import FirecrawlMonitorTargetsItem


T = TypeVar("T", bound="FirecrawlMonitor")


@_attrs_define
class FirecrawlMonitor:
    """
    Attributes:
        id (str):
        name (str):
        status (FirecrawlMonitorStatus):
        schedule (FirecrawlMonitorSchedule):
        targets (list[FirecrawlMonitorTargetsItem]):
        retention_days (int):
        created_at (str):
        updated_at (str):
    """

    id: str
    name: str
    status: FirecrawlMonitorStatus
    schedule: FirecrawlMonitorSchedule
    targets: list[FirecrawlMonitorTargetsItem]
    retention_days: int
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        status = self.status.value

        schedule = self.schedule.to_dict()

        targets = []
        for targets_item_data in self.targets:
            targets_item = targets_item_data.to_dict()
            targets.append(targets_item)

        retention_days = self.retention_days

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "status": status,
                "schedule": schedule,
                "targets": targets,
                "retentionDays": retention_days,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_monitor_schedule import FirecrawlMonitorSchedule
        from ..models.firecrawl_monitor_targets_item import FirecrawlMonitorTargetsItem

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        status = FirecrawlMonitorStatus(d.pop("status"))

        schedule = FirecrawlMonitorSchedule.from_dict(d.pop("schedule"))

        targets = []
        _targets = d.pop("targets")
        for targets_item_data in _targets:
            targets_item = FirecrawlMonitorTargetsItem.from_dict(targets_item_data)

            targets.append(targets_item)

        retention_days = d.pop("retentionDays")

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        firecrawl_monitor = cls(
            id=id,
            name=name,
            status=status,
            schedule=schedule,
            targets=targets,
            retention_days=retention_days,
            created_at=created_at,
            updated_at=updated_at,
        )

        firecrawl_monitor.additional_properties = d
        return firecrawl_monitor

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
