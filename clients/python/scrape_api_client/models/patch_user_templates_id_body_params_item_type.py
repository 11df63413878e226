from enum import StrEnum


class PatchUserTemplatesIdBodyParamsItemType(StrEnum):
    BOOLEAN = "boolean"
    NUMBER = "number"
    STRING = "string"
    URL = "url"

    def __str__(self) -> str:
        return str(self.value)
