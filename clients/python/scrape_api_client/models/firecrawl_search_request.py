from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_search_request_scrape_options import (
        FirecrawlSearchRequestScrapeOptions,
    )
    from ..models.firecrawl_search_request_sources_item_type_1 import (
        FirecrawlSearchRequestSourcesItemType1,
    )


T = TypeVar("T", bound="FirecrawlSearchRequest")


@_attrs_define
class FirecrawlSearchRequest:
    """Firecrawl search request: query, limit, sources, tbs, lang, country, location, includeDomains, excludeDomains,
    timeout, ignoreInvalidURLs, scrapeOptions; other fields are accepted and ignored (docs/firecrawl.md "Search").

        Attributes:
            query (str):
            limit (int | Unset):
            sources (list[FirecrawlSearchRequestSourcesItemType1 | str] | Unset):
            tbs (str | Unset):
            lang (str | Unset):
            country (str | Unset):
            location (str | Unset):
            include_domains (list[str] | Unset):
            exclude_domains (list[str] | Unset):
            timeout (int | Unset):
            ignore_invalid_ur_ls (bool | Unset):
            scrape_options (FirecrawlSearchRequestScrapeOptions | Unset):
    """

    query: str
    limit: int | Unset = UNSET
    sources: list[FirecrawlSearchRequestSourcesItemType1 | str] | Unset = UNSET
    tbs: str | Unset = UNSET
    lang: str | Unset = UNSET
    country: str | Unset = UNSET
    location: str | Unset = UNSET
    include_domains: list[str] | Unset = UNSET
    exclude_domains: list[str] | Unset = UNSET
    timeout: int | Unset = UNSET
    ignore_invalid_ur_ls: bool | Unset = UNSET
    scrape_options: FirecrawlSearchRequestScrapeOptions | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_search_request_sources_item_type_1 import (
            FirecrawlSearchRequestSourcesItemType1,
        )

        query = self.query

        limit = self.limit

        sources: list[dict[str, Any] | str] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = []
            for sources_item_data in self.sources:
                sources_item: dict[str, Any] | str
                if isinstance(
                    sources_item_data, FirecrawlSearchRequestSourcesItemType1
                ):
                    sources_item = sources_item_data.to_dict()
                else:
                    sources_item = sources_item_data
                sources.append(sources_item)

        tbs = self.tbs

        lang = self.lang

        country = self.country

        location = self.location

        include_domains: list[str] | Unset = UNSET
        if not isinstance(self.include_domains, Unset):
            include_domains = self.include_domains

        exclude_domains: list[str] | Unset = UNSET
        if not isinstance(self.exclude_domains, Unset):
            exclude_domains = self.exclude_domains

        timeout = self.timeout

        ignore_invalid_ur_ls = self.ignore_invalid_ur_ls

        scrape_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scrape_options, Unset):
            scrape_options = self.scrape_options.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "query": query,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit
        if sources is not UNSET:
            field_dict["sources"] = sources
        if tbs is not UNSET:
            field_dict["tbs"] = tbs
        if lang is not UNSET:
            field_dict["lang"] = lang
        if country is not UNSET:
            field_dict["country"] = country
        if location is not UNSET:
            field_dict["location"] = location
        if include_domains is not UNSET:
            field_dict["includeDomains"] = include_domains
        if exclude_domains is not UNSET:
            field_dict["excludeDomains"] = exclude_domains
        if timeout is not UNSET:
            field_dict["timeout"] = timeout
        if ignore_invalid_ur_ls is not UNSET:
            field_dict["ignoreInvalidURLs"] = ignore_invalid_ur_ls
        if scrape_options is not UNSET:
            field_dict["scrapeOptions"] = scrape_options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_search_request_scrape_options import (
            FirecrawlSearchRequestScrapeOptions,
        )
        from ..models.firecrawl_search_request_sources_item_type_1 import (
            FirecrawlSearchRequestSourcesItemType1,
        )

        d = dict(src_dict)
        query = d.pop("query")

        limit = d.pop("limit", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: list[FirecrawlSearchRequestSourcesItemType1 | str] | Unset = UNSET
        if _sources is not UNSET:
            sources = []
            for sources_item_data in _sources:

                def _parse_sources_item(
                    data: object,
                ) -> FirecrawlSearchRequestSourcesItemType1 | str:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        sources_item_type_1 = (
                            FirecrawlSearchRequestSourcesItemType1.from_dict(data)
                        )

                        return sources_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(FirecrawlSearchRequestSourcesItemType1 | str, data)

                sources_item = _parse_sources_item(sources_item_data)

                sources.append(sources_item)

        tbs = d.pop("tbs", UNSET)

        lang = d.pop("lang", UNSET)

        country = d.pop("country", UNSET)

        location = d.pop("location", UNSET)

        include_domains = cast(list[str], d.pop("includeDomains", UNSET))

        exclude_domains = cast(list[str], d.pop("excludeDomains", UNSET))

        timeout = d.pop("timeout", UNSET)

        ignore_invalid_ur_ls = d.pop("ignoreInvalidURLs", UNSET)

        _scrape_options = d.pop("scrapeOptions", UNSET)
        scrape_options: FirecrawlSearchRequestScrapeOptions | Unset
        if isinstance(_scrape_options, Unset):
            scrape_options = UNSET
        else:
            scrape_options = FirecrawlSearchRequestScrapeOptions.from_dict(
                _scrape_options
            )

        firecrawl_search_request = cls(
            query=query,
            limit=limit,
            sources=sources,
            tbs=tbs,
            lang=lang,
            country=country,
            location=location,
            include_domains=include_domains,
            exclude_domains=exclude_domains,
            timeout=timeout,
            ignore_invalid_ur_ls=ignore_invalid_ur_ls,
            scrape_options=scrape_options,
        )

        firecrawl_search_request.additional_properties = d
        return firecrawl_search_request

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
