from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_crawl_body_webhook_events_item import PostCrawlBodyWebhookEventsItem
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_crawl_body_webhook_metadata import PostCrawlBodyWebhookMetadata


T = TypeVar("T", bound="PostCrawlBodyWebhook")


@_attrs_define
class PostCrawlBodyWebhook:
    """
    Attributes:
        url (str):
        events (list[PostCrawlBodyWebhookEventsItem] | Unset):
        metadata (PostCrawlBodyWebhookMetadata | Unset):
    """

    url: str
    events: list[PostCrawlBodyWebhookEventsItem] | Unset = UNSET
    metadata: PostCrawlBodyWebhookMetadata | Unset = UNSET

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
        from ..models.post_crawl_body_webhook_metadata import (
            PostCrawlBodyWebhookMetadata,
        )

        d = dict(src_dict)
        url = d.pop("url")

        _events = d.pop("events", UNSET)
        events: list[PostCrawlBodyWebhookEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = PostCrawlBodyWebhookEventsItem(events_item_data)

                events.append(events_item)

        _metadata = d.pop("metadata", UNSET)
        metadata: PostCrawlBodyWebhookMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = PostCrawlBodyWebhookMetadata.from_dict(_metadata)

        post_crawl_body_webhook = cls(
            url=url,
            events=events,
            metadata=metadata,
        )

        return post_crawl_body_webhook
