from enum import StrEnum


class PostCrawlBodyWebhookEventsItem(StrEnum):
    CRAWL_COMPLETED = "crawl.completed"
    CRAWL_FAILED = "crawl.failed"
    CRAWL_PAGE = "crawl.page"
    FLOW_INPUT_REQUIRED = "flow.input_required"
    FLOW_RUN_COMPLETED = "flow.run.completed"
    FLOW_RUN_FAILED = "flow.run.failed"
    MONITOR_CHANGED = "monitor.changed"
    MONITOR_FAILED = "monitor.failed"
    MONITOR_REMOVED = "monitor.removed"
    SCRAPE_COMPLETED = "scrape.completed"
    SCRAPE_FAILED = "scrape.failed"

    def __str__(self) -> str:
        return str(self.value)
