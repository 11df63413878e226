from enum import StrEnum


class Schema0Type(StrEnum):
    ATTRIBUTE = "attribute"
    HTML = "html"
    LIST = "list"
    NESTED = "nested"
    NUMBER = "number"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
