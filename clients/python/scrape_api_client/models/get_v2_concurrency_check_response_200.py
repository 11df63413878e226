from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetV2ConcurrencyCheckResponse200")


@_attrs_define
class GetV2ConcurrencyCheckResponse200:
    """
    Attributes:
        success (bool):
        concurrency (int):
        max_concurrency (int):
    """

    success: bool
    concurrency: int
    max_concurrency: int

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        concurrency = self.concurrency

        max_concurrency = self.max_concurrency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "concurrency": concurrency,
                "maxConcurrency": max_concurrency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        success = d.pop("success")

        concurrency = d.pop("concurrency")

        max_concurrency = d.pop("maxConcurrency")

        get_v2_concurrency_check_response_200 = cls(
            success=success,
            concurrency=concurrency,
            max_concurrency=max_concurrency,
        )

        return get_v2_concurrency_check_response_200
