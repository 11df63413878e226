from enum import StrEnum


class MonitorCheckStatus(StrEnum):
    CHANGED = "changed"
    FAILED = "failed"
    NEW = "new"
    REMOVED = "removed"
    RUNNING = "running"
    SAME = "same"

    def __str__(self) -> str:
        return str(self.value)
