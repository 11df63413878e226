from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.firecrawl_monitor_check import FirecrawlMonitorCheck


T = TypeVar("T", bound="GetV2MonitorIdChecksResponse200")


@_attrs_define
class GetV2MonitorIdChecksResponse200:
    """
    Attributes:
        success (bool):
        data (list[FirecrawlMonitorCheck]):
    """

    success: bool
    data: list[FirecrawlMonitorCheck]

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_monitor_check import FirecrawlMonitorCheck

        d = dict(src_dict)
        success = d.pop("success")

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = FirecrawlMonitorCheck.from_dict(data_item_data)

            data.append(data_item)

        get_v2_monitor_id_checks_response_200 = cls(
            success=success,
            data=data,
        )

        return get_v2_monitor_id_checks_response_200
