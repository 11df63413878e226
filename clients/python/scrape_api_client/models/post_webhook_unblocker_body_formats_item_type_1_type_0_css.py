from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.schema_0 import Schema0


T = TypeVar("T", bound="PostWebhookUnblockerBodyFormatsItemType1Type0Css")


@_attrs_define
class PostWebhookUnblockerBodyFormatsItemType1Type0Css:
    """
    Attributes:
        fields (list[Schema0]):
        base_selector (str | Unset):
    """

    fields: list[Schema0]
    base_selector: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fields = []
        for fields_item_data in self.fields:
            fields_item = fields_item_data.to_dict()
            fields.append(fields_item)

        base_selector = self.base_selector

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fields": fields,
            }
        )
        if base_selector is not UNSET:
            field_dict["baseSelector"] = base_selector

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.schema_0 import Schema0

        d = dict(src_dict)
        fields = []
        _fields = d.pop("fields")
        for fields_item_data in _fields:
            fields_item = Schema0.from_dict(fields_item_data)

            fields.append(fields_item)

        base_selector = d.pop("baseSelector", UNSET)

        post_webhook_unblocker_body_formats_item_type_1_type_0_css = cls(
            fields=fields,
            base_selector=base_selector,
        )

        return post_webhook_unblocker_body_formats_item_type_1_type_0_css
