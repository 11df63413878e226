from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_delivery_status import WebhookDeliveryStatus

if TYPE_CHECKING:
    from ..models.webhook_attempt import WebhookAttempt


T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        id (str):
        event_id (str):
        event_type (str):
        endpoint_id (None | str):
        url (str):
        status (WebhookDeliveryStatus):
        redelivery_of (None | str):
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        attempts (list[WebhookAttempt]):
    """

    id: str
    event_id: str
    event_type: str
    endpoint_id: None | str
    url: str
    status: WebhookDeliveryStatus
    redelivery_of: None | str
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    attempts: list[WebhookAttempt]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        event_id = self.event_id

        event_type = self.event_type

        endpoint_id: None | str
        endpoint_id = self.endpoint_id

        url = self.url

        status = self.status.value

        redelivery_of: None | str
        redelivery_of = self.redelivery_of

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "eventId": event_id,
                "eventType": event_type,
                "endpointId": endpoint_id,
                "url": url,
                "status": status,
                "redeliveryOf": redelivery_of,
                "createdAt": created_at,
                "finishedAt": finished_at,
                "attempts": attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_attempt import WebhookAttempt

        d = dict(src_dict)
        id = d.pop("id")

        event_id = d.pop("eventId")

        event_type = d.pop("eventType")

        def _parse_endpoint_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endpoint_id = _parse_endpoint_id(d.pop("endpointId"))

        url = d.pop("url")

        status = WebhookDeliveryStatus(d.pop("status"))

        def _parse_redelivery_of(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        redelivery_of = _parse_redelivery_of(d.pop("redeliveryOf"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = WebhookAttempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        webhook_delivery = cls(
            id=id,
            event_id=event_id,
            event_type=event_type,
            endpoint_id=endpoint_id,
            url=url,
            status=status,
            redelivery_of=redelivery_of,
            created_at=created_at,
            finished_at=finished_at,
            attempts=attempts,
        )

        return webhook_delivery
