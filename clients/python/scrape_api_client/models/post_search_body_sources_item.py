from enum import StrEnum


class PostSearchBodySourcesItem(StrEnum):
    IMAGES = "images"
    NEWS = "news"
    WEB = "web"

    def __str__(self) -> str:
        return str(self.value)
