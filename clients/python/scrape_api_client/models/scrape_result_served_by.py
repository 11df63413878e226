from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeResultServedBy")


@_attrs_define
class ScrapeResultServedBy:
    """`auto` mode: the engine and proxy tier (`direct` without one) that served the page (docs/scraping.md "Escalation")

    Attributes:
        engine (str):
        proxy_tier (str):
    """

    engine: str
    proxy_tier: str

    def to_dict(self) -> dict[str, Any]:
        engine = self.engine

        proxy_tier = self.proxy_tier

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "engine": engine,
                "proxy_tier": proxy_tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        engine = d.pop("engine")

        proxy_tier = d.pop("proxy_tier")

        scrape_result_served_by = cls(
            engine=engine,
            proxy_tier=proxy_tier,
        )

        return scrape_result_served_by
