from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_create_monitor_request_webhook_type_0_headers_type_0 import (
        FirecrawlCreateMonitorRequestWebhookType0HeadersType0,
    )
    from ..models.firecrawl_create_monitor_request_webhook_type_0_metadata_type_0 import (
        FirecrawlCreateMonitorRequestWebhookType0MetadataType0,
    )


T = TypeVar("T", bound="FirecrawlCreateMonitorRequestWebhookType0")


@_attrs_define
class FirecrawlCreateMonitorRequestWebhookType0:
    """
    Attributes:
        url (str):
        headers (FirecrawlCreateMonitorRequestWebhookType0HeadersType0 | None | Unset):
        metadata (FirecrawlCreateMonitorRequestWebhookType0MetadataType0 | None | Unset):
        events (list[str] | None | Unset):
    """

    url: str
    headers: FirecrawlCreateMonitorRequestWebhookType0HeadersType0 | None | Unset = (
        UNSET
    )
    metadata: FirecrawlCreateMonitorRequestWebhookType0MetadataType0 | None | Unset = (
        UNSET
    )
    events: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_create_monitor_request_webhook_type_0_headers_type_0 import (
            FirecrawlCreateMonitorRequestWebhookType0HeadersType0,
        )
        from ..models.firecrawl_create_monitor_request_webhook_type_0_metadata_type_0 import (
            FirecrawlCreateMonitorRequestWebhookType0MetadataType0,
        )

        url = self.url

        headers: dict[str, Any] | None | Unset
        if isinstance(self.headers, Unset):
            headers = UNSET
        elif isinstance(
            self.headers, FirecrawlCreateMonitorRequestWebhookType0HeadersType0
        ):
            headers = self.headers.to_dict()
        else:
            headers = self.headers

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(
            self.metadata, FirecrawlCreateMonitorRequestWebhookType0MetadataType0
        ):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        events: list[str] | None | Unset
        if isinstance(self.events, Unset):
            events = UNSET
        elif isinstance(self.events, list):
            events = self.events

        else:
            events = self.events

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
            }
        )
        if headers is not UNSET:
            field_dict["headers"] = headers
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if events is not UNSET:
            field_dict["events"] = events

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_create_monitor_request_webhook_type_0_headers_type_0 import (
            FirecrawlCreateMonitorRequestWebhookType0HeadersType0,
        )
        from ..models.firecrawl_create_monitor_request_webhook_type_0_metadata_type_0 import (
            FirecrawlCreateMonitorRequestWebhookType0MetadataType0,
        )

        d = dict(src_dict)
        url = d.pop("url")

        def _parse_headers(
            data: object,
        ) -> FirecrawlCreateMonitorRequestWebhookType0HeadersType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                headers_type_0 = (
                    FirecrawlCreateMonitorRequestWebhookType0HeadersType0.from_dict(
                        data
                    )
                )

                return headers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FirecrawlCreateMonitorRequestWebhookType0HeadersType0 | None | Unset,
                data,
            )

        headers = _parse_headers(d.pop("headers", UNSET))

        def _parse_metadata(
            data: object,
        ) -> FirecrawlCreateMonitorRequestWebhookType0MetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = (
                    FirecrawlCreateMonitorRequestWebhookType0MetadataType0.from_dict(
                        data
                    )
                )

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FirecrawlCreateMonitorRequestWebhookType0MetadataType0 | None | Unset,
                data,
            )

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_events(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                events_type_0 = cast(list[str], data)

                return events_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        events = _parse_events(d.pop("events", UNSET))

        firecrawl_create_monitor_request_webhook_type_0 = cls(
            url=url,
            headers=headers,
            metadata=metadata,
            events=events,
        )

        firecrawl_create_monitor_request_webhook_type_0.additional_properties = d
        return firecrawl_create_monitor_request_webhook_type_0

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
