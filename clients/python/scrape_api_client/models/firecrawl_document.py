from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_metadata import FirecrawlMetadata


T = TypeVar("T", bound="FirecrawlDocument")


@_attrs_define
class FirecrawlDocument:
    """
    Attributes:
        metadata (FirecrawlMetadata): Plus every og:* and twitter:* meta tag under its own name (and og ones camel-
            cased: ogTitle)
        markdown (str | Unset):
        html (str | Unset):
        raw_html (str | Unset):
        links (list[str] | Unset):
        screenshot (str | Unset): data:image/png;base64,…
    """

    metadata: FirecrawlMetadata
    markdown: str | Unset = UNSET
    html: str | Unset = UNSET
    raw_html: str | Unset = UNSET
    links: list[str] | Unset = UNSET
    screenshot: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        metadata = self.metadata.to_dict()

        markdown = self.markdown

        html = self.html

        raw_html = self.raw_html

        links: list[str] | Unset = UNSET
        if not isinstance(self.links, Unset):
            links = self.links

        screenshot = self.screenshot

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "metadata": metadata,
            }
        )
        if markdown is not UNSET:
            field_dict["markdown"] = markdown
        if html is not UNSET:
            field_dict["html"] = html
        if raw_html is not UNSET:
            field_dict["rawHtml"] = raw_html
        if links is not UNSET:
            field_dict["links"] = links
        if screenshot is not UNSET:
            field_dict["screenshot"] = screenshot

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_metadata import FirecrawlMetadata

        d = dict(src_dict)
        metadata = FirecrawlMetadata.from_dict(d.pop("metadata"))

        markdown = d.pop("markdown", UNSET)

        html = d.pop("html", UNSET)

        raw_html = d.pop("rawHtml", UNSET)

        links = cast(list[str], d.pop("links", UNSET))

        screenshot = d.pop("screenshot", UNSET)

        firecrawl_document = cls(
            metadata=metadata,
            markdown=markdown,
            html=html,
            raw_html=raw_html,
            links=links,
            screenshot=screenshot,
        )

        return firecrawl_document
