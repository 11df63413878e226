from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.user_template_params_item import UserTemplateParamsItem
    from ..models.user_template_request import UserTemplateRequest


T = TypeVar("T", bound="UserTemplate")


@_attrs_define
class UserTemplate:
    """
    Attributes:
        id (str):
        name (str):
        description (None | str):
        request (UserTemplateRequest):
        params (list[UserTemplateParamsItem]):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: str
    name: str
    description: None | str
    request: UserTemplateRequest
    params: list[UserTemplateParamsItem]
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        description: None | str
        description = self.description

        request = self.request.to_dict()

        params = []
        for params_item_data in self.params:
            params_item = params_item_data.to_dict()
            params.append(params_item)

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "description": description,
                "request": request,
                "params": params,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.user_template_params_item import UserTemplateParamsItem
        from ..models.user_template_request import UserTemplateRequest

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        request = UserTemplateRequest.from_dict(d.pop("request"))

        params = []
        _params = d.pop("params")
        for params_item_data in _params:
            params_item = UserTemplateParamsItem.from_dict(params_item_data)

            params.append(params_item)

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        user_template = cls(
            id=id,
            name=name,
            description=description,
            request=request,
            params=params,
            created_at=created_at,
            updated_at=updated_at,
        )

        return user_template
