from enum import StrEnum


class CrawlSummaryKind(StrEnum):
    BATCH = "batch"
    CRAWL = "crawl"

    def __str__(self) -> str:
        return str(self.value)
