from enum import StrEnum


class FlowPatchNodesItemType(StrEnum):
    DELAY = "delay"
    FOREACH = "foreach"
    INPUT = "input"
    SCRAPE = "scrape"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
