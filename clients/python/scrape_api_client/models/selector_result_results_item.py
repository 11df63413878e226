from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.selector_result_results_item_attributes import (
        SelectorResultResultsItemAttributes,
    )


T = TypeVar("T", bound="SelectorResultResultsItem")


@_attrs_define
class SelectorResultResultsItem:
    """
    Attributes:
        text (str):
        html (str):
        attributes (SelectorResultResultsItemAttributes):
    """

    text: str
    html: str
    attributes: SelectorResultResultsItemAttributes
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        text = self.text

        html = self.html

        attributes = self.attributes.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "text": text,
                "html": html,
                "attributes": attributes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.selector_result_results_item_attributes import (
            SelectorResultResultsItemAttributes,
        )

        d = dict(src_dict)
        text = d.pop("text")

        html = d.pop("html")

        attributes = SelectorResultResultsItemAttributes.from_dict(d.pop("attributes"))

        selector_result_results_item = cls(
            text=text,
            html=html,
            attributes=attributes,
        )

        selector_result_results_item.additional_properties = d
        return selector_result_results_item

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
