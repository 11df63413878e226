from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchMonitorsIdBodyScheduleType1")


@_attrs_define
class PatchMonitorsIdBodyScheduleType1:
    """
    Attributes:
        cron (str):
        timezone (str | Unset):  Default: 'UTC'.
    """

    cron: str
    timezone: str | Unset = "UTC"

    def to_dict(self) -> dict[str, Any]:
        cron = self.cron

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cron": cron,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        cron = d.pop("cron")

        timezone = d.pop("timezone", UNSET)

        patch_monitors_id_body_schedule_type_1 = cls(
            cron=cron,
            timezone=timezone,
        )

        return patch_monitors_id_body_schedule_type_1
