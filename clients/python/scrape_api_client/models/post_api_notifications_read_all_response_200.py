from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostApiNotificationsReadAllResponse200")


@_attrs_define
class PostApiNotificationsReadAllResponse200:
    """
    Attributes:
        updated (int):
        unread_count (int):
    """

    updated: int
    unread_count: int

    def to_dict(self) -> dict[str, Any]:
        updated = self.updated

        unread_count = self.unread_count

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "updated": updated,
                "unreadCount": unread_count,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        updated = d.pop("updated")

        unread_count = d.pop("unreadCount")

        post_api_notifications_read_all_response_200 = cls(
            updated=updated,
            unread_count=unread_count,
        )

        return post_api_notifications_read_all_response_200
