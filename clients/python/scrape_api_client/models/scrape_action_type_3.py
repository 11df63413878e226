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

T = TypeVar("T", bound="ScrapeActionType3")


@_attrs_define
class ScrapeActionType3:
    """
    Attributes:
        type_ (Literal['press']):
        key (str):
    """

    type_: Literal["press"]
    key: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        key = self.key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["press"], d.pop("type"))
        if type_ != "press":
            raise ValueError(f"type must match const 'press', got '{type_}'")

        key = d.pop("key")

        scrape_action_type_3 = cls(
            type_=type_,
            key=key,
        )

        return scrape_action_type_3
