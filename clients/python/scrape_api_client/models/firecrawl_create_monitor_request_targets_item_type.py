from enum import StrEnum


class FirecrawlCreateMonitorRequestTargetsItemType(StrEnum):
    CRAWL = "crawl"
    SCRAPE = "scrape"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
