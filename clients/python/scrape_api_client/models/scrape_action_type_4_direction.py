from enum import StrEnum


class ScrapeActionType4Direction(StrEnum):
    DOWN = "down"
    UP = "up"

    def __str__(self) -> str:
        return str(self.value)
