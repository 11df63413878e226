from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.map_result_credits import MapResultCredits


T = TypeVar("T", bound="MapResult")


@_attrs_define
class MapResult:
    """
    Attributes:
        id (str): The run: GET /webhook/runs/{id} shows it
        url (str):
        links (list[str]): Normalised, deduplicated, in scope; the start page first, then its links, then sitemap URLs
        credits_ (MapResultCredits):
    """

    id: str
    url: str
    links: list[str]
    credits_: MapResultCredits

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        url = self.url

        links = self.links

        credits_ = self.credits_.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "url": url,
                "links": links,
                "credits": credits_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.map_result_credits import MapResultCredits

        d = dict(src_dict)
        id = d.pop("id")

        url = d.pop("url")

        links = cast(list[str], d.pop("links"))

        credits_ = MapResultCredits.from_dict(d.pop("credits"))

        map_result = cls(
            id=id,
            url=url,
            links=links,
            credits_=credits_,
        )

        return map_result
