from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_flows_id_runs_body_webhook import PostFlowsIdRunsBodyWebhook


T = TypeVar("T", bound="PostFlowsIdRunsBody")


@_attrs_define
class PostFlowsIdRunsBody:
    """
    Attributes:
        webhook (PostFlowsIdRunsBodyWebhook | Unset):
    """

    webhook: PostFlowsIdRunsBodyWebhook | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        webhook: dict[str, Any] | Unset = UNSET
        if not isinstance(self.webhook, Unset):
            webhook = self.webhook.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if webhook is not UNSET:
            field_dict["webhook"] = webhook

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_flows_id_runs_body_webhook import PostFlowsIdRunsBodyWebhook

        d = dict(src_dict)
        _webhook = d.pop("webhook", UNSET)
        webhook: PostFlowsIdRunsBodyWebhook | Unset
        if isinstance(_webhook, Unset):
            webhook = UNSET
        else:
            webhook = PostFlowsIdRunsBodyWebhook.from_dict(_webhook)

        post_flows_id_runs_body = cls(
            webhook=webhook,
        )

        return post_flows_id_runs_body
