from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.flow_input_accepted_links import FlowInputAcceptedLinks


T = TypeVar("T", bound="FlowInputAccepted")


@_attrs_define
class FlowInputAccepted:
    """
    Attributes:
        id (str):
        node (str):
        accepted (bool):
        links (FlowInputAcceptedLinks):
    """

    id: str
    node: str
    accepted: bool
    links: FlowInputAcceptedLinks

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        node = self.node

        accepted = self.accepted

        links = self.links.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "node": node,
                "accepted": accepted,
                "links": links,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.flow_input_accepted_links import FlowInputAcceptedLinks

        d = dict(src_dict)
        id = d.pop("id")

        node = d.pop("node")

        accepted = d.pop("accepted")

        links = FlowInputAcceptedLinks.from_dict(d.pop("links"))

        flow_input_accepted = cls(
            id=id,
            node=node,
            accepted=accepted,
            links=links,
        )

        return flow_input_accepted
