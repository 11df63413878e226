from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GetApiPaymentsPacksResponse200PacksItem")


@_attrs_define
class GetApiPaymentsPacksResponse200PacksItem:
    """
    Attributes:
        id (str):
        credits_ (int):
        price_cents (int):
        currency (str):
    """

    id: str
    credits_: int
    price_cents: int
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        credits_ = self.credits_

        price_cents = self.price_cents

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "credits": credits_,
                "priceCents": price_cents,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        credits_ = d.pop("credits")

        price_cents = d.pop("priceCents")

        currency = d.pop("currency")

        get_api_payments_packs_response_200_packs_item = cls(
            id=id,
            credits_=credits_,
            price_cents=price_cents,
            currency=currency,
        )

        get_api_payments_packs_response_200_packs_item.additional_properties = d
        return get_api_payments_packs_response_200_packs_item

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
