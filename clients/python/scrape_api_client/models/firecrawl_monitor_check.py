from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_monitor_check_trigger import FirecrawlMonitorCheckTrigger

if TYPE_CHECKING:
    from ..models.firecrawl_monitor_check_summary import FirecrawlMonitorCheckSummary


T = TypeVar("T", bound="FirecrawlMonitorCheck")


@_attrs_define
class FirecrawlMonitorCheck:
    """
    Attributes:
        id (str):
        monitor_id (str):
        status (str):
        trigger (FirecrawlMonitorCheckTrigger):
        billing_status (str):
        summary (FirecrawlMonitorCheckSummary):
        created_at (str):
        updated_at (str):
    """

    id: str
    monitor_id: str
    status: str
    trigger: FirecrawlMonitorCheckTrigger
    billing_status: str
    summary: FirecrawlMonitorCheckSummary
    created_at: str
    updated_at: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        monitor_id = self.monitor_id

        status = self.status

        trigger = self.trigger.value

        billing_status = self.billing_status

        summary = self.summary.to_dict()

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "monitorId": monitor_id,
                "status": status,
                "trigger": trigger,
                "billingStatus": billing_status,
                "summary": summary,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_monitor_check_summary import (
            FirecrawlMonitorCheckSummary,
        )

        d = dict(src_dict)
        id = d.pop("id")

        monitor_id = d.pop("monitorId")

        status = d.pop("status")

        trigger = FirecrawlMonitorCheckTrigger(d.pop("trigger"))

        billing_status = d.pop("billingStatus")

        summary = FirecrawlMonitorCheckSummary.from_dict(d.pop("summary"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        firecrawl_monitor_check = cls(
            id=id,
            monitor_id=monitor_id,
            status=status,
            trigger=trigger,
            billing_status=billing_status,
            summary=summary,
            created_at=created_at,
            updated_at=updated_at,
        )

        firecrawl_monitor_check.additional_properties = d
        return firecrawl_monitor_check

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
