from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.subscription import Subscription


T = TypeVar("T", bound="GetApiSubscriptionsResponse200")


@_attrs_define
class GetApiSubscriptionsResponse200:
    """
    Attributes:
        subscription (None | Subscription):
        history (list[Subscription]):
    """

    subscription: None | Subscription
    history: list[Subscription]

    def to_dict(self) -> dict[str, Any]:
        from ..models.subscription import Subscription

        subscription: dict[str, Any] | None
        if isinstance(self.subscription, Subscription):
            subscription = self.subscription.to_dict()
        else:
            subscription = self.subscription

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription": subscription,
                "history": history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.subscription import Subscription

        d = dict(src_dict)

        def _parse_subscription(data: object) -> None | Subscription:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                subscription_type_0 = Subscription.from_dict(data)

                return subscription_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Subscription, data)

        subscription = _parse_subscription(d.pop("subscription"))

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = Subscription.from_dict(history_item_data)

            history.append(history_item)

        get_api_subscriptions_response_200 = cls(
            subscription=subscription,
            history=history,
        )

        return get_api_subscriptions_response_200
