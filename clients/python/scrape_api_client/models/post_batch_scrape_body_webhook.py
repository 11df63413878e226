from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_batch_scrape_body_webhook_events_item import (
    PostBatchScrapeBodyWebhookEventsItem,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_batch_scrape_body_webhook_metadata import (
        PostBatchScrapeBodyWebhookMetadata,
    )


T = TypeVar("T", bound="PostBatchScrapeBodyWebhook")


@_attrs_define
class PostBatchScrapeBodyWebhook:
    """
    Attributes:
        url (str):
        events (list[PostBatchScrapeBodyWebhookEventsItem] | Unset):
        metadata (PostBatchScrapeBodyWebhookMetadata | Unset):
    """

    url: str
    events: list[PostBatchScrapeBodyWebhookEventsItem] | Unset = UNSET
    metadata: PostBatchScrapeBodyWebhookMetadata | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events
        if metadata is not UNSET:
            field_dict["metadata"] = metadata

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_batch_scrape_body_webhook_metadata import (
            PostBatchScrapeBodyWebhookMetadata,
        )

        d = dict(src_dict)
        url = d.pop("url")

        _events = d.pop("events", UNSET)
        events: list[PostBatchScrapeBodyWebhookEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = PostBatchScrapeBodyWebhookEventsItem(events_item_data)

                events.append(events_item)

        _metadata = d.pop("metadata", UNSET)
        metadata: PostBatchScrapeBodyWebhookMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = PostBatchScrapeBodyWebhookMetadata.from_dict(_metadata)

        post_batch_scrape_body_webhook = cls(
            url=url,
            events=events,
            metadata=metadata,
        )

        return post_batch_scrape_body_webhook
