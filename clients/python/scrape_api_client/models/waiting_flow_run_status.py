from enum import StrEnum


class WaitingFlowRunStatus(StrEnum):
    CANCELLED = "cancelled"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    WAITING_INPUT = "waiting_input"

    def __str__(self) -> str:
        return str(self.value)
