from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.search_result_images_item_scrape import SearchResultImagesItemScrape


T = TypeVar("T", bound="SearchResultImagesItem")


@_attrs_define
class SearchResultImagesItem:
    """
    Attributes:
        url (str):
        position (int):
        title (str | Unset):
        description (str | Unset):
        published_date (str | Unset):
        image_url (str | Unset):
        image_width (int | Unset):
        image_height (int | Unset):
        scrape (SearchResultImagesItemScrape | Unset): With `scrape`: the result's page run (GET
            /webhook/runs/{run_id}), its result when it succeeded
    """

    url: str
    position: int
    title: str | Unset = UNSET
    description: str | Unset = UNSET
    published_date: str | Unset = UNSET
    image_url: str | Unset = UNSET
    image_width: int | Unset = UNSET
    image_height: int | Unset = UNSET
    scrape: SearchResultImagesItemScrape | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        position = self.position

        title = self.title

        description = self.description

        published_date = self.published_date

        image_url = self.image_url

        image_width = self.image_width

        image_height = self.image_height

        scrape: dict[str, Any] | Unset = UNSET
        if not isinstance(self.scrape, Unset):
            scrape = self.scrape.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "position": position,
            }
        )
        if title is not UNSET:
            field_dict["title"] = title
        if description is not UNSET:
            field_dict["description"] = description
        if published_date is not UNSET:
            field_dict["published_date"] = published_date
        if image_url is not UNSET:
            field_dict["image_url"] = image_url
        if image_width is not UNSET:
            field_dict["image_width"] = image_width
        if image_height is not UNSET:
            field_dict["image_height"] = image_height
        if scrape is not UNSET:
            field_dict["scrape"] = scrape

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_result_images_item_scrape import (
            SearchResultImagesItemScrape,
        )

        d = dict(src_dict)
        url = d.pop("url")

        position = d.pop("position")

        title = d.pop("title", UNSET)

        description = d.pop("description", UNSET)

        published_date = d.pop("published_date", UNSET)

        image_url = d.pop("image_url", UNSET)

        image_width = d.pop("image_width", UNSET)

        image_height = d.pop("image_height", UNSET)

        _scrape = d.pop("scrape", UNSET)
        scrape: SearchResultImagesItemScrape | Unset
        if isinstance(_scrape, Unset):
            scrape = UNSET
        else:
            scrape = SearchResultImagesItemScrape.from_dict(_scrape)

        search_result_images_item = cls(
            url=url,
            position=position,
            title=title,
            description=description,
            published_date=published_date,
            image_url=image_url,
            image_width=image_width,
            image_height=image_height,
            scrape=scrape,
        )

        search_result_images_item.additional_properties = d
        return search_result_images_item

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
