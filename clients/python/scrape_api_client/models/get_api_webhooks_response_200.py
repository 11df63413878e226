from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_endpoint import WebhookEndpoint


T = TypeVar("T", bound="GetApiWebhooksResponse200")


@_attrs_define
class GetApiWebhooksResponse200:
    """
    Attributes:
        endpoints (list[WebhookEndpoint]):
    """

    endpoints: list[WebhookEndpoint]

    def to_dict(self) -> dict[str, Any]:
        endpoints = []
        for endpoints_item_data in self.endpoints:
            endpoints_item = endpoints_item_data.to_dict()
            endpoints.append(endpoints_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoints": endpoints,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint import WebhookEndpoint

        d = dict(src_dict)
        endpoints = []
        _endpoints = d.pop("endpoints")
        for endpoints_item_data in _endpoints:
            endpoints_item = WebhookEndpoint.from_dict(endpoints_item_data)

            endpoints.append(endpoints_item)

        get_api_webhooks_response_200 = cls(
            endpoints=endpoints,
        )

        return get_api_webhooks_response_200
