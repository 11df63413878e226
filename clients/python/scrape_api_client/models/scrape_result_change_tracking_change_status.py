from enum import StrEnum


class ScrapeResultChangeTrackingChangeStatus(StrEnum):
    CHANGED = "changed"
    NEW = "new"
    REMOVED = "removed"
    SAME = "same"

    def __str__(self) -> str:
        return str(self.value)
