from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.get_v1_extract_id_response_200_status import (
    GetV1ExtractIdResponse200Status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.get_v1_extract_id_response_200_sources import (
        GetV1ExtractIdResponse200Sources,
    )


T = TypeVar("T", bound="GetV1ExtractIdResponse200")


@_attrs_define
class GetV1ExtractIdResponse200:
    """
    Attributes:
        success (bool):
        id (str):
        status (GetV1ExtractIdResponse200Status):
        expires_at (str):
        credits_used (int):
        tokens_used (int):
        data (Any | Unset):
        sources (GetV1ExtractIdResponse200Sources | Unset):
        error (str | Unset):
    """

    success: bool
    id: str
    status: GetV1ExtractIdResponse200Status
    expires_at: str
    credits_used: int
    tokens_used: int
    data: Any | Unset = UNSET
    sources: GetV1ExtractIdResponse200Sources | Unset = UNSET
    error: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        id = self.id

        status = self.status.value

        expires_at = self.expires_at

        credits_used = self.credits_used

        tokens_used = self.tokens_used

        data = self.data

        sources: dict[str, Any] | Unset = UNSET
        if not isinstance(self.sources, Unset):
            sources = self.sources.to_dict()

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "id": id,
                "status": status,
                "expiresAt": expires_at,
                "creditsUsed": credits_used,
                "tokensUsed": tokens_used,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data
        if sources is not UNSET:
            field_dict["sources"] = sources
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_v1_extract_id_response_200_sources import (
            GetV1ExtractIdResponse200Sources,
        )

        d = dict(src_dict)
        success = d.pop("success")

        id = d.pop("id")

        status = GetV1ExtractIdResponse200Status(d.pop("status"))

        expires_at = d.pop("expiresAt")

        credits_used = d.pop("creditsUsed")

        tokens_used = d.pop("tokensUsed")

        data = d.pop("data", UNSET)

        _sources = d.pop("sources", UNSET)
        sources: GetV1ExtractIdResponse200Sources | Unset
        if isinstance(_sources, Unset):
            sources = UNSET
        else:
            sources = GetV1ExtractIdResponse200Sources.from_dict(_sources)

        error = d.pop("error", UNSET)

        get_v1_extract_id_response_200 = cls(
            success=success,
            id=id,
            status=status,
            expires_at=expires_at,
            credits_used=credits_used,
            tokens_used=tokens_used,
            data=data,
            sources=sources,
            error=error,
        )

        return get_v1_extract_id_response_200
