from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.search_result_web_item_scrape_error import (
        SearchResultWebItemScrapeError,
    )
    from ..models.search_result_web_item_scrape_result import (
        SearchResultWebItemScrapeResult,
    )


T = TypeVar("T", bound="SearchResultWebItemScrape")


@_attrs_define
class SearchResultWebItemScrape:
    """With `scrape`: the result's page run (GET /webhook/runs/{run_id}), its result when it succeeded

    Attributes:
        run_id (None | str):
        status (str):
        result (SearchResultWebItemScrapeResult | Unset):
        error (SearchResultWebItemScrapeError | Unset):
    """

    run_id: None | str
    status: str
    result: SearchResultWebItemScrapeResult | Unset = UNSET
    error: SearchResultWebItemScrapeError | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        run_id: None | str
        run_id = self.run_id

        status = self.status

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.error, Unset):
            error = self.error.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "run_id": run_id,
                "status": status,
            }
        )
        if result is not UNSET:
            field_dict["result"] = result
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_result_web_item_scrape_error import (
            SearchResultWebItemScrapeError,
        )
        from ..models.search_result_web_item_scrape_result import (
            SearchResultWebItemScrapeResult,
        )

        d = dict(src_dict)

        def _parse_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_id = _parse_run_id(d.pop("run_id"))

        status = d.pop("status")

        _result = d.pop("result", UNSET)
        result: SearchResultWebItemScrapeResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = SearchResultWebItemScrapeResult.from_dict(_result)

        _error = d.pop("error", UNSET)
        error: SearchResultWebItemScrapeError | Unset
        if isinstance(_error, Unset):
            error = UNSET
        else:
            error = SearchResultWebItemScrapeError.from_dict(_error)

        search_result_web_item_scrape = cls(
            run_id=run_id,
            status=status,
            result=result,
            error=error,
        )

        search_result_web_item_scrape.additional_properties = d
        return search_result_web_item_scrape

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
