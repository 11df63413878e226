from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScrapeResultMetadata")


@_attrs_define
class ScrapeResultMetadata:
    """
    Attributes:
        title (None | str):
        description (None | str):
        language (None | str):
        canonical (None | str):
        favicon (None | str):
        published_time (None | str):
        status (int):
        content_type (None | str):
        final_url (str):
    """

    title: None | str
    description: None | str
    language: None | str
    canonical: None | str
    favicon: None | str
    published_time: None | str
    status: int
    content_type: None | str
    final_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        title: None | str
        title = self.title

        description: None | str
        description = self.description

        language: None | str
        language = self.language

        canonical: None | str
        canonical = self.canonical

        favicon: None | str
        favicon = self.favicon

        published_time: None | str
        published_time = self.published_time

        status = self.status

        content_type: None | str
        content_type = self.content_type

        final_url = self.final_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "title": title,
                "description": description,
                "language": language,
                "canonical": canonical,
                "favicon": favicon,
                "published_time": published_time,
                "status": status,
                "content_type": content_type,
                "final_url": final_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_language(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        language = _parse_language(d.pop("language"))

        def _parse_canonical(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        canonical = _parse_canonical(d.pop("canonical"))

        def _parse_favicon(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        favicon = _parse_favicon(d.pop("favicon"))

        def _parse_published_time(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        published_time = _parse_published_time(d.pop("published_time"))

        status = d.pop("status")

        def _parse_content_type(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        content_type = _parse_content_type(d.pop("content_type"))

        final_url = d.pop("final_url")

        scrape_result_metadata = cls(
            title=title,
            description=description,
            language=language,
            canonical=canonical,
            favicon=favicon,
            published_time=published_time,
            status=status,
            content_type=content_type,
            final_url=final_url,
        )

        scrape_result_metadata.additional_properties = d
        return scrape_result_metadata

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
