from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.search_result_credits import SearchResultCredits
    from ..models.search_result_images_item import SearchResultImagesItem
    from ..models.search_result_news_item import SearchResultNewsItem
    from ..models.search_result_web_item import SearchResultWebItem


T = TypeVar("T", bound="SearchResult")


@_attrs_define
class SearchResult:
    """
    Attributes:
        id (str): The search (the ledger rows of its price carry it as runId)
        query (str):
        credits_ (SearchResultCredits):
        web (list[SearchResultWebItem] | Unset):
        news (list[SearchResultNewsItem] | Unset):
        images (list[SearchResultImagesItem] | Unset):
        batch_id (str | Unset): With `scrape`: the batch job of the results' pages (GET /crawl/{batch_id})
        warning (str | Unset):
    """

    id: str
    query: str
    credits_: SearchResultCredits
    web: list[SearchResultWebItem] | Unset = UNSET
    news: list[SearchResultNewsItem] | Unset = UNSET
    images: list[SearchResultImagesItem] | Unset = UNSET
    batch_id: str | Unset = UNSET
    warning: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        query = self.query

        credits_ = self.credits_.to_dict()

        web: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.web, Unset):
            web = []
            for web_item_data in self.web:
                web_item = web_item_data.to_dict()
                web.append(web_item)

        news: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.news, Unset):
            news = []
            for news_item_data in self.news:
                news_item = news_item_data.to_dict()
                news.append(news_item)

        images: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.images, Unset):
            images = []
            for images_item_data in self.images:
                images_item = images_item_data.to_dict()
                images.append(images_item)

        batch_id = self.batch_id

        warning = self.warning

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "query": query,
                "credits": credits_,
            }
        )
        if web is not UNSET:
            field_dict["web"] = web
        if news is not UNSET:
            field_dict["news"] = news
        if images is not UNSET:
            field_dict["images"] = images
        if batch_id is not UNSET:
            field_dict["batch_id"] = batch_id
        if warning is not UNSET:
            field_dict["warning"] = warning

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.search_result_credits import SearchResultCredits
        from ..models.search_result_images_item import SearchResultImagesItem
        from ..models.search_result_news_item import SearchResultNewsItem
        from ..models.search_result_web_item import SearchResultWebItem

        d = dict(src_dict)
        id = d.pop("id")

        query = d.pop("query")

        credits_ = SearchResultCredits.from_dict(d.pop("credits"))

        _web = d.pop("web", UNSET)
        web: list[SearchResultWebItem] | Unset = UNSET
        if _web is not UNSET:
            web = []
            for web_item_data in _web:
                web_item = SearchResultWebItem.from_dict(web_item_data)

                web.append(web_item)

        _news = d.pop("news", UNSET)
        news: list[SearchResultNewsItem] | Unset = UNSET
        if _news is not UNSET:
            news = []
            for news_item_data in _news:
                news_item = SearchResultNewsItem.from_dict(news_item_data)

                news.append(news_item)

        _images = d.pop("images", UNSET)
        images: list[SearchResultImagesItem] | Unset = UNSET
        if _images is not UNSET:
            images = []
            for images_item_data in _images:
                images_item = SearchResultImagesItem.from_dict(images_item_data)

                images.append(images_item)

        batch_id = d.pop("batch_id", UNSET)

        warning = d.pop("warning", UNSET)

        search_result = cls(
            id=id,
            query=query,
            credits_=credits_,
            web=web,
            news=news,
            images=images,
            batch_id=batch_id,
            warning=warning,
        )

        return search_result
