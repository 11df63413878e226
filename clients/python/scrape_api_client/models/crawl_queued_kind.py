from enum import StrEnum


class CrawlQueuedKind(StrEnum):
    BATCH = "batch"
    CRAWL = "crawl"

    def __str__(self) -> str:
        return str(self.value)
