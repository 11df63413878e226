from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_map_body_sitemap import PostMapBodySitemap
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostMapBody")


@_attrs_define
class PostMapBody:
    """
    Attributes:
        url (str):
        limit (int | Unset):  Default: 1000.
        sitemap (PostMapBodySitemap | Unset):  Default: PostMapBodySitemap.INCLUDE.
        include_subdomains (bool | Unset):  Default: False.
        ignore_robots (bool | Unset):  Default: False.
    """

    url: str
    limit: int | Unset = 1000
    sitemap: PostMapBodySitemap | Unset = PostMapBodySitemap.INCLUDE
    include_subdomains: bool | Unset = False
    ignore_robots: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        limit = self.limit

        sitemap: str | Unset = UNSET
        if not isinstance(self.sitemap, Unset):
            sitemap = self.sitemap.value

        include_subdomains = self.include_subdomains

        ignore_robots = self.ignore_robots

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "url": url,
            }
        )
        if limit is not UNSET:
            field_dict["limit"] = limit
        if sitemap is not UNSET:
            field_dict["sitemap"] = sitemap
        if include_subdomains is not UNSET:
            field_dict["include_subdomains"] = include_subdomains
        if ignore_robots is not UNSET:
            field_dict["ignore_robots"] = ignore_robots

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        limit = d.pop("limit", UNSET)

        _sitemap = d.pop("sitemap", UNSET)
        sitemap: PostMapBodySitemap | Unset
        if isinstance(_sitemap, Unset):
            sitemap = UNSET
        else:
            sitemap = PostMapBodySitemap(_sitemap)

        include_subdomains = d.pop("include_subdomains", UNSET)

        ignore_robots = d.pop("ignore_robots", UNSET)

        post_map_body = cls(
            url=url,
            limit=limit,
            sitemap=sitemap,
            include_subdomains=include_subdomains,
            ignore_robots=ignore_robots,
        )

        return post_map_body
