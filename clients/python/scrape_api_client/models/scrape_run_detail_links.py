from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeRunDetailLinks")


@_attrs_define
class ScrapeRunDetailLinks:
    """
    Attributes:
        temporal_ui (str): The run's workflow in the Temporal UI (TEMPORAL_UI_URL)
    """

    temporal_ui: str

    def to_dict(self) -> dict[str, Any]:
        temporal_ui = self.temporal_ui

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "temporalUi": temporal_ui,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        temporal_ui = d.pop("temporalUi")

        scrape_run_detail_links = cls(
            temporal_ui=temporal_ui,
        )

        return scrape_run_detail_links
