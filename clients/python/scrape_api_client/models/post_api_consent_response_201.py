from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.consent_record import ConsentRecord
    from ..models.post_api_consent_response_201_current import (
        PostApiConsentResponse201Current,
    )


T = TypeVar("T", bound="PostApiConsentResponse201")


@_attrs_define
class PostApiConsentResponse201:
    """
    Attributes:
        record (ConsentRecord):
        current (PostApiConsentResponse201Current):
    """

    record: ConsentRecord
    current: PostApiConsentResponse201Current

    def to_dict(self) -> dict[str, Any]:
        record = self.record.to_dict()

        current = self.current.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "record": record,
                "current": current,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.consent_record import ConsentRecord
        from ..models.post_api_consent_response_201_current import (
            PostApiConsentResponse201Current,
        )

        d = dict(src_dict)
        record = ConsentRecord.from_dict(d.pop("record"))

        current = PostApiConsentResponse201Current.from_dict(d.pop("current"))

        post_api_consent_response_201 = cls(
            record=record,
            current=current,
        )

        return post_api_consent_response_201
