from enum import StrEnum


class FirecrawlMonitorCheckTrigger(StrEnum):
    MANUAL = "manual"
    SCHEDULED = "scheduled"

    def __str__(self) -> str:
        return str(self.value)
