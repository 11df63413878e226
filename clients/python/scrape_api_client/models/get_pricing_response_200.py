from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.get_pricing_response_200_cache import GetPricingResponse200Cache
    from ..models.get_pricing_response_200_documents import (
        GetPricingResponse200Documents,
    )
    from ..models.get_pricing_response_200_flow_nodes import (
        GetPricingResponse200FlowNodes,
    )
    from ..models.get_pricing_response_200_jobs import GetPricingResponse200Jobs
    from ..models.get_pricing_response_200_proxy_tiers import (
        GetPricingResponse200ProxyTiers,
    )
    from ..models.get_pricing_response_200_scrape import GetPricingResponse200Scrape
    from ..models.get_pricing_response_200_search import GetPricingResponse200Search


T = TypeVar("T", bound="GetPricingResponse200")


@_attrs_define
class GetPricingResponse200:
    """
    Attributes:
        unit (Literal['credit']):
        scrape (GetPricingResponse200Scrape):
        proxy_tiers (GetPricingResponse200ProxyTiers):
        documents (GetPricingResponse200Documents):
        flow_nodes (GetPricingResponse200FlowNodes):
        jobs (GetPricingResponse200Jobs):
        search (GetPricingResponse200Search):
        refunds (str):
        cache (GetPricingResponse200Cache):
    """

    unit: Literal["credit"]
    scrape: GetPricingResponse200Scrape
    proxy_tiers: GetPricingResponse200ProxyTiers
    documents: GetPricingResponse200Documents
    flow_nodes: GetPricingResponse200FlowNodes
    jobs: GetPricingResponse200Jobs
    search: GetPricingResponse200Search
    refunds: str
    cache: GetPricingResponse200Cache

    def to_dict(self) -> dict[str, Any]:
        unit = self.unit

        scrape = self.scrape.to_dict()

        proxy_tiers = self.proxy_tiers.to_dict()

        documents = self.documents.to_dict()

        flow_nodes = self.flow_nodes.to_dict()

        jobs = self.jobs.to_dict()

        search = self.search.to_dict()

        refunds = self.refunds

        cache = self.cache.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "unit": unit,
                "scrape": scrape,
                "proxy_tiers": proxy_tiers,
                "documents": documents,
                "flow_nodes": flow_nodes,
                "jobs": jobs,
                "search": search,
                "refunds": refunds,
                "cache": cache,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.get_pricing_response_200_cache import GetPricingResponse200Cache
        from ..models.get_pricing_response_200_documents import (
            GetPricingResponse200Documents,
        )
        from ..models.get_pricing_response_200_flow_nodes import (
            GetPricingResponse200FlowNodes,
        )
        from ..models.get_pricing_response_200_jobs import GetPricingResponse200Jobs
        from ..models.get_pricing_response_200_proxy_tiers import (
            GetPricingResponse200ProxyTiers,
        )
        from ..models.get_pricing_response_200_scrape import GetPricingResponse200Scrape
        from ..models.get_pricing_response_200_search import GetPricingResponse200Search

        d = dict(src_dict)
        unit = cast(Literal["credit"], d.pop("unit"))
        if unit != "credit":
            raise ValueError(f"unit must match const 'credit', got '{unit}'")

        scrape = GetPricingResponse200Scrape.from_dict(d.pop("scrape"))

        proxy_tiers = GetPricingResponse200ProxyTiers.from_dict(d.pop("proxy_tiers"))

        documents = GetPricingResponse200Documents.from_dict(d.pop("documents"))

        flow_nodes = GetPricingResponse200FlowNodes.from_dict(d.pop("flow_nodes"))

        jobs = GetPricingResponse200Jobs.from_dict(d.pop("jobs"))

        search = GetPricingResponse200Search.from_dict(d.pop("search"))

        refunds = d.pop("refunds")

        cache = GetPricingResponse200Cache.from_dict(d.pop("cache"))

        get_pricing_response_200 = cls(
            unit=unit,
            scrape=scrape,
            proxy_tiers=proxy_tiers,
            documents=documents,
            flow_nodes=flow_nodes,
            jobs=jobs,
            search=search,
            refunds=refunds,
            cache=cache,
        )

        return get_pricing_response_200
