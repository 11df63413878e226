from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_v2_extract_body_schema import PostV2ExtractBodySchema
    from ..models.post_v2_extract_body_scrape_options import (
        PostV2ExtractBodyScrapeOptions,
    )


T = TypeVar("T", bound="PostV2ExtractBody")


@_attrs_define
class PostV2ExtractBody:
    """
    Attributes:
        urls (list[str] | Unset):
        prompt (str | Unset):
        schema (PostV2ExtractBodySchema | Unset):
        system_prompt (str | Unset):
        allow_external_links (bool | Unset):
        enable_web_search (bool | Unset):
        show_sources (bool | Unset):
        scrape_options (PostV2ExtractBodyScrapeOptions | Unset):
        ignore_invalid_ur_ls (bool | Unset):
    """

    urls: list[str] | Unset = UNSET
    prompt: str | Unset = UNSET
    schema: PostV2ExtractBodySchema | Unset = UNSET
    system_prompt: str | Unset = UNSET
    allow_external_links: bool | Unset = UNSET
    enable_web_search: bool | Unset = UNSET
    show_sources: bool | Unset = UNSET
    scrape_options: PostV2ExtractBodyScrapeOptions | Unset = UNSET
    ignore_invalid_ur_ls: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        urls: list[str] | Unset = UNSET
        if not isinstance(self.urls, Unset):
            urls = self.urls

        prompt = self.prompt

        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        system_prompt = self.system_prompt

        allow_external_links = self.allow_external_links

        enable_web_search = self.enable_web_search

        show_sources = self.show_sources

        scrape_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scrape_options, Unset):
            scrape_options = self.scrape_options.to_dict()

        ignore_invalid_ur_ls = self.ignore_invalid_ur_ls

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if urls is not UNSET:
            field_dict["urls"] = urls
        if prompt is not UNSET:
            field_dict["prompt"] = prompt
        if schema is not UNSET:
            field_dict["schema"] = schema
        if system_prompt is not UNSET:
            field_dict["systemPrompt"] = system_prompt
        if allow_external_links is not UNSET:
            field_dict["allowExternalLinks"] = allow_external_links
        if enable_web_search is not UNSET:
            field_dict["enableWebSearch"] = enable_web_search
        if show_sources is not UNSET:
            field_dict["showSources"] = show_sources
        if scrape_options is not UNSET:
            field_dict["scrapeOptions"] = scrape_options
        if ignore_invalid_ur_ls is not UNSET:
            field_dict["ignoreInvalidURLs"] = ignore_invalid_ur_ls

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_v2_extract_body_schema import PostV2ExtractBodySchema
        from ..models.post_v2_extract_body_scrape_options import (
            PostV2ExtractBodyScrapeOptions,
        )

        d = dict(src_dict)
        urls = cast(list[str], d.pop("urls", UNSET))

        prompt = d.pop("prompt", UNSET)

        _schema = d.pop("schema", UNSET)
        schema: PostV2ExtractBodySchema | Unset
        if isinstance(_schema, Unset):
            schema = UNSET
        else:
            schema = PostV2ExtractBodySchema.from_dict(_schema)

        system_prompt = d.pop("systemPrompt", UNSET)

        allow_external_links = d.pop("allowExternalLinks", UNSET)

        enable_web_search = d.pop("enableWebSearch", UNSET)

        show_sources = d.pop("showSources", UNSET)

        _scrape_options = d.pop("scrapeOptions", UNSET)
        scrape_options: PostV2ExtractBodyScrapeOptions | Unset
        if isinstance(_scrape_options, Unset):
            scrape_options = UNSET
        else:
            scrape_options = PostV2ExtractBodyScrapeOptions.from_dict(_scrape_options)

        ignore_invalid_ur_ls = d.pop("ignoreInvalidURLs", UNSET)

        post_v2_extract_body = cls(
            urls=urls,
            prompt=prompt,
            schema=schema,
            system_prompt=system_prompt,
            allow_external_links=allow_external_links,
            enable_web_search=enable_web_search,
            show_sources=show_sources,
            scrape_options=scrape_options,
            ignore_invalid_ur_ls=ignore_invalid_ur_ls,
        )

        post_v2_extract_body.additional_properties = d
        return post_v2_extract_body

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
