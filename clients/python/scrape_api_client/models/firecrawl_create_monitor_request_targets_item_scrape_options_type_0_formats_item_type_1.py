from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_create_monitor_request_targets_item_scrape_options_type_0_formats_item_type_1_schema import (
        FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1Schema,
    )


T = TypeVar(
    "T",
    bound="FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1",
)


@_attrs_define
class FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1:
    """
    Attributes:
        type_ (str):
        full_page (bool | Unset):
        schema (FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1Schema | Unset):
        prompt (str | Unset):
    """

    type_: str
    full_page: bool | Unset = UNSET
    schema: (
        FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1Schema
        | Unset
    ) = UNSET
    prompt: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        full_page = self.full_page

        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        prompt = self.prompt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if full_page is not UNSET:
            field_dict["fullPage"] = full_page
        if schema is not UNSET:
            field_dict["schema"] = schema
        if prompt is not UNSET:
            field_dict["prompt"] = prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_create_monitor_request_targets_item_scrape_options_type_0_formats_item_type_1_schema import (
            FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1Schema,
        )

        d = dict(src_dict)
        type_ = d.pop("type")

        full_page = d.pop("fullPage", UNSET)

        _schema = d.pop("schema", UNSET)
        schema: (
            FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1Schema
            | Unset
        )
        if isinstance(_schema, Unset):
            schema = UNSET
        else:
            schema = FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0FormatsItemType1Schema.from_dict(
                _schema
            )

        prompt = d.pop("prompt", UNSET)

        firecrawl_create_monitor_request_targets_item_scrape_options_type_0_formats_item_type_1 = cls(
            type_=type_,
            full_page=full_page,
            schema=schema,
            prompt=prompt,
        )

        firecrawl_create_monitor_request_targets_item_scrape_options_type_0_formats_item_type_1.additional_properties = d
        return firecrawl_create_monitor_request_targets_item_scrape_options_type_0_formats_item_type_1

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
