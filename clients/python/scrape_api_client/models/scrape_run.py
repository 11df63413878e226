from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.scrape_run_status import ScrapeRunStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.scrape_result import ScrapeResult
    from ..models.scrape_run_escalation_item import ScrapeRunEscalationItem
    from ..models.scrape_run_links import ScrapeRunLinks
    from ..models.scrape_run_proxy_attempts_item import ScrapeRunProxyAttemptsItem


T = TypeVar("T", bound="ScrapeRun")


@_attrs_define
class ScrapeRun:
    """
    Attributes:
        id (str):
        status (ScrapeRunStatus): `cached`: answered from the results cache (docs/scraping.md "Results cache"), with its
            result as a succeeded run, cost 0
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        links (ScrapeRunLinks):
        attempts (int | Unset):
        result (ScrapeResult | Unset):
        error (Any | Unset):
        proxy_attempts (list[ScrapeRunProxyAttemptsItem] | Unset): Attempts that went through an outbound proxy
            (PROXY_URLS), in order: `succeeded` or the error code
        escalation (list[ScrapeRunEscalationItem] | Unset): `auto` mode: every attempt with its engine, proxy tier and
            outcome, and why the run moved on
    """

    id: str
    status: ScrapeRunStatus
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    links: ScrapeRunLinks
    attempts: int | Unset = UNSET
    result: ScrapeResult | Unset = UNSET
    error: Any | Unset = UNSET
    proxy_attempts: list[ScrapeRunProxyAttemptsItem] | Unset = UNSET
    escalation: list[ScrapeRunEscalationItem] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        links = self.links.to_dict()

        attempts = self.attempts

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

        error = self.error

        proxy_attempts: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.proxy_attempts, Unset):
            proxy_attempts = []
            for proxy_attempts_item_data in self.proxy_attempts:
                proxy_attempts_item = proxy_attempts_item_data.to_dict()
                proxy_attempts.append(proxy_attempts_item)

        escalation: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.escalation, Unset):
            escalation = []
            for escalation_item_data in self.escalation:
                escalation_item = escalation_item_data.to_dict()
                escalation.append(escalation_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "createdAt": created_at,
                "finishedAt": finished_at,
                "links": links,
            }
        )
        if attempts is not UNSET:
            field_dict["attempts"] = attempts
        if result is not UNSET:
            field_dict["result"] = result
        if error is not UNSET:
            field_dict["error"] = error
        if proxy_attempts is not UNSET:
            field_dict["proxy_attempts"] = proxy_attempts
        if escalation is not UNSET:
            field_dict["escalation"] = escalation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_result import ScrapeResult
        from ..models.scrape_run_escalation_item import ScrapeRunEscalationItem
        from ..models.scrape_run_links import ScrapeRunLinks
        from ..models.scrape_run_proxy_attempts_item import ScrapeRunProxyAttemptsItem

        d = dict(src_dict)
        id = d.pop("id")

        status = ScrapeRunStatus(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finishedAt"))

        links = ScrapeRunLinks.from_dict(d.pop("links"))

        attempts = d.pop("attempts", UNSET)

        _result = d.pop("result", UNSET)
        result: ScrapeResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = ScrapeResult.from_dict(_result)

        error = d.pop("error", UNSET)

        _proxy_attempts = d.pop("proxy_attempts", UNSET)
        proxy_attempts: list[ScrapeRunProxyAttemptsItem] | Unset = UNSET
        if _proxy_attempts is not UNSET:
            proxy_attempts = []
            for proxy_attempts_item_data in _proxy_attempts:
                proxy_attempts_item = ScrapeRunProxyAttemptsItem.from_dict(
                    proxy_attempts_item_data
                )

                proxy_attempts.append(proxy_attempts_item)

        _escalation = d.pop("escalation", UNSET)
        escalation: list[ScrapeRunEscalationItem] | Unset = UNSET
        if _escalation is not UNSET:
            escalation = []
            for escalation_item_data in _escalation:
                escalation_item = ScrapeRunEscalationItem.from_dict(
                    escalation_item_data
                )

                escalation.append(escalation_item)

        scrape_run = cls(
            id=id,
            status=status,
            created_at=created_at,
            finished_at=finished_at,
            links=links,
            attempts=attempts,
            result=result,
            error=error,
            proxy_attempts=proxy_attempts,
            escalation=escalation,
        )

        scrape_run.additional_properties = d
        return scrape_run

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
