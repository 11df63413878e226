from enum import StrEnum


class PostWebhookUnblockerBodyFormatsItemType0(StrEnum):
    CHANGETRACKING = "changeTracking"
    HTML = "html"
    LINKS = "links"
    MARKDOWN = "markdown"
    METADATA = "metadata"
    RAWHTML = "rawHtml"
    SCREENSHOT = "screenshot"
    SCREENSHOTFULLPAGE = "screenshot@fullPage"
    SUMMARY = "summary"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
