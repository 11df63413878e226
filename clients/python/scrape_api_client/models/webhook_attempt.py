from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="WebhookAttempt")


@_attrs_define
class WebhookAttempt:
    """
    Attributes:
        attempt (int):
        status_code (int | None):
        error (None | str):
        duration_ms (int):
        started_at (datetime.datetime):
        finished_at (datetime.datetime):
    """

    attempt: int
    status_code: int | None
    error: None | str
    duration_ms: int
    started_at: datetime.datetime
    finished_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        status_code: int | None
        status_code = self.status_code

        error: None | str
        error = self.error

        duration_ms = self.duration_ms

        started_at = self.started_at.isoformat()

        finished_at = self.finished_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "statusCode": status_code,
                "error": error,
                "durationMs": duration_ms,
                "startedAt": started_at,
                "finishedAt": finished_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        def _parse_status_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        status_code = _parse_status_code(d.pop("statusCode"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        duration_ms = d.pop("durationMs")

        started_at = datetime.datetime.fromisoformat(d.pop("startedAt"))

        finished_at = datetime.datetime.fromisoformat(d.pop("finishedAt"))

        webhook_attempt = cls(
            attempt=attempt,
            status_code=status_code,
            error=error,
            duration_ms=duration_ms,
            started_at=started_at,
            finished_at=finished_at,
        )

        return webhook_attempt
