from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_api_webhooks_body_events_item import PostApiWebhooksBodyEventsItem
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostApiWebhooksBody")


@_attrs_define
class PostApiWebhooksBody:
    """
    Attributes:
        url (str):
        events (list[PostApiWebhooksBodyEventsItem] | Unset):
        description (str | Unset):
    """

    url: str
    events: list[PostApiWebhooksBodyEventsItem] | Unset = UNSET
    description: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        description = self.description

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        _events = d.pop("events", UNSET)
        events: list[PostApiWebhooksBodyEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = PostApiWebhooksBodyEventsItem(events_item_data)

                events.append(events_item)

        description = d.pop("description", UNSET)

        post_api_webhooks_body = cls(
            url=url,
            events=events,
            description=description,
        )

        return post_api_webhooks_body
