from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DeleteV1CrawlIdErrorsResponse200ErrorsItem")


@_attrs_define
class DeleteV1CrawlIdErrorsResponse200ErrorsItem:
    """
    Attributes:
        id (str):
        url (str):
        error (str):
        timestamp (str | Unset):
        code (str | Unset):
    """

    id: str
    url: str
    error: str
    timestamp: str | Unset = UNSET
    code: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        error = self.error

        timestamp = self.timestamp

        code = self.code

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "error": error,
            }
        )
        if timestamp is not UNSET:
            field_dict["timestamp"] = timestamp
        if code is not UNSET:
            field_dict["code"] = code

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        error = d.pop("error")

        timestamp = d.pop("timestamp", UNSET)

        code = d.pop("code", UNSET)

        delete_v1_crawl_id_errors_response_200_errors_item = cls(
            id=id,
            url=url,
            error=error,
            timestamp=timestamp,
            code=code,
        )

        return delete_v1_crawl_id_errors_response_200_errors_item
