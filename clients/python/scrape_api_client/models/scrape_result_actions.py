from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.scrape_result_actions_javascript_returns_item import (
        ScrapeResultActionsJavascriptReturnsItem,
    )
    from ..models.scrape_result_actions_scrapes_item import (
        ScrapeResultActionsScrapesItem,
    )
    from ..models.scrape_result_actions_screenshots_item import (
        ScrapeResultActionsScreenshotsItem,
    )


T = TypeVar("T", bound="ScrapeResultActions")


@_attrs_define
class ScrapeResultActions:
    """
    Attributes:
        screenshots (list[ScrapeResultActionsScreenshotsItem]):
        scrapes (list[ScrapeResultActionsScrapesItem]):
        javascript_returns (list[ScrapeResultActionsJavascriptReturnsItem]):
    """

    screenshots: list[ScrapeResultActionsScreenshotsItem]
    scrapes: list[ScrapeResultActionsScrapesItem]
    javascript_returns: list[ScrapeResultActionsJavascriptReturnsItem]

    def to_dict(self) -> dict[str, Any]:
        screenshots = []
        for screenshots_item_data in self.screenshots:
            screenshots_item = screenshots_item_data.to_dict()
            screenshots.append(screenshots_item)

        scrapes = []
        for scrapes_item_data in self.scrapes:
            scrapes_item = scrapes_item_data.to_dict()
            scrapes.append(scrapes_item)

        javascript_returns = []
        for javascript_returns_item_data in self.javascript_returns:
            javascript_returns_item = javascript_returns_item_data.to_dict()
            javascript_returns.append(javascript_returns_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "screenshots": screenshots,
                "scrapes": scrapes,
                "javascriptReturns": javascript_returns,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.scrape_result_actions_javascript_returns_item import (
            ScrapeResultActionsJavascriptReturnsItem,
        )
        from ..models.scrape_result_actions_scrapes_item import (
            ScrapeResultActionsScrapesItem,
        )
        from ..models.scrape_result_actions_screenshots_item import (
            ScrapeResultActionsScreenshotsItem,
        )

        d = dict(src_dict)
        screenshots = []
        _screenshots = d.pop("screenshots")
        for screenshots_item_data in _screenshots:
            screenshots_item = ScrapeResultActionsScreenshotsItem.from_dict(
                screenshots_item_data
            )

            screenshots.append(screenshots_item)

        scrapes = []
        _scrapes = d.pop("scrapes")
        for scrapes_item_data in _scrapes:
            scrapes_item = ScrapeResultActionsScrapesItem.from_dict(scrapes_item_data)

            scrapes.append(scrapes_item)

        javascript_returns = []
        _javascript_returns = d.pop("javascriptReturns")
        for javascript_returns_item_data in _javascript_returns:
            javascript_returns_item = (
                ScrapeResultActionsJavascriptReturnsItem.from_dict(
                    javascript_returns_item_data
                )
            )

            javascript_returns.append(javascript_returns_item)

        scrape_result_actions = cls(
            screenshots=screenshots,
            scrapes=scrapes,
            javascript_returns=javascript_returns,
        )

        return scrape_result_actions
