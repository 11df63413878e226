from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PostV2CrawlResponse200")


@_attrs_define
class PostV2CrawlResponse200:
    """
    Attributes:
        success (bool):
        id (str):
        url (str):
        invalid_ur_ls (list[str] | Unset):
    """

    success: bool
    id: str
    url: str
    invalid_ur_ls: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        id = self.id

        url = self.url

        invalid_ur_ls: list[str] | Unset = UNSET
        if not isinstance(self.invalid_ur_ls, Unset):
            invalid_ur_ls = self.invalid_ur_ls

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "id": id,
                "url": url,
            }
        )
        if invalid_ur_ls is not UNSET:
            field_dict["invalidURLs"] = invalid_ur_ls

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        success = d.pop("success")

        id = d.pop("id")

        url = d.pop("url")

        invalid_ur_ls = cast(list[str], d.pop("invalidURLs", UNSET))

        post_v2_crawl_response_200 = cls(
            success=success,
            id=id,
            url=url,
            invalid_ur_ls=invalid_ur_ls,
        )

        return post_v2_crawl_response_200
