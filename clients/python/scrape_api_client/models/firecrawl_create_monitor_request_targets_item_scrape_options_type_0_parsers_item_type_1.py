from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar(
    "T",
    bound="FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0ParsersItemType1",
)


@_attrs_define
class FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0ParsersItemType1:
    """
    Attributes:
        type_ (str):
        max_pages (int | Unset):
    """

    type_: str
    max_pages: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        max_pages = self.max_pages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if max_pages is not UNSET:
            field_dict["maxPages"] = max_pages

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        max_pages = d.pop("maxPages", UNSET)

        firecrawl_create_monitor_request_targets_item_scrape_options_type_0_parsers_item_type_1 = cls(
            type_=type_,
            max_pages=max_pages,
        )

        firecrawl_create_monitor_request_targets_item_scrape_options_type_0_parsers_item_type_1.additional_properties = d
        return firecrawl_create_monitor_request_targets_item_scrape_options_type_0_parsers_item_type_1

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
