from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetPricingResponse200Documents")


@_attrs_define
class GetPricingResponse200Documents:
    """
    Attributes:
        per_document (int):
        per_page (int):
        rule (str):
        upload (int):
        upload_rule (str):
    """

    per_document: int
    per_page: int
    rule: str
    upload: int
    upload_rule: str

    def to_dict(self) -> dict[str, Any]:
        per_document = self.per_document

        per_page = self.per_page

        rule = self.rule

        upload = self.upload

        upload_rule = self.upload_rule

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "per_document": per_document,
                "per_page": per_page,
                "rule": rule,
                "upload": upload,
                "upload_rule": upload_rule,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        per_document = d.pop("per_document")

        per_page = d.pop("per_page")

        rule = d.pop("rule")

        upload = d.pop("upload")

        upload_rule = d.pop("upload_rule")

        get_pricing_response_200_documents = cls(
            per_document=per_document,
            per_page=per_page,
            rule=rule,
            upload=upload,
            upload_rule=upload_rule,
        )

        return get_pricing_response_200_documents
