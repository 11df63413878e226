from enum import StrEnum


class FirecrawlCreateMonitorRequestTargetsItemScrapeOptionsType0Mode(StrEnum):
    AUTO = "auto"
    BROWSER = "browser"
    HTTP = "http"

    def __str__(self) -> str:
        return str(self.value)
