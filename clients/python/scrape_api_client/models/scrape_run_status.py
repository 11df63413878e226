from enum import StrEnum


class ScrapeRunStatus(StrEnum):
    CACHED = "cached"
    CANCELLED = "cancelled"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
