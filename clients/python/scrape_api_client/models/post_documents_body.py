from __future__ import annotations

from collections.abc import Mapping
from io import BytesIO
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import UNSET, File, Unset

T = TypeVar("T", bound="PostDocumentsBody")


@_attrs_define
class PostDocumentsBody:
    """
    Attributes:
        file (File): The PDF or DOCX, at most 10485760 bytes
        formats (str | Unset): Comma-separated, of markdown, text, metadata (default all)
        max_pages (str | Unset): Pages of a PDF read at most (default 100, at most 2000)
    """

    file: File
    formats: str | Unset = UNSET
    max_pages: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        file = self.file.to_tuple()

        formats = self.formats

        max_pages = self.max_pages

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "file": file,
            }
        )
        if formats is not UNSET:
            field_dict["formats"] = formats
        if max_pages is not UNSET:
            field_dict["max_pages"] = max_pages

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("file", self.file.to_tuple()))

        if not isinstance(self.formats, Unset):
            files.append(("formats", (None, str(self.formats).encode(), "text/plain")))

        if not isinstance(self.max_pages, Unset):
            files.append(
                ("max_pages", (None, str(self.max_pages).encode(), "text/plain"))
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        file = File(payload=BytesIO(d.pop("file")))

        formats = d.pop("formats", UNSET)

        max_pages = d.pop("max_pages", UNSET)

        post_documents_body = cls(
            file=file,
            formats=formats,
            max_pages=max_pages,
        )

        post_documents_body.additional_properties = d
        return post_documents_body

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
