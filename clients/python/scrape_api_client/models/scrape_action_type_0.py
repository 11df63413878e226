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

T = TypeVar("T", bound="ScrapeActionType0")


@_attrs_define
class ScrapeActionType0:
    """
    Attributes:
        type_ (Literal['wait']):
        milliseconds (int | Unset):
        selector (str | Unset):
    """

    type_: Literal["wait"]
    milliseconds: int | Unset = UNSET
    selector: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        milliseconds = self.milliseconds

        selector = self.selector

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if milliseconds is not UNSET:
            field_dict["milliseconds"] = milliseconds
        if selector is not UNSET:
            field_dict["selector"] = selector

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["wait"], d.pop("type"))
        if type_ != "wait":
            raise ValueError(f"type must match const 'wait', got '{type_}'")

        milliseconds = d.pop("milliseconds", UNSET)

        selector = d.pop("selector", UNSET)

        scrape_action_type_0 = cls(
            type_=type_,
            milliseconds=milliseconds,
            selector=selector,
        )

        return scrape_action_type_0
