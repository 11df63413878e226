from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_update_monitor_request_targets_type_0_item_type import (
    FirecrawlUpdateMonitorRequestTargetsType0ItemType,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0 import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0,
    )


T = TypeVar("T", bound="FirecrawlUpdateMonitorRequestTargetsType0Item")


@_attrs_define
class FirecrawlUpdateMonitorRequestTargetsType0Item:
    """
    Attributes:
        type_ (FirecrawlUpdateMonitorRequestTargetsType0ItemType):
        id (None | str | Unset):
        urls (list[str] | None | Unset):
        url (None | str | Unset):
        scrape_options (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0 | None | Unset):
    """

    type_: FirecrawlUpdateMonitorRequestTargetsType0ItemType
    id: None | str | Unset = UNSET
    urls: list[str] | None | Unset = UNSET
    url: None | str | Unset = UNSET
    scrape_options: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0 | None | Unset
    ) = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0 import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0,
        )

        type_ = self.type_.value

        id: None | str | Unset
        if isinstance(self.id, Unset):
            id = UNSET
        else:
            id = self.id

        urls: list[str] | None | Unset
        if isinstance(self.urls, Unset):
            urls = UNSET
        elif isinstance(self.urls, list):
            urls = self.urls

        else:
            urls = self.urls

        url: None | str | Unset
        if isinstance(self.url, Unset):
            url = UNSET
        else:
            url = self.url

        scrape_options: dict[str, Any] | None | Unset
        if isinstance(self.scrape_options, Unset):
            scrape_options = UNSET
        elif isinstance(
            self.scrape_options,
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0,
        ):
            scrape_options = self.scrape_options.to_dict()
        else:
            scrape_options = self.scrape_options

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
            }
        )
        if id is not UNSET:
            field_dict["id"] = id
        if urls is not UNSET:
            field_dict["urls"] = urls
        if url is not UNSET:
            field_dict["url"] = url
        if scrape_options is not UNSET:
            field_dict["scrapeOptions"] = scrape_options

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0 import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0,
        )

        d = dict(src_dict)
        type_ = FirecrawlUpdateMonitorRequestTargetsType0ItemType(d.pop("type"))

        def _parse_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        id = _parse_id(d.pop("id", UNSET))

        def _parse_urls(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                urls_type_0 = cast(list[str], data)

                return urls_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        urls = _parse_urls(d.pop("urls", UNSET))

        def _parse_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        url = _parse_url(d.pop("url", UNSET))

        def _parse_scrape_options(
            data: object,
        ) -> (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                scrape_options_type_0 = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0.from_dict(
                    data
                )

                return scrape_options_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0
                | None
                | Unset,
                data,
            )

        scrape_options = _parse_scrape_options(d.pop("scrapeOptions", UNSET))

        firecrawl_update_monitor_request_targets_type_0_item = cls(
            type_=type_,
            id=id,
            urls=urls,
            url=url,
            scrape_options=scrape_options,
        )

        firecrawl_update_monitor_request_targets_type_0_item.additional_properties = d
        return firecrawl_update_monitor_request_targets_type_0_item

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
