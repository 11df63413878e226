from enum import StrEnum


class FirecrawlV1ScrapeRequestMode(StrEnum):
    AUTO = "auto"
    BROWSER = "browser"
    HTTP = "http"

    def __str__(self) -> str:
        return str(self.value)
