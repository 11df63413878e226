from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Payment")


@_attrs_define
class Payment:
    """
    Attributes:
        id (str):
        status (str):
        credits_ (int):
        amount_cents (int):
        currency (str):
    """

    id: str
    status: str
    credits_: int
    amount_cents: int
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status

        credits_ = self.credits_

        amount_cents = self.amount_cents

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "credits": credits_,
                "amountCents": amount_cents,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        status = d.pop("status")

        credits_ = d.pop("credits")

        amount_cents = d.pop("amountCents")

        currency = d.pop("currency")

        payment = cls(
            id=id,
            status=status,
            credits_=credits_,
            amount_cents=amount_cents,
            currency=currency,
        )

        payment.additional_properties = d
        return payment

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
