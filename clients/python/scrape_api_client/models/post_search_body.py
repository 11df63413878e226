from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.post_search_body_sources_item import PostSearchBodySourcesItem
from ..models.post_search_body_time_range import PostSearchBodyTimeRange
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_search_body_scrape import PostSearchBodyScrape


T = TypeVar("T", bound="PostSearchBody")


@_attrs_define
class PostSearchBody:
    """
    Attributes:
        query (str):
        limit (int | Unset): Results per source at most Default: 5.
        sources (list[PostSearchBodySourcesItem] | Unset):
        time_range (PostSearchBodyTimeRange | Unset):
        language (str | Unset):
        country (str | Unset): Results for this country: with `language`, the locale language-COUNTRY; alone, the
            country's main language
        safe_search (Literal[0] | Literal[1] | Literal[2] | Unset):
        include_domains (list[str] | Unset): Only results on these hosts or their subdomains
        exclude_domains (list[str] | Unset): No results on these hosts or their subdomains
        timeout_ms (int | Unset): When the answer is due, scraping included (default SYNC_TIMEOUT_MS)
        scrape (PostSearchBodyScrape | Unset): Scrape every web and news result with this scrape request (as POST
            /batch/scrape's `scrape`: without url, async, webhook), paid per page
    """

    query: str
    limit: int | Unset = 5
    sources: list[PostSearchBodySourcesItem] | Unset = UNSET
    time_range: PostSearchBodyTimeRange | Unset = UNSET
    language: str | Unset = UNSET
    country: str | Unset = UNSET
    safe_search: Literal[0, 1, 2] | Unset = UNSET
    include_domains: list[str] | Unset = UNSET
    exclude_domains: list[str] | Unset = UNSET
    timeout_ms: int | Unset = UNSET
    scrape: PostSearchBodyScrape | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        query = self.query

        limit = self.limit

        sources: list[str] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = []
            for sources_item_data in self.sources:
                sources_item = sources_item_data.value
                sources.append(sources_item)

        time_range: str | Unset = UNSET
        if not isinstance(self.time_range, Unset):
            time_range = self.time_range.value

        language = self.language

        country = self.country

        safe_search: Literal[0, 1, 2] | Unset
        if isinstance(self.safe_search, Unset):
            safe_search = UNSET
        else:
            safe_search = self.safe_search

        include_domains: list[str] | Unset = UNSET
        if not isinstance(self.include_domains, Unset):
            include_domains = self.include_domains

        exclude_domains: list[str] | Unset = UNSET
        if not isinstance(self.exclude_domains, Unset):
            exclude_domains = self.exclude_domains

        timeout_ms = self.timeout_ms

        scrape: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scrape, Unset):
            scrape = self.scrape.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "query": query,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit
        if sources is not UNSET:
            field_dict["sources"] = sources
        if time_range is not UNSET:
            field_dict["time_range"] = time_range
        if language is not UNSET:
            field_dict["language"] = language
        if country is not UNSET:
            field_dict["country"] = country
        if safe_search is not UNSET:
            field_dict["safe_search"] = safe_search
        if include_domains is not UNSET:
            field_dict["include_domains"] = include_domains
        if exclude_domains is not UNSET:
            field_dict["exclude_domains"] = exclude_domains
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms
        if scrape is not UNSET:
            field_dict["scrape"] = scrape

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_search_body_scrape import PostSearchBodyScrape

        d = dict(src_dict)
        query = d.pop("query")

        limit = d.pop("limit", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: list[PostSearchBodySourcesItem] | Unset = UNSET
        if _sources is not UNSET:
            sources = []
            for sources_item_data in _sources:
                sources_item = PostSearchBodySourcesItem(sources_item_data)

                sources.append(sources_item)

        _time_range = d.pop("time_range", UNSET)
        time_range: PostSearchBodyTimeRange | Unset
        if isinstance(_time_range, Unset):
            time_range = UNSET
        else:
            time_range = PostSearchBodyTimeRange(_time_range)

        language = d.pop("language", UNSET)

        country = d.pop("country", UNSET)

        def _parse_safe_search(data: object) -> Literal[0, 1, 2] | Unset:
            if isinstance(data, Unset):
                return data
            safe_search_type_0 = cast(Literal[0], data)
            if safe_search_type_0 != 0:
                raise ValueError(
                    f"safe_search_type_0 must match const 0, got '{safe_search_type_0}'"
                )
            return safe_search_type_0
            safe_search_type_1 = cast(Literal[1], data)
            if safe_search_type_1 != 1:
                raise ValueError(
                    f"safe_search_type_1 must match const 1, got '{safe_search_type_1}'"
                )
            return safe_search_type_1
            safe_search_type_2 = cast(Literal[2], data)
            if safe_search_type_2 != 2:
                raise ValueError(
                    f"safe_search_type_2 must match const 2, got '{safe_search_type_2}'"
                )
            return safe_search_type_2

        safe_search = _parse_safe_search(d.pop("safe_search", UNSET))

        include_domains = cast(list[str], d.pop("include_domains", UNSET))

        exclude_domains = cast(list[str], d.pop("exclude_domains", UNSET))

        timeout_ms = d.pop("timeout_ms", UNSET)

        _scrape = d.pop("scrape", UNSET)
        scrape: PostSearchBodyScrape | Unset
        if isinstance(_scrape, Unset):
            scrape = UNSET
        else:
            scrape = PostSearchBodyScrape.from_dict(_scrape)

        post_search_body = cls(
            query=query,
            limit=limit,
            sources=sources,
            time_range=time_range,
            language=language,
            country=country,
            safe_search=safe_search,
            include_domains=include_domains,
            exclude_domains=exclude_domains,
            timeout_ms=timeout_ms,
            scrape=scrape,
        )

        return post_search_body
