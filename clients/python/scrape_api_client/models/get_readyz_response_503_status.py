from enum import StrEnum


class GetReadyzResponse503Status(StrEnum):
    DEGRADED = "degraded"
    STARTING = "starting"

    def __str__(self) -> str:
        return str(self.value)
