from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar(
    "T", bound="FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session"
)


@_attrs_define
class FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session:
    """Extension: a stored session {name, save?} to start from and save (docs/scraping.md "Sessions")

    Attributes:
        name (str):
        save (bool | Unset):  Default: False.
    """

    name: str
    save: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        save = self.save

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if save is not UNSET:
            field_dict["save"] = save

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        save = d.pop("save", UNSET)

        firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_session = cls(
            name=name,
            save=save,
        )

        return firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_session
