from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_v1_crawl_id_response_200_status import GetV1CrawlIdResponse200Status
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_document import FirecrawlDocument


T = TypeVar("T", bound="GetV1CrawlIdResponse200")


@_attrs_define
class GetV1CrawlIdResponse200:
    """
    Attributes:
        success (bool):
        status (GetV1CrawlIdResponse200Status):
        completed (int):
        total (int):
        credits_used (int):
        expires_at (str):
        data (list[FirecrawlDocument]):
        next_ (str | Unset):
    """

    success: bool
    status: GetV1CrawlIdResponse200Status
    completed: int
    total: int
    credits_used: int
    expires_at: str
    data: list[FirecrawlDocument]
    next_: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        status = self.status.value

        completed = self.completed

        total = self.total

        credits_used = self.credits_used

        expires_at = self.expires_at

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        next_ = self.next_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "status": status,
                "completed": completed,
                "total": total,
                "creditsUsed": credits_used,
                "expiresAt": expires_at,
                "data": data,
            }
        )
        if next_ is not UNSET:
            field_dict["next"] = next_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_document import FirecrawlDocument

        d = dict(src_dict)
        success = d.pop("success")

        status = GetV1CrawlIdResponse200Status(d.pop("status"))

        completed = d.pop("completed")

        total = d.pop("total")

        credits_used = d.pop("creditsUsed")

        expires_at = d.pop("expiresAt")

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = FirecrawlDocument.from_dict(data_item_data)

            data.append(data_item)

        next_ = d.pop("next", UNSET)

        get_v1_crawl_id_response_200 = cls(
            success=success,
            status=status,
            completed=completed,
            total=total,
            credits_used=credits_used,
            expires_at=expires_at,
            data=data,
            next_=next_,
        )

        return get_v1_crawl_id_response_200
