from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_monitor_check_detail_trigger import (
    FirecrawlMonitorCheckDetailTrigger,
)

if TYPE_CHECKING:
    from ..models.firecrawl_monitor_check_detail_pages_item import (
        FirecrawlMonitorCheckDetailPagesItem,
    )
    from ..models.firecrawl_monitor_check_detail_summary import (
        FirecrawlMonitorCheckDetailSummary,
    )


T = TypeVar("T", bound="FirecrawlMonitorCheckDetail")


@_attrs_define
class FirecrawlMonitorCheckDetail:
    """
    Attributes:
        id (str):
        monitor_id (str):
        status (str):
        trigger (FirecrawlMonitorCheckDetailTrigger):
        billing_status (str):
        summary (FirecrawlMonitorCheckDetailSummary):
        created_at (str):
        updated_at (str):
        pages (list[FirecrawlMonitorCheckDetailPagesItem]):
        next_ (None | str):
    """

    id: str
    monitor_id: str
    status: str
    trigger: FirecrawlMonitorCheckDetailTrigger
    billing_status: str
    summary: FirecrawlMonitorCheckDetailSummary
    created_at: str
    updated_at: str
    pages: list[FirecrawlMonitorCheckDetailPagesItem]
    next_: None | str
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

        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)

        next_: None | str
        next_ = self.next_

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
                "pages": pages,
                "next": next_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_monitor_check_detail_pages_item import (
            FirecrawlMonitorCheckDetailPagesItem,
        )
        from ..models.firecrawl_monitor_check_detail_summary import (
            FirecrawlMonitorCheckDetailSummary,
        )

        d = dict(src_dict)
        id = d.pop("id")

        monitor_id = d.pop("monitorId")

        status = d.pop("status")

        trigger = FirecrawlMonitorCheckDetailTrigger(d.pop("trigger"))

        billing_status = d.pop("billingStatus")

        summary = FirecrawlMonitorCheckDetailSummary.from_dict(d.pop("summary"))

        created_at = d.pop("createdAt")

        updated_at = d.pop("updatedAt")

        pages = []
        _pages = d.pop("pages")
        for pages_item_data in _pages:
            pages_item = FirecrawlMonitorCheckDetailPagesItem.from_dict(pages_item_data)

            pages.append(pages_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        firecrawl_monitor_check_detail = cls(
            id=id,
            monitor_id=monitor_id,
            status=status,
            trigger=trigger,
            billing_status=billing_status,
            summary=summary,
            created_at=created_at,
            updated_at=updated_at,
            pages=pages,
            next_=next_,
        )

        firecrawl_monitor_check_detail.additional_properties = d
        return firecrawl_monitor_check_detail

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
