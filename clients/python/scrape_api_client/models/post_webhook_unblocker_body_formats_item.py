from enum import StrEnum


class PostWebhookUnblockerBodyFormatsItem(StrEnum):
    HTML = "html"
    LINKS = "links"
    MARKDOWN = "markdown"
    METADATA = "metadata"
    RAWHTML = "rawHtml"
    SCREENSHOT = "screenshot"
    SCREENSHOTFULLPAGE = "screenshot@fullPage"
    TEXT = "text"

    def __str__(self) -> str:
        return str(self.value)
