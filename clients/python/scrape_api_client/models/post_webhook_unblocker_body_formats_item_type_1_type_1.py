from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostWebhookUnblockerBodyFormatsItemType1Type1")


@_attrs_define
class PostWebhookUnblockerBodyFormatsItemType1Type1:
    """
    Attributes:
        type_ (Literal['summary']):
        prompt (str | Unset):
    """

    type_: Literal["summary"]
    prompt: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        prompt = self.prompt

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if prompt is not UNSET:
            field_dict["prompt"] = prompt

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["summary"], d.pop("type"))
        if type_ != "summary":
            raise ValueError(f"type must match const 'summary', got '{type_}'")

        prompt = d.pop("prompt", UNSET)

        post_webhook_unblocker_body_formats_item_type_1_type_1 = cls(
            type_=type_,
            prompt=prompt,
        )

        return post_webhook_unblocker_body_formats_item_type_1_type_1
