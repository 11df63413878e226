from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_document_actions import FirecrawlDocumentActions
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
        json (Any | Unset): The json format: the model's answer, valid against the schema
        extract (Any | Unset): v1's extract format: as json
        summary (str | Unset):
        actions (FirecrawlDocumentActions | Unset): With `actions`: what they produced
    """

    metadata: FirecrawlMetadata
    markdown: str | Unset = UNSET
    html: str | Unset = UNSET
    raw_html: str | Unset = UNSET
    links: list[str] | Unset = UNSET
    screenshot: str | Unset = UNSET
    json: Any | Unset = UNSET
    extract: Any | Unset = UNSET
    summary: str | Unset = UNSET
    actions: FirecrawlDocumentActions | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        metadata = self.metadata.to_dict()

        markdown = self.markdown

        html = self.html

        raw_html = self.raw_html

        links: list[str] | Unset = UNSET
        if not isinstance(self.links, Unset):
            links = self.links

        screenshot = self.screenshot

        json = self.json

        extract = self.extract

        summary = self.summary

        actions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = self.actions.to_dict()

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
        if json is not UNSET:
            field_dict["json"] = json
        if extract is not UNSET:
            field_dict["extract"] = extract
        if summary is not UNSET:
            field_dict["summary"] = summary
        if actions is not UNSET:
            field_dict["actions"] = actions

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_document_actions import FirecrawlDocumentActions
        from ..models.firecrawl_metadata import FirecrawlMetadata

        d = dict(src_dict)
        metadata = FirecrawlMetadata.from_dict(d.pop("metadata"))

        markdown = d.pop("markdown", UNSET)

        html = d.pop("html", UNSET)

        raw_html = d.pop("rawHtml", UNSET)

        links = cast(list[str], d.pop("links", UNSET))

        screenshot = d.pop("screenshot", UNSET)

        json = d.pop("json", UNSET)

        extract = d.pop("extract", UNSET)

        summary = d.pop("summary", UNSET)

        _actions = d.pop("actions", UNSET)
        actions: FirecrawlDocumentActions | Unset
        if isinstance(_actions, Unset):
            actions = UNSET
        else:
            actions = FirecrawlDocumentActions.from_dict(_actions)

        firecrawl_document = cls(
            metadata=metadata,
            markdown=markdown,
            html=html,
            raw_html=raw_html,
            links=links,
            screenshot=screenshot,
            json=json,
            extract=extract,
            summary=summary,
            actions=actions,
        )

        return firecrawl_document
