from enum import StrEnum


class PatchMonitorsIdBodyCompare(StrEnum):
    DATA = "data"
    JSON = "json"
    MARKDOWN = "markdown"

    def __str__(self) -> str:
        return str(self.value)
