from enum import StrEnum


class ScrapeResultCacheState(StrEnum):
    HIT = "hit"
    MISS = "miss"

    def __str__(self) -> str:
        return str(self.value)
