from enum import StrEnum


class FirecrawlMetadataCacheState(StrEnum):
    HIT = "hit"
    MISS = "miss"

    def __str__(self) -> str:
        return str(self.value)
