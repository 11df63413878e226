from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.user_template import UserTemplate


T = TypeVar("T", bound="GetUserTemplatesResponse200")


@_attrs_define
class GetUserTemplatesResponse200:
    """
    Attributes:
        templates (list[UserTemplate]):
    """

    templates: list[UserTemplate]

    def to_dict(self) -> dict[str, Any]:
        templates = []
        for templates_item_data in self.templates:
            templates_item = templates_item_data.to_dict()
            templates.append(templates_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "templates": templates,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.user_template import UserTemplate

        d = dict(src_dict)
        templates = []
        _templates = d.pop("templates")
        for templates_item_data in _templates:
            templates_item = UserTemplate.from_dict(templates_item_data)

            templates.append(templates_item)

        get_user_templates_response_200 = cls(
            templates=templates,
        )

        return get_user_templates_response_200
