from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.flow_nodes_item_config import FlowNodesItemConfig


T = TypeVar("T", bound="FlowNodesItem")


@_attrs_define
class FlowNodesItem:
    """
    Attributes:
        id (str):
        type_ (str):
        config (FlowNodesItemConfig):
        needs (list[str]):
    """

    id: str
    type_: str
    config: FlowNodesItemConfig
    needs: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        config = self.config.to_dict()

        needs = self.needs

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "config": config,
                "needs": needs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.flow_nodes_item_config import FlowNodesItemConfig

        d = dict(src_dict)
        id = d.pop("id")

        type_ = d.pop("type")

        config = FlowNodesItemConfig.from_dict(d.pop("config"))

        needs = cast(list[str], d.pop("needs"))

        flow_nodes_item = cls(
            id=id,
            type_=type_,
            config=config,
            needs=needs,
        )

        flow_nodes_item.additional_properties = d
        return flow_nodes_item

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
