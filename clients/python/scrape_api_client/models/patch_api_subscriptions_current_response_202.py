from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.payment import Payment
    from ..models.subscription import Subscription


T = TypeVar("T", bound="PatchApiSubscriptionsCurrentResponse202")


@_attrs_define
class PatchApiSubscriptionsCurrentResponse202:
    """
    Attributes:
        subscription (Subscription):
        payment (None | Payment):
    """

    subscription: Subscription
    payment: None | Payment

    def to_dict(self) -> dict[str, Any]:
        from ..models.payment import Payment

        subscription = self.subscription.to_dict()

        payment: dict[str, Any] | None
        if isinstance(self.payment, Payment):
            payment = self.payment.to_dict()
        else:
            payment = self.payment

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "subscription": subscription,
                "payment": payment,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.payment import Payment
        from ..models.subscription import Subscription

        d = dict(src_dict)
        subscription = Subscription.from_dict(d.pop("subscription"))

        def _parse_payment(data: object) -> None | Payment:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                payment_type_0 = Payment.from_dict(data)

                return payment_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Payment, data)

        payment = _parse_payment(d.pop("payment"))

        patch_api_subscriptions_current_response_202 = cls(
            subscription=subscription,
            payment=payment,
        )

        return patch_api_subscriptions_current_response_202
