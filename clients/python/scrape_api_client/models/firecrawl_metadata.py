from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_metadata_cache_state import FirecrawlMetadataCacheState
from ..models.firecrawl_metadata_proxy_used import FirecrawlMetadataProxyUsed
from ..types import UNSET, Unset

T = TypeVar("T", bound="FirecrawlMetadata")


@_attrs_define
class FirecrawlMetadata:
    """Plus every og:* and twitter:* meta tag under its own name (and og ones camel-cased: ogTitle)

    Attributes:
        source_url (str):
        url (str):
        status_code (float):
        scrape_id (str):
        credits_used (float):
        proxy_used (FirecrawlMetadataProxyUsed):
        cache_state (FirecrawlMetadataCacheState):
        title (str | Unset):
        description (str | Unset):
        language (str | Unset):
        content_type (str | Unset):
        cached_at (str | Unset): A cache hit: when the page was fetched (ISO 8601)
    """

    source_url: str
    url: str
    status_code: float
    scrape_id: str
    credits_used: float
    proxy_used: FirecrawlMetadataProxyUsed
    cache_state: FirecrawlMetadataCacheState
    title: str | Unset = UNSET
    description: str | Unset = UNSET
    language: str | Unset = UNSET
    content_type: str | Unset = UNSET
    cached_at: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        source_url = self.source_url

        url = self.url

        status_code = self.status_code

        scrape_id = self.scrape_id

        credits_used = self.credits_used

        proxy_used = self.proxy_used.value

        cache_state = self.cache_state.value

        title = self.title

        description = self.description

        language = self.language

        content_type = self.content_type

        cached_at = self.cached_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sourceURL": source_url,
                "url": url,
                "statusCode": status_code,
                "scrapeId": scrape_id,
                "creditsUsed": credits_used,
                "proxyUsed": proxy_used,
                "cacheState": cache_state,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description
        if language is not UNSET:
            field_dict["language"] = language
        if content_type is not UNSET:
            field_dict["contentType"] = content_type
        if cached_at is not UNSET:
            field_dict["cachedAt"] = cached_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        source_url = d.pop("sourceURL")

        url = d.pop("url")

        status_code = d.pop("statusCode")

        scrape_id = d.pop("scrapeId")

        credits_used = d.pop("creditsUsed")

        proxy_used = FirecrawlMetadataProxyUsed(d.pop("proxyUsed"))

        cache_state = FirecrawlMetadataCacheState(d.pop("cacheState"))

        title = d.pop("title", UNSET)

        description = d.pop("description", UNSET)

        language = d.pop("language", UNSET)

        content_type = d.pop("contentType", UNSET)

        cached_at = d.pop("cachedAt", UNSET)

        firecrawl_metadata = cls(
            source_url=source_url,
            url=url,
            status_code=status_code,
            scrape_id=scrape_id,
            credits_used=credits_used,
            proxy_used=proxy_used,
            cache_state=cache_state,
            title=title,
            description=description,
            language=language,
            content_type=content_type,
            cached_at=cached_at,
        )

        firecrawl_metadata.additional_properties = d
        return firecrawl_metadata

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
