from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.monitor_check_diff_diff_type_0 import MonitorCheckDiffDiffType0


T = TypeVar("T", bound="MonitorCheckDiff")


@_attrs_define
class MonitorCheckDiff:
    """
    Attributes:
        check_id (str):
        monitor_id (str):
        status (str):
        diff (MonitorCheckDiffDiffType0 | None):
    """

    check_id: str
    monitor_id: str
    status: str
    diff: MonitorCheckDiffDiffType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.monitor_check_diff_diff_type_0 import MonitorCheckDiffDiffType0

        check_id = self.check_id

        monitor_id = self.monitor_id

        status = self.status

        diff: dict[str, Any] | None
        if isinstance(self.diff, MonitorCheckDiffDiffType0):
            diff = self.diff.to_dict()
        else:
            diff = self.diff

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "checkId": check_id,
                "monitorId": monitor_id,
                "status": status,
                "diff": diff,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.monitor_check_diff_diff_type_0 import MonitorCheckDiffDiffType0

        d = dict(src_dict)
        check_id = d.pop("checkId")

        monitor_id = d.pop("monitorId")

        status = d.pop("status")

        def _parse_diff(data: object) -> MonitorCheckDiffDiffType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                diff_type_0 = MonitorCheckDiffDiffType0.from_dict(data)

                return diff_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MonitorCheckDiffDiffType0 | None, data)

        diff = _parse_diff(d.pop("diff"))

        monitor_check_diff = cls(
            check_id=check_id,
            monitor_id=monitor_id,
            status=status,
            diff=diff,
        )

        return monitor_check_diff
