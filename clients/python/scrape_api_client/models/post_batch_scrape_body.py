from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_batch_scrape_body_scrape import PostBatchScrapeBodyScrape
    from ..models.post_batch_scrape_body_webhook import PostBatchScrapeBodyWebhook


T = TypeVar("T", bound="PostBatchScrapeBody")


@_attrs_define
class PostBatchScrapeBody:
    """
    Attributes:
        urls (list[str]):
        concurrency (int | Unset):  Default: 4.
        per_host_delay_ms (int | Unset):  Default: 0.
        scrape (PostBatchScrapeBodyScrape | Unset): The scrape request of each page, as POST /webhook/unblocker takes
            it, without `url`, `async` and `webhook`.
        webhook (PostBatchScrapeBodyWebhook | Unset):
    """

    urls: list[str]
    concurrency: int | Unset = 4
    per_host_delay_ms: int | Unset = 0
    scrape: PostBatchScrapeBodyScrape | Unset = UNSET
    webhook: PostBatchScrapeBodyWebhook | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        urls = self.urls

        concurrency = self.concurrency

        per_host_delay_ms = self.per_host_delay_ms

        scrape: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scrape, Unset):
            scrape = self.scrape.to_dict()

        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "urls": urls,
            }
        )
        if concurrency is not UNSET:
            field_dict["concurrency"] = concurrency
        if per_host_delay_ms is not UNSET:
            field_dict["per_host_delay_ms"] = per_host_delay_ms
        if scrape is not UNSET:
            field_dict["scrape"] = scrape
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_batch_scrape_body_scrape import PostBatchScrapeBodyScrape
        from ..models.post_batch_scrape_body_webhook import PostBatchScrapeBodyWebhook

        d = dict(src_dict)
        urls = cast(list[str], d.pop("urls"))

        concurrency = d.pop("concurrency", UNSET)

        per_host_delay_ms = d.pop("per_host_delay_ms", UNSET)

        _scrape = d.pop("scrape", UNSET)
        scrape: PostBatchScrapeBodyScrape | Unset
        if isinstance(_scrape, Unset):
            scrape = UNSET
        else:
            scrape = PostBatchScrapeBodyScrape.from_dict(_scrape)

        _webhook = d.pop("webhook", UNSET)
        webhook: PostBatchScrapeBodyWebhook | Unset
        if isinstance(_webhook, Unset):
            webhook = UNSET
        else:
            webhook = PostBatchScrapeBodyWebhook.from_dict(_webhook)

        post_batch_scrape_body = cls(
            urls=urls,
            concurrency=concurrency,
            per_host_delay_ms=per_host_delay_ms,
            scrape=scrape,
            webhook=webhook,
        )

        return post_batch_scrape_body
