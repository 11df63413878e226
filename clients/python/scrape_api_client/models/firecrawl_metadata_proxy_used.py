from enum import StrEnum


class FirecrawlMetadataProxyUsed(StrEnum):
    BASIC = "basic"
    STEALTH = "stealth"

    def __str__(self) -> str:
        return str(self.value)
