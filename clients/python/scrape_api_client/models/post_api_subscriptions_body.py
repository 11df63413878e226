from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PostApiSubscriptionsBody")


@_attrs_define
class PostApiSubscriptionsBody:
    """
    Attributes:
        plan_id (str):
    """

    plan_id: str

    def to_dict(self) -> dict[str, Any]:
        plan_id = self.plan_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "planId": plan_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        plan_id = d.pop("planId")

        post_api_subscriptions_body = cls(
            plan_id=plan_id,
        )

        return post_api_subscriptions_body
