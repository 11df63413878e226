from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_webhook_unblocker_body_fill_form_fields import (
        PostWebhookUnblockerBodyFillFormFields,
    )


T = TypeVar("T", bound="PostWebhookUnblockerBodyFillForm")


@_attrs_define
class PostWebhookUnblockerBodyFillForm:
    """
    Attributes:
        fields (PostWebhookUnblockerBodyFillFormFields):
        selector (str | Unset):
        submit (str | Unset):
    """

    fields: PostWebhookUnblockerBodyFillFormFields
    selector: str | Unset = UNSET
    submit: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        fields = self.fields.to_dict()

        selector = self.selector

        submit = self.submit

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "fields": fields,
            }
        )
        if selector is not UNSET:
            field_dict["selector"] = selector
        if submit is not UNSET:
            field_dict["submit"] = submit

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_webhook_unblocker_body_fill_form_fields import (
            PostWebhookUnblockerBodyFillFormFields,
        )

        d = dict(src_dict)
        fields = PostWebhookUnblockerBodyFillFormFields.from_dict(d.pop("fields"))

        selector = d.pop("selector", UNSET)

        submit = d.pop("submit", UNSET)

        post_webhook_unblocker_body_fill_form = cls(
            fields=fields,
            selector=selector,
            submit=submit,
        )

        return post_webhook_unblocker_body_fill_form
