from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_user_templates_id_run_body_params import (
        PostUserTemplatesIdRunBodyParams,
    )


T = TypeVar("T", bound="PostUserTemplatesIdRunBody")


@_attrs_define
class PostUserTemplatesIdRunBody:
    """
    Attributes:
        params (PostUserTemplatesIdRunBodyParams | Unset):
    """

    params: PostUserTemplatesIdRunBodyParams | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        params: dict[str, Any] | Unset = UNSET
        if not isinstance(self.params, Unset):
            params = self.params.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if params is not UNSET:
            field_dict["params"] = params

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_user_templates_id_run_body_params import (
            PostUserTemplatesIdRunBodyParams,
        )

        d = dict(src_dict)
        _params = d.pop("params", UNSET)
        params: PostUserTemplatesIdRunBodyParams | Unset
        if isinstance(_params, Unset):
            params = UNSET
        else:
            params = PostUserTemplatesIdRunBodyParams.from_dict(_params)

        post_user_templates_id_run_body = cls(
            params=params,
        )

        return post_user_templates_id_run_body
