from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostMonitorsBodyScheduleType0")


@_attrs_define
class PostMonitorsBodyScheduleType0:
    """
    Attributes:
        every (str):
    """

    every: str

    def to_dict(self) -> dict[str, Any]:
        every = self.every

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "every": every,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        every = d.pop("every")

        post_monitors_body_schedule_type_0 = cls(
            every=every,
        )

        return post_monitors_body_schedule_type_0
