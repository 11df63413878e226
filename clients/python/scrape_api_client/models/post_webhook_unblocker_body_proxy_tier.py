from enum import StrEnum


class PostWebhookUnblockerBodyProxyTier(StrEnum):
    AUTO = "auto"
    BASIC = "basic"
    STEALTH = "stealth"

    def __str__(self) -> str:
        return str(self.value)
