from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_v2_crawl_active_response_200_crawls_item_options_type_0 import (
        GetV2CrawlActiveResponse200CrawlsItemOptionsType0,
    )


T = TypeVar("T", bound="GetV2CrawlActiveResponse200CrawlsItem")


@_attrs_define
class GetV2CrawlActiveResponse200CrawlsItem:
    """
    Attributes:
        id (str):
        team_id (str):
        url (str):
        options (GetV2CrawlActiveResponse200CrawlsItemOptionsType0 | None):
    """

    id: str
    team_id: str
    url: str
    options: GetV2CrawlActiveResponse200CrawlsItemOptionsType0 | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.get_v2_crawl_active_response_200_crawls_item_options_type_0 import (
            GetV2CrawlActiveResponse200CrawlsItemOptionsType0,
        )

        id = self.id

        team_id = self.team_id

        url = self.url

        options: dict[str, Any] | None
        if isinstance(self.options, GetV2CrawlActiveResponse200CrawlsItemOptionsType0):
            options = self.options.to_dict()
        else:
            options = self.options

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "teamId": team_id,
                "url": url,
                "options": options,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_v2_crawl_active_response_200_crawls_item_options_type_0 import (
            GetV2CrawlActiveResponse200CrawlsItemOptionsType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        team_id = d.pop("teamId")

        url = d.pop("url")

        def _parse_options(
            data: object,
        ) -> GetV2CrawlActiveResponse200CrawlsItemOptionsType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                options_type_0 = (
                    GetV2CrawlActiveResponse200CrawlsItemOptionsType0.from_dict(data)
                )

                return options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GetV2CrawlActiveResponse200CrawlsItemOptionsType0 | None, data)

        options = _parse_options(d.pop("options"))

        get_v2_crawl_active_response_200_crawls_item = cls(
            id=id,
            team_id=team_id,
            url=url,
            options=options,
        )

        return get_v2_crawl_active_response_200_crawls_item
