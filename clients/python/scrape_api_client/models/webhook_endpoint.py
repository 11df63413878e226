from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_endpoint_events_item import WebhookEndpointEventsItem

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        id (str):
        url (str):
        description (None | str):
        events (list[WebhookEndpointEventsItem]): Event types it receives; empty = every type.
        created_at (datetime.datetime):
    """

    id: str
    url: str
    description: None | str
    events: list[WebhookEndpointEventsItem]
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        description: None | str
        description = self.description

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.value
            events.append(events_item)

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "description": description,
                "events": events,
                "createdAt": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = WebhookEndpointEventsItem(events_item_data)

            events.append(events_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        webhook_endpoint = cls(
            id=id,
            url=url,
            description=description,
            events=events,
            created_at=created_at,
        )

        return webhook_endpoint
