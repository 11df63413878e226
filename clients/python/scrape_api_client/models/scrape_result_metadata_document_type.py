from enum import StrEnum


class ScrapeResultMetadataDocumentType(StrEnum):
    DOCX = "docx"
    PDF = "pdf"

    def __str__(self) -> str:
        return str(self.value)
