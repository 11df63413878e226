from enum import StrEnum


class ScrapeRunDetailStatus(StrEnum):
    CACHED = "cached"
    CANCELLED = "cancelled"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
