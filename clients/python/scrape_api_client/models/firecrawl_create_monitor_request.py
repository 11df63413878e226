from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_create_monitor_request_notification_type_0 import (
        FirecrawlCreateMonitorRequestNotificationType0,
    )
    from ..models.firecrawl_create_monitor_request_schedule import (
        FirecrawlCreateMonitorRequestSchedule,
    )
    from ..models.firecrawl_create_monitor_request_targets_item import (
        FirecrawlCreateMonitorRequestTargetsItem,
    )
    from ..models.firecrawl_create_monitor_request_webhook_type_0 import (
        FirecrawlCreateMonitorRequestWebhookType0,
    )


T = TypeVar("T", bound="FirecrawlCreateMonitorRequest")


@_attrs_define
class FirecrawlCreateMonitorRequest:
    """
    Attributes:
        name (str):
        schedule (FirecrawlCreateMonitorRequestSchedule):
        targets (list[FirecrawlCreateMonitorRequestTargetsItem]):
        webhook (FirecrawlCreateMonitorRequestWebhookType0 | None | Unset):
        notification (FirecrawlCreateMonitorRequestNotificationType0 | None | Unset):
        retention_days (int | None | Unset):
        goal (None | str | Unset):
        judge_enabled (bool | None | Unset):
    """

    name: str
    schedule: FirecrawlCreateMonitorRequestSchedule
    targets: list[FirecrawlCreateMonitorRequestTargetsItem]
    webhook: FirecrawlCreateMonitorRequestWebhookType0 | None | Unset = UNSET
    notification: FirecrawlCreateMonitorRequestNotificationType0 | None | Unset = UNSET
    retention_days: int | None | Unset = UNSET
    goal: None | str | Unset = UNSET
    judge_enabled: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_create_monitor_request_notification_type_0 import (
            FirecrawlCreateMonitorRequestNotificationType0,
        )
        from ..models.firecrawl_create_monitor_request_webhook_type_0 import (
            FirecrawlCreateMonitorRequestWebhookType0,
        )

        name = self.name

        schedule = self.schedule.to_dict()

        targets = []
        for targets_item_data in self.targets:
            targets_item = targets_item_data.to_dict()
            targets.append(targets_item)

        webhook: dict[str, Any] | None | Unset
        if isinstance(self.webhook, Unset):
            webhook = UNSET
        elif isinstance(self.webhook, FirecrawlCreateMonitorRequestWebhookType0):
            webhook = self.webhook.to_dict()
        else:
            webhook = self.webhook

        notification: dict[str, Any] | None | Unset
        if isinstance(self.notification, Unset):
            notification = UNSET
        elif isinstance(
            self.notification, FirecrawlCreateMonitorRequestNotificationType0
        ):
            notification = self.notification.to_dict()
        else:
            notification = self.notification

        retention_days: int | None | Unset
        if isinstance(self.retention_days, Unset):
            retention_days = UNSET
        else:
            retention_days = self.retention_days

        goal: None | str | Unset
        if isinstance(self.goal, Unset):
            goal = UNSET
        else:
            goal = self.goal

        judge_enabled: bool | None | Unset
        if isinstance(self.judge_enabled, Unset):
            judge_enabled = UNSET
        else:
            judge_enabled = self.judge_enabled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "schedule": schedule,
                "targets": targets,
            }
        )
        if webhook is not UNSET:
            field_dict["webhook"] = webhook
        if notification is not UNSET:
            field_dict["notification"] = notification
        if retention_days is not UNSET:
            field_dict["retentionDays"] = retention_days
        if goal is not UNSET:
            field_dict["goal"] = goal
        if judge_enabled is not UNSET:
            field_dict["judgeEnabled"] = judge_enabled

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_create_monitor_request_notification_type_0 import (
            FirecrawlCreateMonitorRequestNotificationType0,
        )
        from ..models.firecrawl_create_monitor_request_schedule import (
            FirecrawlCreateMonitorRequestSchedule,
        )
        from ..models.firecrawl_create_monitor_request_targets_item import (
            FirecrawlCreateMonitorRequestTargetsItem,
        )
        from ..models.firecrawl_create_monitor_request_webhook_type_0 import (
            FirecrawlCreateMonitorRequestWebhookType0,
        )

        d = dict(src_dict)
        name = d.pop("name")

        schedule = FirecrawlCreateMonitorRequestSchedule.from_dict(d.pop("schedule"))

        targets = []
        _targets = d.pop("targets")
        for targets_item_data in _targets:
            targets_item = FirecrawlCreateMonitorRequestTargetsItem.from_dict(
                targets_item_data
            )

            targets.append(targets_item)

        def _parse_webhook(
            data: object,
        ) -> FirecrawlCreateMonitorRequestWebhookType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                webhook_type_0 = FirecrawlCreateMonitorRequestWebhookType0.from_dict(
                    data
                )

                return webhook_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FirecrawlCreateMonitorRequestWebhookType0 | None | Unset, data)

        webhook = _parse_webhook(d.pop("webhook", UNSET))

        def _parse_notification(
            data: object,
        ) -> FirecrawlCreateMonitorRequestNotificationType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                notification_type_0 = (
                    FirecrawlCreateMonitorRequestNotificationType0.from_dict(data)
                )

                return notification_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FirecrawlCreateMonitorRequestNotificationType0 | None | Unset, data
            )

        notification = _parse_notification(d.pop("notification", UNSET))

        def _parse_retention_days(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        retention_days = _parse_retention_days(d.pop("retentionDays", UNSET))

        def _parse_goal(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        goal = _parse_goal(d.pop("goal", UNSET))

        def _parse_judge_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        judge_enabled = _parse_judge_enabled(d.pop("judgeEnabled", UNSET))

        firecrawl_create_monitor_request = cls(
            name=name,
            schedule=schedule,
            targets=targets,
            webhook=webhook,
            notification=notification,
            retention_days=retention_days,
            goal=goal,
            judge_enabled=judge_enabled,
        )

        firecrawl_create_monitor_request.additional_properties = d
        return firecrawl_create_monitor_request

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
