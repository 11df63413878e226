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

T = TypeVar("T", bound="ScrapeActionType6")


@_attrs_define
class ScrapeActionType6:
    """
    Attributes:
        type_ (Literal['scrape']):
    """

    type_: Literal["scrape"]

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["scrape"], d.pop("type"))
        if type_ != "scrape":
            raise ValueError(f"type must match const 'scrape', got '{type_}'")

        scrape_action_type_6 = cls(
            type_=type_,
        )

        return scrape_action_type_6
