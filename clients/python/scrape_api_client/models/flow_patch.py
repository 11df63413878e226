from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.flow_patch_nodes_item import FlowPatchNodesItem


T = TypeVar("T", bound="FlowPatch")


@_attrs_define
class FlowPatch:
    """
    Attributes:
        name (str | Unset):
        description (None | str | Unset):
        nodes (list[FlowPatchNodesItem] | Unset):
    """

    name: str | Unset = UNSET
    description: None | str | Unset = UNSET
    nodes: list[FlowPatchNodesItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        nodes: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.nodes, Unset):
            nodes = []
            for nodes_item_data in self.nodes:
                nodes_item = nodes_item_data.to_dict()
                nodes.append(nodes_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if nodes is not UNSET:
            field_dict["nodes"] = nodes

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.flow_patch_nodes_item import FlowPatchNodesItem

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _nodes = d.pop("nodes", UNSET)
        nodes: list[FlowPatchNodesItem] | Unset = UNSET
        if _nodes is not UNSET:
            nodes = []
            for nodes_item_data in _nodes:
                nodes_item = FlowPatchNodesItem.from_dict(nodes_item_data)

                nodes.append(nodes_item)

        flow_patch = cls(
            name=name,
            description=description,
            nodes=nodes,
        )

        return flow_patch
