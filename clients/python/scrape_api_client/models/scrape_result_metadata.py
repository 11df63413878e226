from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scrape_result_metadata_document_type import (
    ScrapeResultMetadataDocumentType,
)
from ..types import UNSET, Unset

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
        document_type (ScrapeResultMetadataDocumentType | Unset):
        author (None | str | Unset):
        creation_date (None | str | Unset):
        modification_date (None | str | Unset):
        producer (None | str | Unset):
        page_count (int | None | Unset):
        pages_read (int | None | Unset):
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
    document_type: ScrapeResultMetadataDocumentType | Unset = UNSET
    author: None | str | Unset = UNSET
    creation_date: None | str | Unset = UNSET
    modification_date: None | str | Unset = UNSET
    producer: None | str | Unset = UNSET
    page_count: int | None | Unset = UNSET
    pages_read: int | None | Unset = UNSET
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

        document_type: str | Unset = UNSET
        if not isinstance(self.document_type, Unset):
            document_type = self.document_type.value

        author: None | str | Unset
        if isinstance(self.author, Unset):
            author = UNSET
        else:
            author = self.author

        creation_date: None | str | Unset
        if isinstance(self.creation_date, Unset):
            creation_date = UNSET
        else:
            creation_date = self.creation_date

        modification_date: None | str | Unset
        if isinstance(self.modification_date, Unset):
            modification_date = UNSET
        else:
            modification_date = self.modification_date

        producer: None | str | Unset
        if isinstance(self.producer, Unset):
            producer = UNSET
        else:
            producer = self.producer

        page_count: int | None | Unset
        if isinstance(self.page_count, Unset):
            page_count = UNSET
        else:
            page_count = self.page_count

        pages_read: int | None | Unset
        if isinstance(self.pages_read, Unset):
            pages_read = UNSET
        else:
            pages_read = self.pages_read

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
        if document_type is not UNSET:
            field_dict["document_type"] = document_type
        if author is not UNSET:
            field_dict["author"] = author
        if creation_date is not UNSET:
            field_dict["creation_date"] = creation_date
        if modification_date is not UNSET:
            field_dict["modification_date"] = modification_date
        if producer is not UNSET:
            field_dict["producer"] = producer
        if page_count is not UNSET:
            field_dict["page_count"] = page_count
        if pages_read is not UNSET:
            field_dict["pages_read"] = pages_read

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

        _document_type = d.pop("document_type", UNSET)
        document_type: ScrapeResultMetadataDocumentType | Unset
        if isinstance(_document_type, Unset):
            document_type = UNSET
        else:
            document_type = ScrapeResultMetadataDocumentType(_document_type)

        def _parse_author(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        author = _parse_author(d.pop("author", UNSET))

        def _parse_creation_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        creation_date = _parse_creation_date(d.pop("creation_date", UNSET))

        def _parse_modification_date(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        modification_date = _parse_modification_date(d.pop("modification_date", UNSET))

        def _parse_producer(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        producer = _parse_producer(d.pop("producer", UNSET))

        def _parse_page_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        page_count = _parse_page_count(d.pop("page_count", UNSET))

        def _parse_pages_read(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        pages_read = _parse_pages_read(d.pop("pages_read", UNSET))

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
            document_type=document_type,
            author=author,
            creation_date=creation_date,
            modification_date=modification_date,
            producer=producer,
            page_count=page_count,
            pages_read=pages_read,
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
