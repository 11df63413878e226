from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostWebhookUnblockerBodyOptions")


@_attrs_define
class PostWebhookUnblockerBodyOptions:
    """
    Attributes:
        retry_count (int | Unset):  Default: 2.
        timeout_ms (int | Unset):
    """

    retry_count: int | Unset = 2
    timeout_ms: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        retry_count = self.retry_count

        timeout_ms = self.timeout_ms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if retry_count is not UNSET:
            field_dict["retry_count"] = retry_count
        if timeout_ms is not UNSET:
            field_dict["timeout_ms"] = timeout_ms

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        retry_count = d.pop("retry_count", UNSET)

        timeout_ms = d.pop("timeout_ms", UNSET)

        post_webhook_unblocker_body_options = cls(
            retry_count=retry_count,
            timeout_ms=timeout_ms,
        )

        return post_webhook_unblocker_body_options
