from enum import StrEnum


class PostWebhookUnblockerBodyProxy(StrEnum):
    DEFAULT = "default"
    NONE = "none"

    def __str__(self) -> str:
        return str(self.value)
