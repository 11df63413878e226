from enum import StrEnum


class GetV2MonitorIdChecksCheckIdStatus(StrEnum):
    CHANGED = "changed"
    ERROR = "error"
    NEW = "new"
    REMOVED = "removed"
    SAME = "same"

    def __str__(self) -> str:
        return str(self.value)
