from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.selector_result_results_item import SelectorResultResultsItem


T = TypeVar("T", bound="SelectorResult")


@_attrs_define
class SelectorResult:
    """
    Attributes:
        selector (str):
        results (list[SelectorResultResultsItem]):
        name (str | Unset):
    """

    selector: str
    results: list[SelectorResultResultsItem]
    name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        selector = self.selector

        results = []
        for results_item_data in self.results:
            results_item = results_item_data.to_dict()
            results.append(results_item)

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "selector": selector,
                "results": results,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.selector_result_results_item import SelectorResultResultsItem

        d = dict(src_dict)
        selector = d.pop("selector")

        results = []
        _results = d.pop("results")
        for results_item_data in _results:
            results_item = SelectorResultResultsItem.from_dict(results_item_data)

            results.append(results_item)

        name = d.pop("name", UNSET)

        selector_result = cls(
            selector=selector,
            results=results,
            name=name,
        )

        selector_result.additional_properties = d
        return selector_result

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
