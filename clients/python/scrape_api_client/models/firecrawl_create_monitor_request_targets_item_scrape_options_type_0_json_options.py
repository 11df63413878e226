from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_create_monitor_request_targets_item_scrape_options_type_0_json_options_schema import (
        FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptionsSchema,
    )


T = TypeVar(
    "T", bound="FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptions"
)


@_attrs_define
class FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptions:
    """v1: the `json` format's schema and prompt (systemPrompt is put before the prompt)

    Attributes:
        schema (FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptionsSchema | Unset):
        prompt (str | Unset):
        system_prompt (str | Unset):
    """

    schema: (
        FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptionsSchema
        | Unset
    ) = UNSET
    prompt: str | Unset = UNSET
    system_prompt: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        prompt = self.prompt

        system_prompt = self.system_prompt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if schema is not UNSET:
            field_dict["schema"] = schema
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if system_prompt is not UNSET:
            field_dict["systemPrompt"] = system_prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_create_monitor_request_targets_item_scrape_options_type_0_json_options_schema import (
            FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptionsSchema,
        )

        d = dict(src_dict)
        _schema = d.pop("schema", UNSET)
        schema: (
            FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptionsSchema
            | Unset
        )
        if isinstance(_schema, Unset):
            schema = UNSET
        else:
            schema = FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0JsonOptionsSchema.from_dict(
                _schema
            )

        prompt = d.pop("prompt", UNSET)

        system_prompt = d.pop("systemPrompt", UNSET)

        firecrawl_create_monitor_request_targets_item_scrape_options_type_0_json_options = cls(
            schema=schema,
            prompt=prompt,
            system_prompt=system_prompt,
        )

        firecrawl_create_monitor_request_targets_item_scrape_options_type_0_json_options.additional_properties = d
        return firecrawl_create_monitor_request_targets_item_scrape_options_type_0_json_options

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
