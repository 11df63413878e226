from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostMonitorsBodyIgnore")


@_attrs_define
class PostMonitorsBodyIgnore:
    """
    Attributes:
        selectors (list[str] | Unset):
        patterns (list[str] | Unset):
    """

    selectors: list[str] | Unset = UNSET
    patterns: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        selectors: list[str] | Unset = UNSET
        if not isinstance(self.selectors, Unset):
            selectors = self.selectors

        patterns: list[str] | Unset = UNSET
        if not isinstance(self.patterns, Unset):
            patterns = self.patterns

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if selectors is not UNSET:
            field_dict["selectors"] = selectors
        if patterns is not UNSET:
            field_dict["patterns"] = patterns

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        selectors = cast(list[str], d.pop("selectors", UNSET))

        patterns = cast(list[str], d.pop("patterns", UNSET))

        post_monitors_body_ignore = cls(
            selectors=selectors,
            patterns=patterns,
        )

        return post_monitors_body_ignore
