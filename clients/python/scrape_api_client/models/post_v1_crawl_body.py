from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PostV1CrawlBody")


@_attrs_define
class PostV1CrawlBody:
    """Firecrawl crawl request: url, limit, includePaths, excludePaths, maxDiscoveryDepth (v1 maxDepth), crawlEntireDomain
    (v1 allowBackwardLinks), allowSubdomains, allowExternalLinks, ignoreRobotsTxt, sitemap (v1 ignoreSitemap), delay,
    maxConcurrency, scrapeOptions, webhook; other fields are accepted and ignored (docs/firecrawl.md).

    """

    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        post_v1_crawl_body = cls()

        post_v1_crawl_body.additional_properties = d
        return post_v1_crawl_body

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
