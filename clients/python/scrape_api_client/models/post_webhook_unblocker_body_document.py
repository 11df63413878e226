from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostWebhookUnblockerBodyDocument")


@_attrs_define
class PostWebhookUnblockerBodyDocument:
    """
    Attributes:
        max_pages (int | Unset):
    """

    max_pages: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        max_pages = self.max_pages

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if max_pages is not UNSET:
            field_dict["max_pages"] = max_pages

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        max_pages = d.pop("max_pages", UNSET)

        post_webhook_unblocker_body_document = cls(
            max_pages=max_pages,
        )

        return post_webhook_unblocker_body_document
