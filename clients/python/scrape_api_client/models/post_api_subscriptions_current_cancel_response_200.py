from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.subscription import Subscription


T = TypeVar("T", bound="PostApiSubscriptionsCurrentCancelResponse200")


@_attrs_define
class PostApiSubscriptionsCurrentCancelResponse200:
    """
    Attributes:
        subscription (Subscription):
    """

    subscription: Subscription

    def to_dict(self) -> dict[str, Any]:
        subscription = self.subscription.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription": subscription,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription import Subscription

        d = dict(src_dict)
        subscription = Subscription.from_dict(d.pop("subscription"))

        post_api_subscriptions_current_cancel_response_200 = cls(
            subscription=subscription,
        )

        return post_api_subscriptions_current_cancel_response_200
