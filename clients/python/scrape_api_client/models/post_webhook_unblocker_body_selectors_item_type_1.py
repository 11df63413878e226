from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostWebhookUnblockerBodySelectorsItemType1")


@_attrs_define
class PostWebhookUnblockerBodySelectorsItemType1:
    """
    Attributes:
        selector (str):
        name (str | Unset):
        attribute (str | Unset):
        all_ (bool | Unset):  Default: False.
    """

    selector: str
    name: str | Unset = UNSET
    attribute: str | Unset = UNSET
    all_: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        selector = self.selector

        name = self.name

        attribute = self.attribute

        all_ = self.all_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "selector": selector,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if attribute is not UNSET:
            field_dict["attribute"] = attribute
        if all_ is not UNSET:
            field_dict["all"] = all_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        selector = d.pop("selector")

        name = d.pop("name", UNSET)

        attribute = d.pop("attribute", UNSET)

        all_ = d.pop("all", UNSET)

        post_webhook_unblocker_body_selectors_item_type_1 = cls(
            selector=selector,
            name=name,
            attribute=attribute,
            all_=all_,
        )

        return post_webhook_unblocker_body_selectors_item_type_1
