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

T = TypeVar("T", bound="ScrapeActionType7")


@_attrs_define
class ScrapeActionType7:
    """
    Attributes:
        type_ (Literal['executeJavascript']):
        script (str):
    """

    type_: Literal["executeJavascript"]
    script: str

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        script = self.script

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "script": script,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["executeJavascript"], d.pop("type"))
        if type_ != "executeJavascript":
            raise ValueError(
                f"type must match const 'executeJavascript', got '{type_}'"
            )

        script = d.pop("script")

        scrape_action_type_7 = cls(
            type_=type_,
            script=script,
        )

        return scrape_action_type_7
