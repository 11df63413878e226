from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.firecrawl_document_actions_javascript_returns_item import (
        FirecrawlDocumentActionsJavascriptReturnsItem,
    )
    from ..models.firecrawl_document_actions_scrapes_item import (
        FirecrawlDocumentActionsScrapesItem,
    )


T = TypeVar("T", bound="FirecrawlDocumentActions")


@_attrs_define
class FirecrawlDocumentActions:
    """With `actions`: what they produced

    Attributes:
        screenshots (list[str]): One per screenshot action, data:image/png;base64,…
        scrapes (list[FirecrawlDocumentActionsScrapesItem]):
        javascript_returns (list[FirecrawlDocumentActionsJavascriptReturnsItem]):
        pdfs (list[str]): Always empty (no pdf action)
    """

    screenshots: list[str]
    scrapes: list[FirecrawlDocumentActionsScrapesItem]
    javascript_returns: list[FirecrawlDocumentActionsJavascriptReturnsItem]
    pdfs: list[str]

    def to_dict(self) -> dict[str, Any]:
        screenshots = self.screenshots

        scrapes = []
        for scrapes_item_data in self.scrapes:
            scrapes_item = scrapes_item_data.to_dict()
            scrapes.append(scrapes_item)

        javascript_returns = []
        for javascript_returns_item_data in self.javascript_returns:
            javascript_returns_item = javascript_returns_item_data.to_dict()
            javascript_returns.append(javascript_returns_item)

        pdfs = self.pdfs

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "screenshots": screenshots,
                "scrapes": scrapes,
                "javascriptReturns": javascript_returns,
                "pdfs": pdfs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_document_actions_javascript_returns_item import (
            FirecrawlDocumentActionsJavascriptReturnsItem,
        )
        from ..models.firecrawl_document_actions_scrapes_item import (
            FirecrawlDocumentActionsScrapesItem,
        )

        d = dict(src_dict)
        screenshots = cast(list[str], d.pop("screenshots"))

        scrapes = []
        _scrapes = d.pop("scrapes")
        for scrapes_item_data in _scrapes:
            scrapes_item = FirecrawlDocumentActionsScrapesItem.from_dict(
                scrapes_item_data
            )

            scrapes.append(scrapes_item)

        javascript_returns = []
        _javascript_returns = d.pop("javascriptReturns")
        for javascript_returns_item_data in _javascript_returns:
            javascript_returns_item = (
                FirecrawlDocumentActionsJavascriptReturnsItem.from_dict(
                    javascript_returns_item_data
                )
            )

            javascript_returns.append(javascript_returns_item)

        pdfs = cast(list[str], d.pop("pdfs"))

        firecrawl_document_actions = cls(
            screenshots=screenshots,
            scrapes=scrapes,
            javascript_returns=javascript_returns,
            pdfs=pdfs,
        )

        return firecrawl_document_actions
