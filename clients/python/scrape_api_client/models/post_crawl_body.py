from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.post_crawl_body_sitemap import PostCrawlBodySitemap
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_crawl_body_scrape import PostCrawlBodyScrape
    from ..models.post_crawl_body_webhook import PostCrawlBodyWebhook


T = TypeVar("T", bound="PostCrawlBody")


@_attrs_define
class PostCrawlBody:
    """
    Attributes:
        url (str):
        limit (int | Unset):  Default: 100.
        max_depth (int | Unset):  Default: 3.
        include_paths (list[str] | Unset):
        exclude_paths (list[str] | Unset):
        same_origin (bool | Unset):  Default: True.
        allow_subdomains (bool | Unset):  Default: False.
        respect_robots (bool | Unset):  Default: True.
        sitemap (PostCrawlBodySitemap | Unset):  Default: PostCrawlBodySitemap.INCLUDE.
        concurrency (int | Unset):  Default: 4.
        per_host_delay_ms (int | Unset):  Default: 250.
        scrape (PostCrawlBodyScrape | Unset): The scrape request of each page, as POST /webhook/unblocker takes it,
            without `url`, `async` and `webhook`.
        webhook (PostCrawlBodyWebhook | Unset):
        ignore_query_parameters (bool | Unset):
    """

    url: str
    limit: int | Unset = 100
    max_depth: int | Unset = 3
    include_paths: list[str] | Unset = UNSET
    exclude_paths: list[str] | Unset = UNSET
    same_origin: bool | Unset = True
    allow_subdomains: bool | Unset = False
    respect_robots: bool | Unset = True
    sitemap: PostCrawlBodySitemap | Unset = PostCrawlBodySitemap.INCLUDE
    concurrency: int | Unset = 4
    per_host_delay_ms: int | Unset = 250
    scrape: PostCrawlBodyScrape | Unset = UNSET
    webhook: PostCrawlBodyWebhook | Unset = UNSET
    ignore_query_parameters: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        limit = self.limit

        max_depth = self.max_depth

        include_paths: list[str] | Unset = UNSET
        if not isinstance(self.include_paths, Unset):
            include_paths = self.include_paths

        exclude_paths: list[str] | Unset = UNSET
        if not isinstance(self.exclude_paths, Unset):
            exclude_paths = self.exclude_paths

        same_origin = self.same_origin

        allow_subdomains = self.allow_subdomains

        respect_robots = self.respect_robots

        sitemap: str | Unset = UNSET
        if not isinstance(self.sitemap, Unset):
            sitemap = self.sitemap.value

        concurrency = self.concurrency

        per_host_delay_ms = self.per_host_delay_ms

        scrape: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scrape, Unset):
            scrape = self.scrape.to_dict()

        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        ignore_query_parameters = self.ignore_query_parameters

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit
        if max_depth is not UNSET:
            field_dict["max_depth"] = max_depth
        if include_paths is not UNSET:
            field_dict["include_paths"] = include_paths
        if exclude_paths is not UNSET:
            field_dict["exclude_paths"] = exclude_paths
        if same_origin is not UNSET:
            field_dict["same_origin"] = same_origin
        if allow_subdomains is not UNSET:
            field_dict["allow_subdomains"] = allow_subdomains
        if respect_robots is not UNSET:
            field_dict["respect_robots"] = respect_robots
        if sitemap is not UNSET:
            field_dict["sitemap"] = sitemap
        if concurrency is not UNSET:
            field_dict["concurrency"] = concurrency
        if per_host_delay_ms is not UNSET:
            field_dict["per_host_delay_ms"] = per_host_delay_ms
        if scrape is not UNSET:
            field_dict["scrape"] = scrape
        if webhook is not UNSET:
            field_dict["webhook"] = webhook
        if ignore_query_parameters is not UNSET:
            field_dict["ignore_query_parameters"] = ignore_query_parameters

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_crawl_body_scrape import PostCrawlBodyScrape
        from ..models.post_crawl_body_webhook import PostCrawlBodyWebhook

        d = dict(src_dict)
        url = d.pop("url")

        limit = d.pop("limit", UNSET)

        max_depth = d.pop("max_depth", UNSET)

        include_paths = cast(list[str], d.pop("include_paths", UNSET))

        exclude_paths = cast(list[str], d.pop("exclude_paths", UNSET))

        same_origin = d.pop("same_origin", UNSET)

        allow_subdomains = d.pop("allow_subdomains", UNSET)

        respect_robots = d.pop("respect_robots", UNSET)

        _sitemap = d.pop("sitemap", UNSET)
        sitemap: PostCrawlBodySitemap | Unset
        if isinstance(_sitemap, Unset):
            sitemap = UNSET
        else:
            sitemap = PostCrawlBodySitemap(_sitemap)

        concurrency = d.pop("concurrency", UNSET)

        per_host_delay_ms = d.pop("per_host_delay_ms", UNSET)

        _scrape = d.pop("scrape", UNSET)
        scrape: PostCrawlBodyScrape | Unset
        if isinstance(_scrape, Unset):
            scrape = UNSET
        else:
            scrape = PostCrawlBodyScrape.from_dict(_scrape)

        _webhook = d.pop("webhook", UNSET)
        webhook: PostCrawlBodyWebhook | Unset
        if isinstance(_webhook, Unset):
            webhook = UNSET
        else:
            webhook = PostCrawlBodyWebhook.from_dict(_webhook)

        ignore_query_parameters = d.pop("ignore_query_parameters", UNSET)

        post_crawl_body = cls(
            url=url,
            limit=limit,
            max_depth=max_depth,
            include_paths=include_paths,
            exclude_paths=exclude_paths,
            same_origin=same_origin,
            allow_subdomains=allow_subdomains,
            respect_robots=respect_robots,
            sitemap=sitemap,
            concurrency=concurrency,
            per_host_delay_ms=per_host_delay_ms,
            scrape=scrape,
            webhook=webhook,
            ignore_query_parameters=ignore_query_parameters,
        )

        return post_crawl_body
