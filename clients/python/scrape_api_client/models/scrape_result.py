from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scrape_result_mode import ScrapeResultMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scrape_result_actions import ScrapeResultActions
    from ..models.scrape_result_cache import ScrapeResultCache
    from ..models.scrape_result_change_tracking import ScrapeResultChangeTracking
    from ..models.scrape_result_credits import ScrapeResultCredits
    from ..models.scrape_result_escalation_item import ScrapeResultEscalationItem
    from ..models.scrape_result_headers import ScrapeResultHeaders
    from ..models.scrape_result_links_item import ScrapeResultLinksItem
    from ..models.scrape_result_llm_usage import ScrapeResultLlmUsage
    from ..models.scrape_result_metadata import ScrapeResultMetadata
    from ..models.scrape_result_screenshot import ScrapeResultScreenshot
    from ..models.scrape_result_served_by import ScrapeResultServedBy
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
        json (Any | Unset):
        summary (str | Unset):
        llm_usage (ScrapeResultLlmUsage | Unset):
        change_tracking (ScrapeResultChangeTracking | Unset):
        actions (ScrapeResultActions | Unset):
        cache (ScrapeResultCache | Unset): The results cache (docs/scraping.md "Results cache"): `hit` (cost 0), or
            `miss` when the request allowed a cached answer (`max_age` > 0) and the page was fetched
        served_by (ScrapeResultServedBy | Unset): `auto` mode: the engine and proxy tier (`direct` without one) that
            served the page (docs/scraping.md "Escalation")
        escalation (list[ScrapeResultEscalationItem] | Unset): `auto` mode: every attempt with its engine, proxy tier
            and outcome, and why the run moved on
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
    json: Any | Unset = UNSET
    summary: str | Unset = UNSET
    llm_usage: ScrapeResultLlmUsage | Unset = UNSET
    change_tracking: ScrapeResultChangeTracking | Unset = UNSET
    actions: ScrapeResultActions | Unset = UNSET
    cache: ScrapeResultCache | Unset = UNSET
    served_by: ScrapeResultServedBy | Unset = UNSET
    escalation: list[ScrapeResultEscalationItem] | Unset = UNSET
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

        json = self.json

        summary = self.summary

        llm_usage: dict[str, Any] | Unset = UNSET
        if not isinstance(self.llm_usage, Unset):
            llm_usage = self.llm_usage.to_dict()

        change_tracking: dict[str, Any] | Unset = UNSET
        if not isinstance(self.change_tracking, Unset):
            change_tracking = self.change_tracking.to_dict()

        actions: dict[str, Any] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = self.actions.to_dict()

        cache: dict[str, Any] | Unset = UNSET
        if not isinstance(self.cache, Unset):
            cache = self.cache.to_dict()

        served_by: dict[str, Any] | Unset = UNSET
        if not isinstance(self.served_by, Unset):
            served_by = self.served_by.to_dict()

        escalation: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.escalation, Unset):
            escalation = []
            for escalation_item_data in self.escalation:
                escalation_item = escalation_item_data.to_dict()
                escalation.append(escalation_item)

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
        if json is not UNSET:
            field_dict["json"] = json
        if summary is not UNSET:
            field_dict["summary"] = summary
        if llm_usage is not UNSET:
            field_dict["llm_usage"] = llm_usage
        if change_tracking is not UNSET:
            field_dict["changeTracking"] = change_tracking
        if actions is not UNSET:
            field_dict["actions"] = actions
        if cache is not UNSET:
            field_dict["cache"] = cache
        if served_by is not UNSET:
            field_dict["served_by"] = served_by
        if escalation is not UNSET:
            field_dict["escalation"] = escalation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_result_actions import ScrapeResultActions
        from ..models.scrape_result_cache import ScrapeResultCache
        from ..models.scrape_result_change_tracking import ScrapeResultChangeTracking
        from ..models.scrape_result_credits import ScrapeResultCredits
        from ..models.scrape_result_escalation_item import ScrapeResultEscalationItem
        from ..models.scrape_result_headers import ScrapeResultHeaders
        from ..models.scrape_result_links_item import ScrapeResultLinksItem
        from ..models.scrape_result_llm_usage import ScrapeResultLlmUsage
        from ..models.scrape_result_metadata import ScrapeResultMetadata
        from ..models.scrape_result_screenshot import ScrapeResultScreenshot
        from ..models.scrape_result_served_by import ScrapeResultServedBy
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

        json = d.pop("json", UNSET)

        summary = d.pop("summary", UNSET)

        _llm_usage = d.pop("llm_usage", UNSET)
        llm_usage: ScrapeResultLlmUsage | Unset
        if isinstance(_llm_usage, Unset):
            llm_usage = UNSET
        else:
            llm_usage = ScrapeResultLlmUsage.from_dict(_llm_usage)

        _change_tracking = d.pop("changeTracking", UNSET)
        change_tracking: ScrapeResultChangeTracking | Unset
        if isinstance(_change_tracking, Unset):
            change_tracking = UNSET
        else:
            change_tracking = ScrapeResultChangeTracking.from_dict(_change_tracking)

        _actions = d.pop("actions", UNSET)
        actions: ScrapeResultActions | Unset
        if isinstance(_actions, Unset):
            actions = UNSET
        else:
            actions = ScrapeResultActions.from_dict(_actions)

        _cache = d.pop("cache", UNSET)
        cache: ScrapeResultCache | Unset
        if isinstance(_cache, Unset):
            cache = UNSET
        else:
            cache = ScrapeResultCache.from_dict(_cache)

        _served_by = d.pop("served_by", UNSET)
        served_by: ScrapeResultServedBy | Unset
        if isinstance(_served_by, Unset):
            served_by = UNSET
        else:
            served_by = ScrapeResultServedBy.from_dict(_served_by)

        _escalation = d.pop("escalation", UNSET)
        escalation: list[ScrapeResultEscalationItem] | Unset = UNSET
        if _escalation is not UNSET:
            escalation = []
            for escalation_item_data in _escalation:
                escalation_item = ScrapeResultEscalationItem.from_dict(
                    escalation_item_data
                )

                escalation.append(escalation_item)

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
            json=json,
            summary=summary,
            llm_usage=llm_usage,
            change_tracking=change_tracking,
            actions=actions,
            cache=cache,
            served_by=served_by,
            escalation=escalation,
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
