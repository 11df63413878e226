from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WaitingFlowRunWaitingItem")


@_attrs_define
class WaitingFlowRunWaitingItem:
    """
    Attributes:
        node (str):
        prompt (str):
        expires_at (str):
        answer (str):
    """

    node: str
    prompt: str
    expires_at: str
    answer: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        node = self.node

        prompt = self.prompt

        expires_at = self.expires_at

        answer = self.answer

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "node": node,
                "prompt": prompt,
                "expires_at": expires_at,
                "answer": answer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        node = d.pop("node")

        prompt = d.pop("prompt")

        expires_at = d.pop("expires_at")

        answer = d.pop("answer")

        waiting_flow_run_waiting_item = cls(
            node=node,
            prompt=prompt,
            expires_at=expires_at,
            answer=answer,
        )

        waiting_flow_run_waiting_item.additional_properties = d
        return waiting_flow_run_waiting_item

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
