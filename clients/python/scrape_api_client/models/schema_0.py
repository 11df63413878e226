from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.schema_0_type import Schema0Type
from ..types import UNSET, Unset

T = TypeVar("T", bound="Schema0")


@_attrs_define
class Schema0:
    """
    Attributes:
        name (str):
        type_ (Schema0Type):
        selector (str | Unset):
        attribute (str | Unset):
        fields (list[Schema0] | Unset):
    """

    name: str
    type_: Schema0Type
    selector: str | Unset = UNSET
    attribute: str | Unset = UNSET
    fields: list[Schema0] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        selector = self.selector

        attribute = self.attribute

        fields: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = []
            for fields_item_data in self.fields:
                fields_item = fields_item_data.to_dict()
                fields.append(fields_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if selector is not UNSET:
            field_dict["selector"] = selector
        if attribute is not UNSET:
            field_dict["attribute"] = attribute
        if fields is not UNSET:
            field_dict["fields"] = fields

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = Schema0Type(d.pop("type"))

        selector = d.pop("selector", UNSET)

        attribute = d.pop("attribute", UNSET)

        _fields = d.pop("fields", UNSET)
        fields: list[Schema0] | Unset = UNSET
        if _fields is not UNSET:
            fields = []
            for fields_item_data in _fields:
                fields_item = Schema0.from_dict(fields_item_data)

                fields.append(fields_item)

        schema_0 = cls(
            name=name,
            type_=type_,
            selector=selector,
            attribute=attribute,
            fields=fields,
        )

        return schema_0
