from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_pricing_response_200_scrape_extras import (
        GetPricingResponse200ScrapeExtras,
    )
    from ..models.get_pricing_response_200_scrape_modes import (
        GetPricingResponse200ScrapeModes,
    )


T = TypeVar("T", bound="GetPricingResponse200Scrape")


@_attrs_define
class GetPricingResponse200Scrape:
    """
    Attributes:
        modes (GetPricingResponse200ScrapeModes):
        extras (GetPricingResponse200ScrapeExtras):
        actions (str):
        formats (int):
        llm (str):
    """

    modes: GetPricingResponse200ScrapeModes
    extras: GetPricingResponse200ScrapeExtras
    actions: str
    formats: int
    llm: str

    def to_dict(self) -> dict[str, Any]:
        modes = self.modes.to_dict()

        extras = self.extras.to_dict()

        actions = self.actions

        formats = self.formats

        llm = self.llm

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "modes": modes,
                "extras": extras,
                "actions": actions,
                "formats": formats,
                "llm": llm,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_pricing_response_200_scrape_extras import (
            GetPricingResponse200ScrapeExtras,
        )
        from ..models.get_pricing_response_200_scrape_modes import (
            GetPricingResponse200ScrapeModes,
        )

        d = dict(src_dict)
        modes = GetPricingResponse200ScrapeModes.from_dict(d.pop("modes"))

        extras = GetPricingResponse200ScrapeExtras.from_dict(d.pop("extras"))

        actions = d.pop("actions")

        formats = d.pop("formats")

        llm = d.pop("llm")

        get_pricing_response_200_scrape = cls(
            modes=modes,
            extras=extras,
            actions=actions,
            formats=formats,
            llm=llm,
        )

        return get_pricing_response_200_scrape
