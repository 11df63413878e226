from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetPricingResponse200ScrapeExtras")


@_attrs_define
class GetPricingResponse200ScrapeExtras:
    """
    Attributes:
        capture_network (int):
        screenshot (int):
        action_screenshot (int):
        llm_format (int):
    """

    capture_network: int
    screenshot: int
    action_screenshot: int
    llm_format: int

    def to_dict(self) -> dict[str, Any]:
        capture_network = self.capture_network

        screenshot = self.screenshot

        action_screenshot = self.action_screenshot

        llm_format = self.llm_format

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "capture_network": capture_network,
                "screenshot": screenshot,
                "action_screenshot": action_screenshot,
                "llm_format": llm_format,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        capture_network = d.pop("capture_network")

        screenshot = d.pop("screenshot")

        action_screenshot = d.pop("action_screenshot")

        llm_format = d.pop("llm_format")

        get_pricing_response_200_scrape_extras = cls(
            capture_network=capture_network,
            screenshot=screenshot,
            action_screenshot=action_screenshot,
            llm_format=llm_format,
        )

        return get_pricing_response_200_scrape_extras
