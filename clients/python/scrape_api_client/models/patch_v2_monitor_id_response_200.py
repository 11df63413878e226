from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.firecrawl_monitor import FirecrawlMonitor


T = TypeVar("T", bound="PatchV2MonitorIdResponse200")


@_attrs_define
class PatchV2MonitorIdResponse200:
    """
    Attributes:
        success (bool):
        data (FirecrawlMonitor):
    """

    success: bool
    data: FirecrawlMonitor

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        data = self.data.to_dict()

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
        from ..models.firecrawl_monitor import FirecrawlMonitor

        d = dict(src_dict)
        success = d.pop("success")

        data = FirecrawlMonitor.from_dict(d.pop("data"))

        patch_v2_monitor_id_response_200 = cls(
            success=success,
            data=data,
        )

        return patch_v2_monitor_id_response_200
