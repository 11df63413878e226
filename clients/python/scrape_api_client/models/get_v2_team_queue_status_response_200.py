from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="GetV2TeamQueueStatusResponse200")


@_attrs_define
class GetV2TeamQueueStatusResponse200:
    """
    Attributes:
        success (bool):
        jobs_in_queue (int):
        active_jobs_in_queue (int):
        waiting_jobs_in_queue (int):
        max_concurrency (int):
        most_recent_success (None | str):
    """

    success: bool
    jobs_in_queue: int
    active_jobs_in_queue: int
    waiting_jobs_in_queue: int
    max_concurrency: int
    most_recent_success: None | str

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        jobs_in_queue = self.jobs_in_queue

        active_jobs_in_queue = self.active_jobs_in_queue

        waiting_jobs_in_queue = self.waiting_jobs_in_queue

        max_concurrency = self.max_concurrency

        most_recent_success: None | str
        most_recent_success = self.most_recent_success

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "jobsInQueue": jobs_in_queue,
                "activeJobsInQueue": active_jobs_in_queue,
                "waitingJobsInQueue": waiting_jobs_in_queue,
                "maxConcurrency": max_concurrency,
                "mostRecentSuccess": most_recent_success,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        success = d.pop("success")

        jobs_in_queue = d.pop("jobsInQueue")

        active_jobs_in_queue = d.pop("activeJobsInQueue")

        waiting_jobs_in_queue = d.pop("waitingJobsInQueue")

        max_concurrency = d.pop("maxConcurrency")

        def _parse_most_recent_success(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        most_recent_success = _parse_most_recent_success(d.pop("mostRecentSuccess"))

        get_v2_team_queue_status_response_200 = cls(
            success=success,
            jobs_in_queue=jobs_in_queue,
            active_jobs_in_queue=active_jobs_in_queue,
            waiting_jobs_in_queue=waiting_jobs_in_queue,
            max_concurrency=max_concurrency,
            most_recent_success=most_recent_success,
        )

        return get_v2_team_queue_status_response_200
