from enum import StrEnum


class GetV1BatchScrapeIdResponse200Status(StrEnum):
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    FAILED = "failed"
    SCRAPING = "scraping"

    def __str__(self) -> str:
        return str(self.value)
