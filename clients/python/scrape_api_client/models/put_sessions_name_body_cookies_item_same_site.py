from enum import StrEnum


class PutSessionsNameBodyCookiesItemSameSite(StrEnum):
    LAX = "Lax"
    NONE = "None"
    STRICT = "Strict"

    def __str__(self) -> str:
        return str(self.value)
