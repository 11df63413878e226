from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.scrape_result_cache_state import ScrapeResultCacheState
from ..types import UNSET, Unset

T = TypeVar("T", bound="ScrapeResultCache")


@_attrs_define
class ScrapeResultCache:
    """The results cache (docs/scraping.md "Results cache"): `hit` (cost 0), or `miss` when the request allowed a cached
    answer (`max_age` > 0) and the page was fetched

        Attributes:
            state (ScrapeResultCacheState):
            cached_at (datetime.datetime | Unset): A hit: when the run that answered it finished
    """

    state: ScrapeResultCacheState
    cached_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        cached_at: str | Unset = UNSET
        if not isinstance(self.cached_at, Unset):
            cached_at = self.cached_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "state": state,
            }
        )
        if cached_at is not UNSET:
            field_dict["cached_at"] = cached_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = ScrapeResultCacheState(d.pop("state"))

        _cached_at = d.pop("cached_at", UNSET)
        cached_at: datetime.datetime | Unset
        if isinstance(_cached_at, Unset):
            cached_at = UNSET
        else:
            cached_at = datetime.datetime.fromisoformat(_cached_at)

        scrape_result_cache = cls(
            state=state,
            cached_at=cached_at,
        )

        return scrape_result_cache
