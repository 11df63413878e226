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

from ..models.scrape_action_type_4_direction import ScrapeActionType4Direction
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScrapeActionType4")


@_attrs_define
class ScrapeActionType4:
    """
    Attributes:
        type_ (Literal['scroll']):
        direction (ScrapeActionType4Direction | Unset):  Default: ScrapeActionType4Direction.DOWN.
        selector (str | Unset):
    """

    type_: Literal["scroll"]
    direction: ScrapeActionType4Direction | Unset = ScrapeActionType4Direction.DOWN
    selector: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        direction: str | Unset = UNSET
        if not isinstance(self.direction, Unset):
            direction = self.direction.value

        selector = self.selector

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if direction is not UNSET:
            field_dict["direction"] = direction
        if selector is not UNSET:
            field_dict["selector"] = selector

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["scroll"], d.pop("type"))
        if type_ != "scroll":
            raise ValueError(f"type must match const 'scroll', got '{type_}'")

        _direction = d.pop("direction", UNSET)
        direction: ScrapeActionType4Direction | Unset
        if isinstance(_direction, Unset):
            direction = UNSET
        else:
            direction = ScrapeActionType4Direction(_direction)

        selector = d.pop("selector", UNSET)

        scrape_action_type_4 = cls(
            type_=type_,
            direction=direction,
            selector=selector,
        )

        return scrape_action_type_4
