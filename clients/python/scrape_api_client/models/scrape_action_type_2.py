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

T = TypeVar("T", bound="ScrapeActionType2")


@_attrs_define
class ScrapeActionType2:
    """
    Attributes:
        type_ (Literal['write']):
        text (str):
    """

    type_: Literal["write"]
    text: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["write"], d.pop("type"))
        if type_ != "write":
            raise ValueError(f"type must match const 'write', got '{type_}'")

        text = d.pop("text")

        scrape_action_type_2 = cls(
            type_=type_,
            text=text,
        )

        return scrape_action_type_2
