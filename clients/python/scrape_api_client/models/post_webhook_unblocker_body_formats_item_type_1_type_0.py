from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0_css import (
        PostWebhookUnblockerBodyFormatsItemType1Type0Css,
    )
    from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0_schema import (
        PostWebhookUnblockerBodyFormatsItemType1Type0Schema,
    )


T = TypeVar("T", bound="PostWebhookUnblockerBodyFormatsItemType1Type0")


@_attrs_define
class PostWebhookUnblockerBodyFormatsItemType1Type0:
    """
    Attributes:
        type_ (Literal['json']):
        css (PostWebhookUnblockerBodyFormatsItemType1Type0Css | Unset):
        schema (PostWebhookUnblockerBodyFormatsItemType1Type0Schema | Unset):
        prompt (str | Unset):
    """

    type_: Literal["json"]
    css: PostWebhookUnblockerBodyFormatsItemType1Type0Css | Unset = UNSET
    schema: PostWebhookUnblockerBodyFormatsItemType1Type0Schema | Unset = UNSET
    prompt: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        css: dict[str, Any] | Unset = UNSET
        if not isinstance(self.css, Unset):
            css = self.css.to_dict()

        schema: dict[str, Any] | Unset = UNSET
        if not isinstance(self.schema, Unset):
            schema = self.schema.to_dict()

        prompt = self.prompt

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if css is not UNSET:
            field_dict["css"] = css
        if schema is not UNSET:
            field_dict["schema"] = schema
        if prompt is not UNSET:
            field_dict["prompt"] = prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0_css import (
            PostWebhookUnblockerBodyFormatsItemType1Type0Css,
        )
        from ..models.post_webhook_unblocker_body_formats_item_type_1_type_0_schema import (
            PostWebhookUnblockerBodyFormatsItemType1Type0Schema,
        )

        d = dict(src_dict)
        type_ = cast(Literal["json"], d.pop("type"))
        if type_ != "json":
            raise ValueError(f"type must match const 'json', got '{type_}'")

        _css = d.pop("css", UNSET)
        css: PostWebhookUnblockerBodyFormatsItemType1Type0Css | Unset
        if isinstance(_css, Unset):
            css = UNSET
        else:
            css = PostWebhookUnblockerBodyFormatsItemType1Type0Css.from_dict(_css)

        _schema = d.pop("schema", UNSET)
        schema: PostWebhookUnblockerBodyFormatsItemType1Type0Schema | Unset
        if isinstance(_schema, Unset):
            schema = UNSET
        else:
            schema = PostWebhookUnblockerBodyFormatsItemType1Type0Schema.from_dict(
                _schema
            )

        prompt = d.pop("prompt", UNSET)

        post_webhook_unblocker_body_formats_item_type_1_type_0 = cls(
            type_=type_,
            css=css,
            schema=schema,
            prompt=prompt,
        )

        return post_webhook_unblocker_body_formats_item_type_1_type_0
