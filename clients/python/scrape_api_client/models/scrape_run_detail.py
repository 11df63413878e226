from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scrape_run_detail_status import ScrapeRunDetailStatus

if TYPE_CHECKING:
    from ..models.scrape_run_detail_error_type_0 import ScrapeRunDetailErrorType0
    from ..models.scrape_run_detail_escalation_type_0_item import (
        ScrapeRunDetailEscalationType0Item,
    )
    from ..models.scrape_run_detail_links import ScrapeRunDetailLinks


T = TypeVar("T", bound="ScrapeRunDetail")


@_attrs_define
class ScrapeRunDetail:
    """
    Attributes:
        id (str):
        api_key_id (None | str):
        flow_run_id (None | str):
        mode (str):
        url (str):
        status (ScrapeRunDetailStatus): `cached`: answered from the results cache, cost 0
        attempts (int):
        cost (int): Credits debited when the run was accepted
        refunded (bool): The cost went back to the balance (a failure that was not the target's answer)
        http_status (int | None):
        duration_ms (int | None): From acceptance to the end of the run; null while it runs
        error (None | ScrapeRunDetailErrorType0):
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        workflow_id (str):
        elapsed_ms (int | None): Fetch time of the attempt that succeeded
        started_at (datetime.datetime | None):
        request (Any):
        result (Any): The stored result (final_url, status, headers, html or data) when it succeeded
        links (ScrapeRunDetailLinks):
        escalation (list[ScrapeRunDetailEscalationType0Item] | None): An `auto` run's steps in order (docs/scraping.md
            "Escalation"): engine, proxy tier, outcome, why it moved on; null for any other run
    """

    id: str
    api_key_id: None | str
    flow_run_id: None | str
    mode: str
    url: str
    status: ScrapeRunDetailStatus
    attempts: int
    cost: int
    refunded: bool
    http_status: int | None
    duration_ms: int | None
    error: None | ScrapeRunDetailErrorType0
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    workflow_id: str
    elapsed_ms: int | None
    started_at: datetime.datetime | None
    request: Any
    result: Any
    links: ScrapeRunDetailLinks
    escalation: list[ScrapeRunDetailEscalationType0Item] | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.scrape_run_detail_error_type_0 import ScrapeRunDetailErrorType0

        id = self.id

        api_key_id: None | str
        api_key_id = self.api_key_id

        flow_run_id: None | str
        flow_run_id = self.flow_run_id

        mode = self.mode

        url = self.url

        status = self.status.value

        attempts = self.attempts

        cost = self.cost

        refunded = self.refunded

        http_status: int | None
        http_status = self.http_status

        duration_ms: int | None
        duration_ms = self.duration_ms

        error: dict[str, Any] | None
        if isinstance(self.error, ScrapeRunDetailErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        workflow_id = self.workflow_id

        elapsed_ms: int | None
        elapsed_ms = self.elapsed_ms

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        request = self.request

        result = self.result

        links = self.links.to_dict()

        escalation: list[dict[str, Any]] | None
        if isinstance(self.escalation, list):
            escalation = []
            for escalation_type_0_item_data in self.escalation:
                escalation_type_0_item = escalation_type_0_item_data.to_dict()
                escalation.append(escalation_type_0_item)

        else:
            escalation = self.escalation

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "apiKeyId": api_key_id,
                "flowRunId": flow_run_id,
                "mode": mode,
                "url": url,
                "status": status,
                "attempts": attempts,
                "cost": cost,
                "refunded": refunded,
                "httpStatus": http_status,
                "durationMs": duration_ms,
                "error": error,
                "createdAt": created_at,
                "finishedAt": finished_at,
                "workflowId": workflow_id,
                "elapsedMs": elapsed_ms,
                "startedAt": started_at,
                "request": request,
                "result": result,
                "links": links,
                "escalation": escalation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_run_detail_error_type_0 import ScrapeRunDetailErrorType0
        from ..models.scrape_run_detail_escalation_type_0_item import (
            ScrapeRunDetailEscalationType0Item,
        )
        from ..models.scrape_run_detail_links import ScrapeRunDetailLinks

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_api_key_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        api_key_id = _parse_api_key_id(d.pop("apiKeyId"))

        def _parse_flow_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        flow_run_id = _parse_flow_run_id(d.pop("flowRunId"))

        mode = d.pop("mode")

        url = d.pop("url")

        status = ScrapeRunDetailStatus(d.pop("status"))

        attempts = d.pop("attempts")

        cost = d.pop("cost")

        refunded = d.pop("refunded")

        def _parse_http_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        http_status = _parse_http_status(d.pop("httpStatus"))

        def _parse_duration_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_ms = _parse_duration_ms(d.pop("durationMs"))

        def _parse_error(data: object) -> None | ScrapeRunDetailErrorType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ScrapeRunDetailErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScrapeRunDetailErrorType0, data)

        error = _parse_error(d.pop("error"))

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

        workflow_id = d.pop("workflowId")

        def _parse_elapsed_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        elapsed_ms = _parse_elapsed_ms(d.pop("elapsedMs"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        request = d.pop("request")

        result = d.pop("result")

        links = ScrapeRunDetailLinks.from_dict(d.pop("links"))

        def _parse_escalation(
            data: object,
        ) -> list[ScrapeRunDetailEscalationType0Item] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                escalation_type_0 = []
                _escalation_type_0 = data
                for escalation_type_0_item_data in _escalation_type_0:
                    escalation_type_0_item = (
                        ScrapeRunDetailEscalationType0Item.from_dict(
                            escalation_type_0_item_data
                        )
                    )

                    escalation_type_0.append(escalation_type_0_item)

                return escalation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[ScrapeRunDetailEscalationType0Item] | None, data)

        escalation = _parse_escalation(d.pop("escalation"))

        scrape_run_detail = cls(
            id=id,
            api_key_id=api_key_id,
            flow_run_id=flow_run_id,
            mode=mode,
            url=url,
            status=status,
            attempts=attempts,
            cost=cost,
            refunded=refunded,
            http_status=http_status,
            duration_ms=duration_ms,
            error=error,
            created_at=created_at,
            finished_at=finished_at,
            workflow_id=workflow_id,
            elapsed_ms=elapsed_ms,
            started_at=started_at,
            request=request,
            result=result,
            links=links,
            escalation=escalation,
        )

        return scrape_run_detail
