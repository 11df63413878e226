from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scrape_result_change_tracking_change_status import (
    ScrapeResultChangeTrackingChangeStatus,
)

T = TypeVar("T", bound="ScrapeResultChangeTracking")


@_attrs_define
class ScrapeResultChangeTracking:
    """
    Attributes:
        change_status (ScrapeResultChangeTrackingChangeStatus):
        previous_scrape_at (None | str):
        diff (None | str):
    """

    change_status: ScrapeResultChangeTrackingChangeStatus
    previous_scrape_at: None | str
    diff: None | str

    def to_dict(self) -> dict[str, Any]:
        change_status = self.change_status.value

        previous_scrape_at: None | str
        previous_scrape_at = self.previous_scrape_at

        diff: None | str
        diff = self.diff

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "changeStatus": change_status,
                "previousScrapeAt": previous_scrape_at,
                "diff": diff,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        change_status = ScrapeResultChangeTrackingChangeStatus(d.pop("changeStatus"))

        def _parse_previous_scrape_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        previous_scrape_at = _parse_previous_scrape_at(d.pop("previousScrapeAt"))

        def _parse_diff(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        diff = _parse_diff(d.pop("diff"))

        scrape_result_change_tracking = cls(
            change_status=change_status,
            previous_scrape_at=previous_scrape_at,
            diff=diff,
        )

        return scrape_result_change_tracking
