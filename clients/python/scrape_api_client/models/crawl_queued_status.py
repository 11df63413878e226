from enum import StrEnum


class CrawlQueuedStatus(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    CREDIT_EXHAUSTED = "credit_exhausted"
    FAILED = "failed"
    QUEUED = "queued"
    RUNNING = "running"

    def __str__(self) -> str:
        return str(self.value)
