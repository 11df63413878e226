from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.scrape_run_summary import ScrapeRunSummary


T = TypeVar("T", bound="GetApiUsersScrapeRunsResponse200")


@_attrs_define
class GetApiUsersScrapeRunsResponse200:
    """
    Attributes:
        runs (list[ScrapeRunSummary]):
        next_cursor (None | str):
    """

    runs: list[ScrapeRunSummary]
    next_cursor: None | str

    def to_dict(self) -> dict[str, Any]:
        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "runs": runs,
                "nextCursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_run_summary import ScrapeRunSummary

        d = dict(src_dict)
        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:
            runs_item = ScrapeRunSummary.from_dict(runs_item_data)

            runs.append(runs_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("nextCursor"))

        get_api_users_scrape_runs_response_200 = cls(
            runs=runs,
            next_cursor=next_cursor,
        )

        return get_api_users_scrape_runs_response_200
