from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_user_templates_id_body_params_item import (
        PatchUserTemplatesIdBodyParamsItem,
    )
    from ..models.patch_user_templates_id_body_request import (
        PatchUserTemplatesIdBodyRequest,
    )


T = TypeVar("T", bound="PatchUserTemplatesIdBody")


@_attrs_define
class PatchUserTemplatesIdBody:
    """
    Attributes:
        name (str | Unset):
        description (None | str | Unset):
        request (PatchUserTemplatesIdBodyRequest | Unset):
        params (list[PatchUserTemplatesIdBodyParamsItem] | Unset):
    """

    name: str | Unset = UNSET
    description: None | str | Unset = UNSET
    request: PatchUserTemplatesIdBodyRequest | Unset = UNSET
    params: list[PatchUserTemplatesIdBodyParamsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        request: dict[str, Any] | Unset = UNSET
        if not isinstance(self.request, Unset):
            request = self.request.to_dict()

        params: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = []
            for params_item_data in self.params:
                params_item = params_item_data.to_dict()
                params.append(params_item)

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if description is not UNSET:
            field_dict["description"] = description
        if request is not UNSET:
            field_dict["request"] = request
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.patch_user_templates_id_body_params_item import (
            PatchUserTemplatesIdBodyParamsItem,
        )
        from ..models.patch_user_templates_id_body_request import (
            PatchUserTemplatesIdBodyRequest,
        )

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _request = d.pop("request", UNSET)
        request: PatchUserTemplatesIdBodyRequest | Unset
        if isinstance(_request, Unset):
            request = UNSET
        else:
            request = PatchUserTemplatesIdBodyRequest.from_dict(_request)

        _params = d.pop("params", UNSET)
        params: list[PatchUserTemplatesIdBodyParamsItem] | Unset = UNSET
        if _params is not UNSET:
            params = []
            for params_item_data in _params:
                params_item = PatchUserTemplatesIdBodyParamsItem.from_dict(
                    params_item_data
                )

                params.append(params_item)

        patch_user_templates_id_body = cls(
            name=name,
            description=description,
            request=request,
            params=params,
        )

        return patch_user_templates_id_body
