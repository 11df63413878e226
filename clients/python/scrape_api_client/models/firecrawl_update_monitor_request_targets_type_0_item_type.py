from enum import StrEnum


class FirecrawlUpdateMonitorRequestTargetsType0ItemType(StrEnum):
    CRAWL = "crawl"
    SCRAPE = "scrape"
    SEARCH = "search"

    def __str__(self) -> str:
        return str(self.value)
