from enum import StrEnum


class CrawlKind(StrEnum):
    BATCH = "batch"
    CRAWL = "crawl"

    def __str__(self) -> str:
        return str(self.value)
