from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_user_templates_body_params_item import (
        PostUserTemplatesBodyParamsItem,
    )
    from ..models.post_user_templates_body_request import PostUserTemplatesBodyRequest


T = TypeVar("T", bound="PostUserTemplatesBody")


@_attrs_define
class PostUserTemplatesBody:
    """
    Attributes:
        name (str):
        request (PostUserTemplatesBodyRequest):
        description (str | Unset):
        params (list[PostUserTemplatesBodyParamsItem] | Unset):
    """

    name: str
    request: PostUserTemplatesBodyRequest
    description: str | Unset = UNSET
    params: list[PostUserTemplatesBodyParamsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        request = self.request.to_dict()

        description = self.description

        params: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = []
            for params_item_data in self.params:
                params_item = params_item_data.to_dict()
                params.append(params_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "request": request,
            }
        )
        if description is not UNSET:
            field_dict["description"] = description
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_user_templates_body_params_item import (
            PostUserTemplatesBodyParamsItem,
        )
        from ..models.post_user_templates_body_request import (
            PostUserTemplatesBodyRequest,
        )

        d = dict(src_dict)
        name = d.pop("name")

        request = PostUserTemplatesBodyRequest.from_dict(d.pop("request"))

        description = d.pop("description", UNSET)

        _params = d.pop("params", UNSET)
        params: list[PostUserTemplatesBodyParamsItem] | Unset = UNSET
        if _params is not UNSET:
            params = []
            for params_item_data in _params:
                params_item = PostUserTemplatesBodyParamsItem.from_dict(
                    params_item_data
                )

                params.append(params_item)

        post_user_templates_body = cls(
            name=name,
            request=request,
            description=description,
            params=params,
        )

        return post_user_templates_body
