from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_update_monitor_request_status_type_0 import (
    FirecrawlUpdateMonitorRequestStatusType0,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_update_monitor_request_notification_type_0 import (
        FirecrawlUpdateMonitorRequestNotificationType0,
    )
    from ..models.firecrawl_update_monitor_request_schedule_type_0 import (
        FirecrawlUpdateMonitorRequestScheduleType0,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item import (
        FirecrawlUpdateMonitorRequestTargetsType0Item,
    )
    from ..models.firecrawl_update_monitor_request_webhook_type_0 import (
        FirecrawlUpdateMonitorRequestWebhookType0,
    )


T = TypeVar("T", bound="FirecrawlUpdateMonitorRequest")


@_attrs_define
class FirecrawlUpdateMonitorRequest:
    """
    Attributes:
        name (None | str | Unset):
        status (FirecrawlUpdateMonitorRequestStatusType0 | None | Unset):
        schedule (FirecrawlUpdateMonitorRequestScheduleType0 | None | Unset):
        targets (list[FirecrawlUpdateMonitorRequestTargetsType0Item] | None | Unset):
        webhook (FirecrawlUpdateMonitorRequestWebhookType0 | None | Unset):
        notification (FirecrawlUpdateMonitorRequestNotificationType0 | None | Unset):
        retention_days (int | None | Unset):
        goal (None | str | Unset):
        judge_enabled (bool | None | Unset):
    """

    name: None | str | Unset = UNSET
    status: FirecrawlUpdateMonitorRequestStatusType0 | None | Unset = UNSET
    schedule: FirecrawlUpdateMonitorRequestScheduleType0 | None | Unset = UNSET
    targets: list[FirecrawlUpdateMonitorRequestTargetsType0Item] | None | Unset = UNSET
    webhook: FirecrawlUpdateMonitorRequestWebhookType0 | None | Unset = UNSET
    notification: FirecrawlUpdateMonitorRequestNotificationType0 | None | Unset = UNSET
    retention_days: int | None | Unset = UNSET
    goal: None | str | Unset = UNSET
    judge_enabled: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_update_monitor_request_notification_type_0 import (
            FirecrawlUpdateMonitorRequestNotificationType0,
        )
        from ..models.firecrawl_update_monitor_request_schedule_type_0 import (
            FirecrawlUpdateMonitorRequestScheduleType0,
        )
        from ..models.firecrawl_update_monitor_request_webhook_type_0 import (
            FirecrawlUpdateMonitorRequestWebhookType0,
        )

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        elif isinstance(self.status, FirecrawlUpdateMonitorRequestStatusType0):
            status = self.status.value
        else:
            status = self.status

        schedule: dict[str, Any] | None | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, FirecrawlUpdateMonitorRequestScheduleType0):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        targets: list[dict[str, Any]] | None | Unset
        if isinstance(self.targets, Unset):
            targets = UNSET
        elif isinstance(self.targets, list):
            targets = []
            for targets_type_0_item_data in self.targets:
                targets_type_0_item = targets_type_0_item_data.to_dict()
                targets.append(targets_type_0_item)

        else:
            targets = self.targets

        webhook: dict[str, Any] | None | Unset
        if isinstance(self.webhook, Unset):
            webhook = UNSET
        elif isinstance(self.webhook, FirecrawlUpdateMonitorRequestWebhookType0):
            webhook = self.webhook.to_dict()
        else:
            webhook = self.webhook

        notification: dict[str, Any] | None | Unset
        if isinstance(self.notification, Unset):
            notification = UNSET
        elif isinstance(
            self.notification, FirecrawlUpdateMonitorRequestNotificationType0
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
        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if status is not UNSET:
            field_dict["status"] = status
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if targets is not UNSET:
            field_dict["targets"] = targets
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
        from ..models.firecrawl_update_monitor_request_notification_type_0 import (
            FirecrawlUpdateMonitorRequestNotificationType0,
        )
        from ..models.firecrawl_update_monitor_request_schedule_type_0 import (
            FirecrawlUpdateMonitorRequestScheduleType0,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item import (
            FirecrawlUpdateMonitorRequestTargetsType0Item,
        )
        from ..models.firecrawl_update_monitor_request_webhook_type_0 import (
            FirecrawlUpdateMonitorRequestWebhookType0,
        )

        d = dict(src_dict)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_status(
            data: object,
        ) -> FirecrawlUpdateMonitorRequestStatusType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                status_type_0 = FirecrawlUpdateMonitorRequestStatusType0(data)

                return status_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FirecrawlUpdateMonitorRequestStatusType0 | None | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_schedule(
            data: object,
        ) -> FirecrawlUpdateMonitorRequestScheduleType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = FirecrawlUpdateMonitorRequestScheduleType0.from_dict(
                    data
                )

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FirecrawlUpdateMonitorRequestScheduleType0 | None | Unset, data)

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        def _parse_targets(
            data: object,
        ) -> list[FirecrawlUpdateMonitorRequestTargetsType0Item] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                targets_type_0 = []
                _targets_type_0 = data
                for targets_type_0_item_data in _targets_type_0:
                    targets_type_0_item = (
                        FirecrawlUpdateMonitorRequestTargetsType0Item.from_dict(
                            targets_type_0_item_data
                        )
                    )

                    targets_type_0.append(targets_type_0_item)

                return targets_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                list[FirecrawlUpdateMonitorRequestTargetsType0Item] | None | Unset, data
            )

        targets = _parse_targets(d.pop("targets", UNSET))

        def _parse_webhook(
            data: object,
        ) -> FirecrawlUpdateMonitorRequestWebhookType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                webhook_type_0 = FirecrawlUpdateMonitorRequestWebhookType0.from_dict(
                    data
                )

                return webhook_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FirecrawlUpdateMonitorRequestWebhookType0 | None | Unset, data)

        webhook = _parse_webhook(d.pop("webhook", UNSET))

        def _parse_notification(
            data: object,
        ) -> FirecrawlUpdateMonitorRequestNotificationType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                notification_type_0 = (
                    FirecrawlUpdateMonitorRequestNotificationType0.from_dict(data)
                )

                return notification_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FirecrawlUpdateMonitorRequestNotificationType0 | None | Unset, data
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

        firecrawl_update_monitor_request = cls(
            name=name,
            status=status,
            schedule=schedule,
            targets=targets,
            webhook=webhook,
            notification=notification,
            retention_days=retention_days,
            goal=goal,
            judge_enabled=judge_enabled,
        )

        firecrawl_update_monitor_request.additional_properties = d
        return firecrawl_update_monitor_request

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
