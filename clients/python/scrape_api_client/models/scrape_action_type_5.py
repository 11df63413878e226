from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScrapeActionType5")


@_attrs_define
class ScrapeActionType5:
    """
    Attributes:
        type_ (Literal['screenshot']):
        full_page (bool | Unset):  Default: False.
    """

    type_: Literal["screenshot"]
    full_page: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        full_page = self.full_page

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if full_page is not UNSET:
            field_dict["fullPage"] = full_page

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["screenshot"], d.pop("type"))
        if type_ != "screenshot":
            raise ValueError(f"type must match const 'screenshot', got '{type_}'")

        full_page = d.pop("fullPage", UNSET)

        scrape_action_type_5 = cls(
            type_=type_,
            full_page=full_page,
        )

        return scrape_action_type_5
