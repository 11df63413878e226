from enum import StrEnum


class PostWebhookUnblockerBodyCookiesItemSameSite(StrEnum):
    LAX = "Lax"
    NONE = "None"
    STRICT = "Strict"

    def __str__(self) -> str:
        return str(self.value)
