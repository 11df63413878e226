from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_api_payments_packs_response_200_packs_item import (
        GetApiPaymentsPacksResponse200PacksItem,
    )


T = TypeVar("T", bound="GetApiPaymentsPacksResponse200")


@_attrs_define
class GetApiPaymentsPacksResponse200:
    """
    Attributes:
        provider (str):
        packs (list[GetApiPaymentsPacksResponse200PacksItem]):
    """

    provider: str
    packs: list[GetApiPaymentsPacksResponse200PacksItem]

    def to_dict(self) -> dict[str, Any]:
        provider = self.provider

        packs = []
        for packs_item_data in self.packs:
            packs_item = packs_item_data.to_dict()
            packs.append(packs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "provider": provider,
                "packs": packs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_api_payments_packs_response_200_packs_item import (
            GetApiPaymentsPacksResponse200PacksItem,
        )

        d = dict(src_dict)
        provider = d.pop("provider")

        packs = []
        _packs = d.pop("packs")
        for packs_item_data in _packs:
            packs_item = GetApiPaymentsPacksResponse200PacksItem.from_dict(
                packs_item_data
            )

            packs.append(packs_item)

        get_api_payments_packs_response_200 = cls(
            provider=provider,
            packs=packs,
        )

        return get_api_payments_packs_response_200
