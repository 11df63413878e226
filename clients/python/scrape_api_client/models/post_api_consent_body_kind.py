from enum import StrEnum


class PostApiConsentBodyKind(StrEnum):
    MARKETING = "marketing"
    PRIVACY = "privacy"
    TERMS = "terms"

    def __str__(self) -> str:
        return str(self.value)
