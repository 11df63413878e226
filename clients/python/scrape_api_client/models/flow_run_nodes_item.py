from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FlowRunNodesItem")


@_attrs_define
class FlowRunNodesItem:
    """
    Attributes:
        id (str):
        type_ (str):
        status (str):
        attempts (int):
        credits_ (int):
    """

    id: str
    type_: str
    status: str
    attempts: int
    credits_: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        status = self.status

        attempts = self.attempts

        credits_ = self.credits_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "status": status,
                "attempts": attempts,
                "credits": credits_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        status = d.pop("status")

        attempts = d.pop("attempts")

        credits_ = d.pop("credits")

        flow_run_nodes_item = cls(
            id=id,
            type_=type_,
            status=status,
            attempts=attempts,
            credits_=credits_,
        )

        flow_run_nodes_item.additional_properties = d
        return flow_run_nodes_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
