from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.monitor_check import MonitorCheck


T = TypeVar("T", bound="GetMonitorsIdChecksResponse200")


@_attrs_define
class GetMonitorsIdChecksResponse200:
    """
    Attributes:
        checks (list[MonitorCheck]):
        next_cursor (None | str):
    """

    checks: list[MonitorCheck]
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        checks = []
        for checks_item_data in self.checks:
            checks_item = checks_item_data.to_dict()
            checks.append(checks_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "checks": checks,
                "nextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.monitor_check import MonitorCheck

        d = dict(src_dict)
        checks = []
        _checks = d.pop("checks")
        for checks_item_data in _checks:
            checks_item = MonitorCheck.from_dict(checks_item_data)

            checks.append(checks_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        get_monitors_id_checks_response_200 = cls(
            checks=checks,
            next_cursor=next_cursor,
        )

        return get_monitors_id_checks_response_200
