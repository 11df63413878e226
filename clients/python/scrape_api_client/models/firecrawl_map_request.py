from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_map_request_sitemap import FirecrawlMapRequestSitemap
from ..types import UNSET, Unset

T = TypeVar("T", bound="FirecrawlMapRequest")


@_attrs_define
class FirecrawlMapRequest:
    """
    Attributes:
        url (str):
        search (str | Unset): Only links whose URL contains it (case-insensitive)
        limit (int | Unset): Default 5000, at most 10000
        sitemap (FirecrawlMapRequestSitemap | Unset):
        include_subdomains (bool | Unset): Default true (Firecrawl's)
        ignore_sitemap (bool | Unset): v1: true is sitemap "skip"
        sitemap_only (bool | Unset): v1: true is sitemap "only"
        timeout (float | Unset):
        ignore_query_parameters (bool | Unset):
        integration (None | str | Unset):
        origin (str | Unset):
    """

    url: str
    search: str | Unset = UNSET
    limit: int | Unset = UNSET
    sitemap: FirecrawlMapRequestSitemap | Unset = UNSET
    include_subdomains: bool | Unset = UNSET
    ignore_sitemap: bool | Unset = UNSET
    sitemap_only: bool | Unset = UNSET
    timeout: float | Unset = UNSET
    ignore_query_parameters: bool | Unset = UNSET
    integration: None | str | Unset = UNSET
    origin: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        search = self.search

        limit = self.limit

        sitemap: str | Unset = UNSET
        if not isinstance(self.sitemap, Unset):
            sitemap = self.sitemap.value

        include_subdomains = self.include_subdomains

        ignore_sitemap = self.ignore_sitemap

        sitemap_only = self.sitemap_only

        timeout = self.timeout

        ignore_query_parameters = self.ignore_query_parameters

        integration: None | str | Unset
        if isinstance(self.integration, Unset):
            integration = UNSET
        else:
            integration = self.integration

        origin = self.origin

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
            }
        )
        if search is not UNSET:
            field_dict["search"] = search
        if limit is not UNSET:
            field_dict["limit"] = limit
        if sitemap is not UNSET:
            field_dict["sitemap"] = sitemap
        if include_subdomains is not UNSET:
            field_dict["includeSubdomains"] = include_subdomains
        if ignore_sitemap is not UNSET:
            field_dict["ignoreSitemap"] = ignore_sitemap
        if sitemap_only is not UNSET:
            field_dict["sitemapOnly"] = sitemap_only
        if timeout is not UNSET:
            field_dict["timeout"] = timeout
        if ignore_query_parameters is not UNSET:
            field_dict["ignoreQueryParameters"] = ignore_query_parameters
        if integration is not UNSET:
            field_dict["integration"] = integration
        if origin is not UNSET:
            field_dict["origin"] = origin

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        search = d.pop("search", UNSET)

        limit = d.pop("limit", UNSET)

        _sitemap = d.pop("sitemap", UNSET)
        sitemap: FirecrawlMapRequestSitemap | Unset
        if isinstance(_sitemap, Unset):
            sitemap = UNSET
        else:
            sitemap = FirecrawlMapRequestSitemap(_sitemap)

        include_subdomains = d.pop("includeSubdomains", UNSET)

        ignore_sitemap = d.pop("ignoreSitemap", UNSET)

        sitemap_only = d.pop("sitemapOnly", UNSET)

        timeout = d.pop("timeout", UNSET)

        ignore_query_parameters = d.pop("ignoreQueryParameters", UNSET)

        def _parse_integration(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        integration = _parse_integration(d.pop("integration", UNSET))

        origin = d.pop("origin", UNSET)

        firecrawl_map_request = cls(
            url=url,
            search=search,
            limit=limit,
            sitemap=sitemap,
            include_subdomains=include_subdomains,
            ignore_sitemap=ignore_sitemap,
            sitemap_only=sitemap_only,
            timeout=timeout,
            ignore_query_parameters=ignore_query_parameters,
            integration=integration,
            origin=origin,
        )

        firecrawl_map_request.additional_properties = d
        return firecrawl_map_request

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
