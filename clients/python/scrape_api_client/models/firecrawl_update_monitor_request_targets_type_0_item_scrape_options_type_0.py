from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_mode import (
    FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Mode,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_extract_options import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ExtractOptions,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_formats_item_type_1 import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_headers import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Headers,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_json_options import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0JsonOptions,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_location import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_parsers_item_type_1 import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1,
    )
    from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_session import (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session,
    )


T = TypeVar(
    "T", bound="FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0"
)


@_attrs_define
class FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0:
    """
    Attributes:
        formats (list[FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1 | str] | Unset):
            markdown (default), html, rawHtml, links, screenshot or {type: "screenshot", fullPage}, {type: "json", schema?,
            prompt?}, summary, changeTracking (with markdown) or {type: "changeTracking", modes: ["git-diff"]}
        json_options (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0JsonOptions | Unset): v1: the
            `json` format's schema and prompt (systemPrompt is put before the prompt)
        extract_options (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ExtractOptions | Unset): v1: the
            `extract` format's schema and prompt
        only_main_content (bool | Unset): Default true: the page's main content
        include_tags (list[str] | Unset):
        exclude_tags (list[str] | Unset):
        headers (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Headers | Unset):
        wait_for (float | Unset): ms to wait once the page loaded (a leading wait action); > 0 renders the page in a
            browser
        timeout (float | Unset): ms: the answer comes within it (408 after; the run is cancelled and refunded)
        mobile (bool | Unset): true renders the page in a browser as a phone (viewport, user agent, touch)
        actions (list[Any] | Unset): Browser actions, the same objects as ours (docs/scraping.md "Actions"); not empty
            renders the page in a browser
        location (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location | Unset): country: our
            `country` (a proxy pool of that country, PROXY_TIERS; 400 naming it when none); languages: the Accept-Language
            header unless headers set one
        proxy (str | Unset): basic | stealth (enhanced: stealth) pin a proxy tier; auto (default) climbs the tiers
            (docs/scraping.md "Escalation")
        skip_tls_verification (bool | Unset): true accepts invalid and self-signed certificates (both engines); default
            false
        remove_base_64_images (bool | Unset):
        fast_mode (bool | Unset):
        block_ads (bool | Unset):
        store_in_cache (bool | Unset): false: this result never answers a later request from the results cache
        max_age (float | Unset): ms: answer from the account's identical request that succeeded within it (the results
            cache; a hit costs nothing); absent or 0 fetches
        min_age (float | Unset):
        parsers (list[FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1 | str] | Unset):
            PDF and DOCX targets are always converted; {type: "pdf", maxPages} limits the pages read (at most 500)
        parse_pdf (bool | Unset): v1: PDF targets are always converted (false is not honoured: no base64 answer)
        zero_data_retention (bool | Unset):
        integration (None | str | Unset):
        origin (str | Unset):
        mode (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Mode | Unset): Extension: force the engine
            ("http" or "browser") instead of auto (http first, the browser and the next proxy tier when blocked)
        session (FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session | Unset): Extension: a stored
            session {name, save?} to start from and save (docs/scraping.md "Sessions")
    """

    formats: (
        list[
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1
            | str
        ]
        | Unset
    ) = UNSET
    json_options: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0JsonOptions
        | Unset
    ) = UNSET
    extract_options: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ExtractOptions
        | Unset
    ) = UNSET
    only_main_content: bool | Unset = UNSET
    include_tags: list[str] | Unset = UNSET
    exclude_tags: list[str] | Unset = UNSET
    headers: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Headers | Unset
    ) = UNSET
    wait_for: float | Unset = UNSET
    timeout: float | Unset = UNSET
    mobile: bool | Unset = UNSET
    actions: list[Any] | Unset = UNSET
    location: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location | Unset
    ) = UNSET
    proxy: str | Unset = UNSET
    skip_tls_verification: bool | Unset = UNSET
    remove_base_64_images: bool | Unset = UNSET
    fast_mode: bool | Unset = UNSET
    block_ads: bool | Unset = UNSET
    store_in_cache: bool | Unset = UNSET
    max_age: float | Unset = UNSET
    min_age: float | Unset = UNSET
    parsers: (
        list[
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1
            | str
        ]
        | Unset
    ) = UNSET
    parse_pdf: bool | Unset = UNSET
    zero_data_retention: bool | Unset = UNSET
    integration: None | str | Unset = UNSET
    origin: str | Unset = UNSET
    mode: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Mode | Unset
    ) = UNSET
    session: (
        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session | Unset
    ) = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_formats_item_type_1 import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_parsers_item_type_1 import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1,
        )

        formats: list[dict[str, Any] | str] | Unset = UNSET
        if not isinstance(self.formats, Unset):
            formats = []
            for formats_item_data in self.formats:
                formats_item: dict[str, Any] | str
                if isinstance(
                    formats_item_data,
                    FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1,
                ):
                    formats_item = formats_item_data.to_dict()
                else:
                    formats_item = formats_item_data
                formats.append(formats_item)

        json_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.json_options, Unset):
            json_options = self.json_options.to_dict()

        extract_options: dict[str, Any] | Unset = UNSET
        if not isinstance(self.extract_options, Unset):
            extract_options = self.extract_options.to_dict()

        only_main_content = self.only_main_content

        include_tags: list[str] | Unset = UNSET
        if not isinstance(self.include_tags, Unset):
            include_tags = self.include_tags

        exclude_tags: list[str] | Unset = UNSET
        if not isinstance(self.exclude_tags, Unset):
            exclude_tags = self.exclude_tags

        headers: dict[str, Any] | Unset = UNSET
        if not isinstance(self.headers, Unset):
            headers = self.headers.to_dict()

        wait_for = self.wait_for

        timeout = self.timeout

        mobile = self.mobile

        actions: list[Any] | Unset = UNSET
        if not isinstance(self.actions, Unset):
            actions = self.actions

        location: dict[str, Any] | Unset = UNSET
        if not isinstance(self.location, Unset):
            location = self.location.to_dict()

        proxy = self.proxy

        skip_tls_verification = self.skip_tls_verification

        remove_base_64_images = self.remove_base_64_images

        fast_mode = self.fast_mode

        block_ads = self.block_ads

        store_in_cache = self.store_in_cache

        max_age = self.max_age

        min_age = self.min_age

        parsers: list[dict[str, Any] | str] | Unset = UNSET
        if not isinstance(self.parsers, Unset):
            parsers = []
            for parsers_item_data in self.parsers:
                parsers_item: dict[str, Any] | str
                if isinstance(
                    parsers_item_data,
                    FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1,
                ):
                    parsers_item = parsers_item_data.to_dict()
                else:
                    parsers_item = parsers_item_data
                parsers.append(parsers_item)

        parse_pdf = self.parse_pdf

        zero_data_retention = self.zero_data_retention

        integration: None | str | Unset
        if isinstance(self.integration, Unset):
            integration = UNSET
        else:
            integration = self.integration

        origin = self.origin

        mode: str | Unset = UNSET
        if not isinstance(self.mode, Unset):
            mode = self.mode.value

        session: dict[str, Any] | Unset = UNSET
        if not isinstance(self.session, Unset):
            session = self.session.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if formats is not UNSET:
            field_dict["formats"] = formats
        if json_options is not UNSET:
            field_dict["jsonOptions"] = json_options
        if extract_options is not UNSET:
            field_dict["extractOptions"] = extract_options
        if only_main_content is not UNSET:
            field_dict["onlyMainContent"] = only_main_content
        if include_tags is not UNSET:
            field_dict["includeTags"] = include_tags
        if exclude_tags is not UNSET:
            field_dict["excludeTags"] = exclude_tags
        if headers is not UNSET:
            field_dict["headers"] = headers
        if wait_for is not UNSET:
            field_dict["waitFor"] = wait_for
        if timeout is not UNSET:
            field_dict["timeout"] = timeout
        if mobile is not UNSET:
            field_dict["mobile"] = mobile
        if actions is not UNSET:
            field_dict["actions"] = actions
        if location is not UNSET:
            field_dict["location"] = location
        if proxy is not UNSET:
            field_dict["proxy"] = proxy
        if skip_tls_verification is not UNSET:
            field_dict["skipTlsVerification"] = skip_tls_verification
        if remove_base_64_images is not UNSET:
            field_dict["removeBase64Images"] = remove_base_64_images
        if fast_mode is not UNSET:
            field_dict["fastMode"] = fast_mode
        if block_ads is not UNSET:
            field_dict["blockAds"] = block_ads
        if store_in_cache is not UNSET:
            field_dict["storeInCache"] = store_in_cache
        if max_age is not UNSET:
            field_dict["maxAge"] = max_age
        if min_age is not UNSET:
            field_dict["minAge"] = min_age
        if parsers is not UNSET:
            field_dict["parsers"] = parsers
        if parse_pdf is not UNSET:
            field_dict["parsePDF"] = parse_pdf
        if zero_data_retention is not UNSET:
            field_dict["zeroDataRetention"] = zero_data_retention
        if integration is not UNSET:
            field_dict["integration"] = integration
        if origin is not UNSET:
            field_dict["origin"] = origin
        if mode is not UNSET:
            field_dict["mode"] = mode
        if session is not UNSET:
            field_dict["session"] = session

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_extract_options import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ExtractOptions,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_formats_item_type_1 import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_headers import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Headers,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_json_options import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0JsonOptions,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_location import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_parsers_item_type_1 import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1,
        )
        from ..models.firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0_session import (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session,
        )

        d = dict(src_dict)
        _formats = d.pop("formats", UNSET)
        formats: (
            list[
                FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1
                | str
            ]
            | Unset
        ) = UNSET
        if _formats is not UNSET:
            formats = []
            for formats_item_data in _formats:

                def _parse_formats_item(
                    data: object,
                ) -> (
                    FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1
                    | str
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        formats_item_type_1 = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1.from_dict(
                            data
                        )

                        return formats_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(
                        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0FormatsItemType1
                        | str,
                        data,
                    )

                formats_item = _parse_formats_item(formats_item_data)

                formats.append(formats_item)

        _json_options = d.pop("jsonOptions", UNSET)
        json_options: (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0JsonOptions
            | Unset
        )
        if isinstance(_json_options, Unset):
            json_options = UNSET
        else:
            json_options = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0JsonOptions.from_dict(
                _json_options
            )

        _extract_options = d.pop("extractOptions", UNSET)
        extract_options: (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ExtractOptions
            | Unset
        )
        if isinstance(_extract_options, Unset):
            extract_options = UNSET
        else:
            extract_options = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ExtractOptions.from_dict(
                _extract_options
            )

        only_main_content = d.pop("onlyMainContent", UNSET)

        include_tags = cast(list[str], d.pop("includeTags", UNSET))

        exclude_tags = cast(list[str], d.pop("excludeTags", UNSET))

        _headers = d.pop("headers", UNSET)
        headers: (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Headers
            | Unset
        )
        if isinstance(_headers, Unset):
            headers = UNSET
        else:
            headers = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Headers.from_dict(
                _headers
            )

        wait_for = d.pop("waitFor", UNSET)

        timeout = d.pop("timeout", UNSET)

        mobile = d.pop("mobile", UNSET)

        actions = cast(list[Any], d.pop("actions", UNSET))

        _location = d.pop("location", UNSET)
        location: (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location
            | Unset
        )
        if isinstance(_location, Unset):
            location = UNSET
        else:
            location = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Location.from_dict(
                _location
            )

        proxy = d.pop("proxy", UNSET)

        skip_tls_verification = d.pop("skipTlsVerification", UNSET)

        remove_base_64_images = d.pop("removeBase64Images", UNSET)

        fast_mode = d.pop("fastMode", UNSET)

        block_ads = d.pop("blockAds", UNSET)

        store_in_cache = d.pop("storeInCache", UNSET)

        max_age = d.pop("maxAge", UNSET)

        min_age = d.pop("minAge", UNSET)

        _parsers = d.pop("parsers", UNSET)
        parsers: (
            list[
                FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1
                | str
            ]
            | Unset
        ) = UNSET
        if _parsers is not UNSET:
            parsers = []
            for parsers_item_data in _parsers:

                def _parse_parsers_item(
                    data: object,
                ) -> (
                    FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1
                    | str
                ):
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        parsers_item_type_1 = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1.from_dict(
                            data
                        )

                        return parsers_item_type_1
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    return cast(
                        FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0ParsersItemType1
                        | str,
                        data,
                    )

                parsers_item = _parse_parsers_item(parsers_item_data)

                parsers.append(parsers_item)

        parse_pdf = d.pop("parsePDF", UNSET)

        zero_data_retention = d.pop("zeroDataRetention", UNSET)

        def _parse_integration(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        integration = _parse_integration(d.pop("integration", UNSET))

        origin = d.pop("origin", UNSET)

        _mode = d.pop("mode", UNSET)
        mode: (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Mode | Unset
        )
        if isinstance(_mode, Unset):
            mode = UNSET
        else:
            mode = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Mode(
                _mode
            )

        _session = d.pop("session", UNSET)
        session: (
            FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session
            | Unset
        )
        if isinstance(_session, Unset):
            session = UNSET
        else:
            session = FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Session.from_dict(
                _session
            )

        firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0 = (
            cls(
                formats=formats,
                json_options=json_options,
                extract_options=extract_options,
                only_main_content=only_main_content,
                include_tags=include_tags,
                exclude_tags=exclude_tags,
                headers=headers,
                wait_for=wait_for,
                timeout=timeout,
                mobile=mobile,
                actions=actions,
                location=location,
                proxy=proxy,
                skip_tls_verification=skip_tls_verification,
                remove_base_64_images=remove_base_64_images,
                fast_mode=fast_mode,
                block_ads=block_ads,
                store_in_cache=store_in_cache,
                max_age=max_age,
                min_age=min_age,
                parsers=parsers,
                parse_pdf=parse_pdf,
                zero_data_retention=zero_data_retention,
                integration=integration,
                origin=origin,
                mode=mode,
                session=session,
            )
        )

        firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0.additional_properties = d
        return (
            firecrawl_update_monitor_request_targets_type_0_item_scrape_options_type_0
        )

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
