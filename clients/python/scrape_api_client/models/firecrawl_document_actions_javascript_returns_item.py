from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="FirecrawlDocumentActionsJavascriptReturnsItem")


@_attrs_define
class FirecrawlDocumentActionsJavascriptReturnsItem:
    """
    Attributes:
        type_ (str):
        value (Any):
    """

    type_: str
    value: Any

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        value = self.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "value": value,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        value = d.pop("value")

        firecrawl_document_actions_javascript_returns_item = cls(
            type_=type_,
            value=value,
        )

        return firecrawl_document_actions_javascript_returns_item
