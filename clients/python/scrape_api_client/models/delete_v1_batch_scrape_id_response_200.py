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

T = TypeVar("T", bound="DeleteV1BatchScrapeIdResponse200")


@_attrs_define
class DeleteV1BatchScrapeIdResponse200:
    """
    Attributes:
        success (bool):
        status (Literal['cancelled']):
    """

    success: bool
    status: Literal["cancelled"]

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        success = d.pop("success")

        status = cast(Literal["cancelled"], d.pop("status"))
        if status != "cancelled":
            raise ValueError(f"status must match const 'cancelled', got '{status}'")

        delete_v1_batch_scrape_id_response_200 = cls(
            success=success,
            status=status,
        )

        return delete_v1_batch_scrape_id_response_200
