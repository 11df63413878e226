from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.notification import Notification


T = TypeVar("T", bound="GetApiNotificationsResponse200")


@_attrs_define
class GetApiNotificationsResponse200:
    """
    Attributes:
        notifications (list[Notification]):
        unread_count (int):
        next_cursor (None | str):
    """

    notifications: list[Notification]
    unread_count: int
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        notifications = []
        for notifications_item_data in self.notifications:
            notifications_item = notifications_item_data.to_dict()
            notifications.append(notifications_item)

        unread_count = self.unread_count

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "notifications": notifications,
                "unreadCount": unread_count,
                "nextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.notification import Notification

        d = dict(src_dict)
        notifications = []
        _notifications = d.pop("notifications")
        for notifications_item_data in _notifications:
            notifications_item = Notification.from_dict(notifications_item_data)

            notifications.append(notifications_item)

        unread_count = d.pop("unreadCount")

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        get_api_notifications_response_200 = cls(
            notifications=notifications,
            unread_count=unread_count,
            next_cursor=next_cursor,
        )

        return get_api_notifications_response_200
