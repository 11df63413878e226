from enum import StrEnum


class FirecrawlMapRequestSitemap(StrEnum):
    INCLUDE = "include"
    ONLY = "only"
    SKIP = "skip"

    def __str__(self) -> str:
        return str(self.value)
