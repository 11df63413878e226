from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.patch_user_templates_id_body_params_item_type import (
    PatchUserTemplatesIdBodyParamsItemType,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchUserTemplatesIdBodyParamsItem")


@_attrs_define
class PatchUserTemplatesIdBodyParamsItem:
    """
    Attributes:
        name (str):
        type_ (PatchUserTemplatesIdBodyParamsItemType):
        required (bool | Unset):  Default: False.
        default (bool | float | str | Unset):
    """

    name: str
    type_: PatchUserTemplatesIdBodyParamsItemType
    required: bool | Unset = False
    default: bool | float | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_.value

        required = self.required

        default: bool | float | str | Unset
        if isinstance(self.default, Unset):
            default = UNSET
        else:
            default = self.default

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
            }
        )
        if required is not UNSET:
            field_dict["required"] = required
        if default is not UNSET:
            field_dict["default"] = default

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = PatchUserTemplatesIdBodyParamsItemType(d.pop("type"))

        required = d.pop("required", UNSET)

        def _parse_default(data: object) -> bool | float | str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(bool | float | str | Unset, data)

        default = _parse_default(d.pop("default", UNSET))

        patch_user_templates_id_body_params_item = cls(
            name=name,
            type_=type_,
            required=required,
            default=default,
        )

        return patch_user_templates_id_body_params_item
