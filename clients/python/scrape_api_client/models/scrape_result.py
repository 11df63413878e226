from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scrape_result_mode import ScrapeResultMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scrape_result_credits import ScrapeResultCredits
    from ..models.scrape_result_headers import ScrapeResultHeaders
    from ..models.scrape_result_links_item import ScrapeResultLinksItem
    from ..models.scrape_result_metadata import ScrapeResultMetadata
    from ..models.scrape_result_screenshot import ScrapeResultScreenshot
    from ..models.selector_result import SelectorResult


T = TypeVar("T", bound="ScrapeResult")


@_attrs_define
class ScrapeResult:
    """
    Attributes:
        id (str):
        url (str):
        final_url (str):
        status (int | None):
        mode (ScrapeResultMode):
        elapsed_ms (int | None):
        attempts (int):
        headers (ScrapeResultHeaders):
        credits_ (ScrapeResultCredits):
        data (list[SelectorResult] | Unset):
        html (str | Unset):
        raw_html (str | Unset):
        markdown (str | Unset):
        text (str | Unset):
        links (list[ScrapeResultLinksItem] | Unset):
        metadata (ScrapeResultMetadata | Unset):
        screenshot (ScrapeResultScreenshot | Unset):
        network (list[Any] | Unset):
    """

    id: str
    url: str
    final_url: str
    status: int | None
    mode: ScrapeResultMode
    elapsed_ms: int | None
    attempts: int
    headers: ScrapeResultHeaders
    credits_: ScrapeResultCredits
    data: list[SelectorResult] | Unset = UNSET
    html: str | Unset = UNSET
    raw_html: str | Unset = UNSET
    markdown: str | Unset = UNSET
    text: str | Unset = UNSET
    links: list[ScrapeResultLinksItem] | Unset = UNSET
    metadata: ScrapeResultMetadata | Unset = UNSET
    screenshot: ScrapeResultScreenshot | Unset = UNSET
    network: list[Any] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        final_url = self.final_url

        status: int | None
        status = self.status

        mode = self.mode.value

        elapsed_ms: int | None
        elapsed_ms = self.elapsed_ms

        attempts = self.attempts

        headers = self.headers.to_dict()

        credits_ = self.credits_.to_dict()

        data: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.data, Unset):
            data = []
            for data_item_data in self.data:
                data_item = data_item_data.to_dict()
                data.append(data_item)

        html = self.html

        raw_html = self.raw_html

        markdown = self.markdown

        text = self.text

        links: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.links, Unset):
            links = []
            for links_item_data in self.links:
                links_item = links_item_data.to_dict()
                links.append(links_item)

        metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.metadata, Unset):
            metadata = self.metadata.to_dict()

        screenshot: dict[str, Any] | Unset = UNSET
        if not isinstance(self.screenshot, Unset):
            screenshot = self.screenshot.to_dict()

        network: list[Any] | Unset = UNSET
        if not isinstance(self.network, Unset):
            network = self.network

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "final_url": final_url,
                "status": status,
                "mode": mode,
                "elapsed_ms": elapsed_ms,
                "attempts": attempts,
                "headers": headers,
                "credits": credits_,
            }
        )
        if data is not UNSET:
            field_dict["data"] = data
        if html is not UNSET:
            field_dict["html"] = html
        if raw_html is not UNSET:
            field_dict["rawHtml"] = raw_html
        if markdown is not UNSET:
            field_dict["markdown"] = markdown
        if text is not UNSET:
            field_dict["text"] = text
        if links is not UNSET:
            field_dict["links"] = links
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if screenshot is not UNSET:
            field_dict["screenshot"] = screenshot
        if network is not UNSET:
            field_dict["network"] = network

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_result_credits import ScrapeResultCredits
        from ..models.scrape_result_headers import ScrapeResultHeaders
        from ..models.scrape_result_links_item import ScrapeResultLinksItem
        from ..models.scrape_result_metadata import ScrapeResultMetadata
        from ..models.scrape_result_screenshot import ScrapeResultScreenshot
        from ..models.selector_result import SelectorResult

        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        final_url = d.pop("final_url")

        def _parse_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status = _parse_status(d.pop("status"))

        mode = ScrapeResultMode(d.pop("mode"))

        def _parse_elapsed_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        elapsed_ms = _parse_elapsed_ms(d.pop("elapsed_ms"))

        attempts = d.pop("attempts")

        headers = ScrapeResultHeaders.from_dict(d.pop("headers"))

        credits_ = ScrapeResultCredits.from_dict(d.pop("credits"))

        _data = d.pop("data", UNSET)
        data: list[SelectorResult] | Unset = UNSET
        if _data is not UNSET:
            data = []
            for data_item_data in _data:
                data_item = SelectorResult.from_dict(data_item_data)

                data.append(data_item)

        html = d.pop("html", UNSET)

        raw_html = d.pop("rawHtml", UNSET)

        markdown = d.pop("markdown", UNSET)

        text = d.pop("text", UNSET)

        _links = d.pop("links", UNSET)
        links: list[ScrapeResultLinksItem] | Unset = UNSET
        if _links is not UNSET:
            links = []
            for links_item_data in _links:
                links_item = ScrapeResultLinksItem.from_dict(links_item_data)

                links.append(links_item)

        _metadata = d.pop("metadata", UNSET)
        metadata: ScrapeResultMetadata | Unset
        if isinstance(_metadata, Unset):
            metadata = UNSET
        else:
            metadata = ScrapeResultMetadata.from_dict(_metadata)

        _screenshot = d.pop("screenshot", UNSET)
        screenshot: ScrapeResultScreenshot | Unset
        if isinstance(_screenshot, Unset):
            screenshot = UNSET
        else:
            screenshot = ScrapeResultScreenshot.from_dict(_screenshot)

        network = cast(list[Any], d.pop("network", UNSET))

        scrape_result = cls(
            id=id,
            url=url,
            final_url=final_url,
            status=status,
            mode=mode,
            elapsed_ms=elapsed_ms,
            attempts=attempts,
            headers=headers,
            credits_=credits_,
            data=data,
            html=html,
            raw_html=raw_html,
            markdown=markdown,
            text=text,
            links=links,
            metadata=metadata,
            screenshot=screenshot,
            network=network,
        )

        scrape_result.additional_properties = d
        return scrape_result

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
