from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.scrape_run_summary_status import ScrapeRunSummaryStatus

if TYPE_CHECKING:
    from ..models.scrape_run_summary_error_type_0 import ScrapeRunSummaryErrorType0


T = TypeVar("T", bound="ScrapeRunSummary")


@_attrs_define
class ScrapeRunSummary:
    """
    Attributes:
        id (str):
        api_key_id (None | str):
        flow_run_id (None | str):
        mode (str):
        url (str):
        status (ScrapeRunSummaryStatus): `cached`: answered from the results cache, cost 0
        attempts (int):
        cost (int): Credits debited when the run was accepted
        refunded (bool): The cost went back to the balance (a failure that was not the target's answer)
        http_status (int | None):
        duration_ms (int | None): From acceptance to the end of the run; null while it runs
        error (None | ScrapeRunSummaryErrorType0):
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
    """

    id: str
    api_key_id: None | str
    flow_run_id: None | str
    mode: str
    url: str
    status: ScrapeRunSummaryStatus
    attempts: int
    cost: int
    refunded: bool
    http_status: int | None
    duration_ms: int | None
    error: None | ScrapeRunSummaryErrorType0
    created_at: datetime.datetime
    finished_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.scrape_run_summary_error_type_0 import ScrapeRunSummaryErrorType0

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
        if isinstance(self.error, ScrapeRunSummaryErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

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
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_run_summary_error_type_0 import ScrapeRunSummaryErrorType0

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

        status = ScrapeRunSummaryStatus(d.pop("status"))

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

        def _parse_error(data: object) -> None | ScrapeRunSummaryErrorType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ScrapeRunSummaryErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ScrapeRunSummaryErrorType0, data)

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

        scrape_run_summary = cls(
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
        )

        return scrape_run_summary
