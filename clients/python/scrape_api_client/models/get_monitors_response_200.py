from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.monitor import Monitor


T = TypeVar("T", bound="GetMonitorsResponse200")


@_attrs_define
class GetMonitorsResponse200:
    """
    Attributes:
        monitors (list[Monitor]):
        next_cursor (None | str):
    """

    monitors: list[Monitor]
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        monitors = []
        for monitors_item_data in self.monitors:
            monitors_item = monitors_item_data.to_dict()
            monitors.append(monitors_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "monitors": monitors,
                "nextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.monitor import Monitor

        d = dict(src_dict)
        monitors = []
        _monitors = d.pop("monitors")
        for monitors_item_data in _monitors:
            monitors_item = Monitor.from_dict(monitors_item_data)

            monitors.append(monitors_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        get_monitors_response_200 = cls(
            monitors=monitors,
            next_cursor=next_cursor,
        )

        return get_monitors_response_200
