from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="MonitorIgnore")


@_attrs_define
class MonitorIgnore:
    """
    Attributes:
        selectors (list[str]):
        patterns (list[str]):
    """

    selectors: list[str]
    patterns: list[str]

    def to_dict(self) -> dict[str, Any]:
        selectors = self.selectors

        patterns = self.patterns

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "selectors": selectors,
                "patterns": patterns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        selectors = cast(list[str], d.pop("selectors"))

        patterns = cast(list[str], d.pop("patterns"))

        monitor_ignore = cls(
            selectors=selectors,
            patterns=patterns,
        )

        return monitor_ignore
