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

T = TypeVar("T", bound="ScrapeActionType1")


@_attrs_define
class ScrapeActionType1:
    """
    Attributes:
        type_ (Literal['click']):
        selector (str):
        all_ (bool | Unset):  Default: False.
    """

    type_: Literal["click"]
    selector: str
    all_: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        selector = self.selector

        all_ = self.all_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "selector": selector,
            }
        )
        if all_ is not UNSET:
            field_dict["all"] = all_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["click"], d.pop("type"))
        if type_ != "click":
            raise ValueError(f"type must match const 'click', got '{type_}'")

        selector = d.pop("selector")

        all_ = d.pop("all", UNSET)

        scrape_action_type_1 = cls(
            type_=type_,
            selector=selector,
            all_=all_,
        )

        return scrape_action_type_1
