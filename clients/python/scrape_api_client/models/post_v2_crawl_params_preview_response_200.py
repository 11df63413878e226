from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.post_v2_crawl_params_preview_response_200_data import (
        PostV2CrawlParamsPreviewResponse200Data,
    )


T = TypeVar("T", bound="PostV2CrawlParamsPreviewResponse200")


@_attrs_define
class PostV2CrawlParamsPreviewResponse200:
    """
    Attributes:
        success (bool):
        data (PostV2CrawlParamsPreviewResponse200Data): Crawl options for POST /v2/crawl: includePaths, excludePaths,
            maxDiscoveryDepth, limit, sitemap, crawlEntireDomain, allowSubdomains, allowExternalLinks, ignoreQueryParameters
    """

    success: bool
    data: PostV2CrawlParamsPreviewResponse200Data

    def to_dict(self) -> dict[str, Any]:
        success = self.success

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_v2_crawl_params_preview_response_200_data import (
            PostV2CrawlParamsPreviewResponse200Data,
        )

        d = dict(src_dict)
        success = d.pop("success")

        data = PostV2CrawlParamsPreviewResponse200Data.from_dict(d.pop("data"))

        post_v2_crawl_params_preview_response_200 = cls(
            success=success,
            data=data,
        )

        return post_v2_crawl_params_preview_response_200
