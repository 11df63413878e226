from enum import StrEnum


class FirecrawlUpdateMonitorRequestTargetsType0ItemScrapeOptionsType0Mode(StrEnum):
    AUTO = "auto"
    BROWSER = "browser"
    HTTP = "http"

    def __str__(self) -> str:
        return str(self.value)
