from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_v1_crawl_id_errors_response_200_errors_item import (
        GetV1CrawlIdErrorsResponse200ErrorsItem,
    )


T = TypeVar("T", bound="GetV1CrawlIdErrorsResponse200")


@_attrs_define
class GetV1CrawlIdErrorsResponse200:
    """
    Attributes:
        errors (list[GetV1CrawlIdErrorsResponse200ErrorsItem]):
        robots_blocked (list[str]):
    """

    errors: list[GetV1CrawlIdErrorsResponse200ErrorsItem]
    robots_blocked: list[str]

    def to_dict(self) -> dict[str, Any]:
        errors = []
        for errors_item_data in self.errors:
            errors_item = errors_item_data.to_dict()
            errors.append(errors_item)

        robots_blocked = self.robots_blocked

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "errors": errors,
                "robotsBlocked": robots_blocked,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_v1_crawl_id_errors_response_200_errors_item import (
            GetV1CrawlIdErrorsResponse200ErrorsItem,
        )

        d = dict(src_dict)
        errors = []
        _errors = d.pop("errors")
        for errors_item_data in _errors:
            errors_item = GetV1CrawlIdErrorsResponse200ErrorsItem.from_dict(
                errors_item_data
            )

            errors.append(errors_item)

        robots_blocked = cast(list[str], d.pop("robotsBlocked"))

        get_v1_crawl_id_errors_response_200 = cls(
            errors=errors,
            robots_blocked=robots_blocked,
        )

        return get_v1_crawl_id_errors_response_200
