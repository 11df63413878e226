from enum import StrEnum


class CrawlStatus(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    CREDIT_EXHAUSTED = "credit_exhausted"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
