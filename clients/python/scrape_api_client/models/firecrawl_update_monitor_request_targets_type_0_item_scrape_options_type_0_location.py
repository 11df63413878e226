from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar(
    "T", bound="FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location"
)


@_attrs_define
class FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location:
    """country: our `country` (a proxy pool of that country, PROXY_TIERS; 400 naming it when none); languages: the Accept-
    Language header unless headers set one

        Attributes:
            country (str | Unset):
            languages (list[str] | Unset):
    """

    country: str | Unset = UNSET
    languages: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        country = self.country

        languages: list[str] | Unset = UNSET
        if not isinstance(self.languages, Unset):
            languages = self.languages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if country is not UNSET:
            field_dict["country"] = country
        if languages is not UNSET:
            field_dict["languages"] = languages

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        country = d.pop("country", UNSET)

        languages = cast(list[str], d.pop("languages", UNSET))

        firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_location = cls(
            country=country,
            languages=languages,
        )

        firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_location.additional_properties = d
        return firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_location

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
