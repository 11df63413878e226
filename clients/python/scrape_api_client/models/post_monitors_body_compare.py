from enum import StrEnum


class PostMonitorsBodyCompare(StrEnum):
    DATA = "data"
    JSON = "json"
    MARKDOWN = "markdown"

    def __str__(self) -> str:
        return str(self.value)
