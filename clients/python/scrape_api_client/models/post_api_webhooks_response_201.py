from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.post_api_webhooks_response_201_events_item import (
    PostApiWebhooksResponse201EventsItem,
)

T = TypeVar("T", bound="PostApiWebhooksResponse201")


@_attrs_define
class PostApiWebhooksResponse201:
    """
    Attributes:
        id (str):
        url (str):
        description (None | str):
        events (list[PostApiWebhooksResponse201EventsItem]): Event types it receives; empty = every type.
        created_at (datetime.datetime):
        secret (str): HMAC-SHA256 signing secret (`whsec_…`): shown once.
    """

    id: str
    url: str
    description: None | str
    events: list[PostApiWebhooksResponse201EventsItem]
    created_at: datetime.datetime
    secret: str

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

        secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "description": description,
                "events": events,
                "createdAt": created_at,
                "secret": secret,
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
            events_item = PostApiWebhooksResponse201EventsItem(events_item_data)

            events.append(events_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        secret = d.pop("secret")

        post_api_webhooks_response_201 = cls(
            id=id,
            url=url,
            description=description,
            events=events,
            created_at=created_at,
            secret=secret,
        )

        return post_api_webhooks_response_201
