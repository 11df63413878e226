from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.flow_patch_nodes_item_type import FlowPatchNodesItemType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.flow_patch_nodes_item_config import FlowPatchNodesItemConfig


T = TypeVar("T", bound="FlowPatchNodesItem")


@_attrs_define
class FlowPatchNodesItem:
    """
    Attributes:
        id (str):
        type_ (FlowPatchNodesItemType):
        config (FlowPatchNodesItemConfig):
        needs (list[str] | Unset):
    """

    id: str
    type_: FlowPatchNodesItemType
    config: FlowPatchNodesItemConfig
    needs: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_.value

        config = self.config.to_dict()

        needs: list[str] | Unset = UNSET
        if not isinstance(self.needs, Unset):
            needs = self.needs

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "config": config,
            }
        )
        if needs is not UNSET:
            field_dict["needs"] = needs

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.flow_patch_nodes_item_config import FlowPatchNodesItemConfig

        d = dict(src_dict)
        id = d.pop("id")

        type_ = FlowPatchNodesItemType(d.pop("type"))

        config = FlowPatchNodesItemConfig.from_dict(d.pop("config"))

        needs = cast(list[str], d.pop("needs", UNSET))

        flow_patch_nodes_item = cls(
            id=id,
            type_=type_,
            config=config,
            needs=needs,
        )

        return flow_patch_nodes_item
