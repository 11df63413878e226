from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FlowInputAcceptedLinks")


@_attrs_define
class FlowInputAcceptedLinks:
    """
    Attributes:
        self_ (str):
        cancel (str):
    """

    self_: str
    cancel: str

    def to_dict(self) -> dict[str, Any]:
        self_ = self.self_

        cancel = self.cancel

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "self": self_,
                "cancel": cancel,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        self_ = d.pop("self")

        cancel = d.pop("cancel")

        flow_input_accepted_links = cls(
            self_=self_,
            cancel=cancel,
        )

        return flow_input_accepted_links
