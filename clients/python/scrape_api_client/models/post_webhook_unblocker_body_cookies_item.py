from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_webhook_unblocker_body_cookies_item_same_site import (
    PostWebhookUnblockerBodyCookiesItemSameSite,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostWebhookUnblockerBodyCookiesItem")


@_attrs_define
class PostWebhookUnblockerBodyCookiesItem:
    """
    Attributes:
        name (str):
        value (str):
        domain (str | Unset):
        path (str | Unset):
        expires (float | Unset):
        http_only (bool | Unset):
        secure (bool | Unset):
        same_site (PostWebhookUnblockerBodyCookiesItemSameSite | Unset):
    """

    name: str
    value: str
    domain: str | Unset = UNSET
    path: str | Unset = UNSET
    expires: float | Unset = UNSET
    http_only: bool | Unset = UNSET
    secure: bool | Unset = UNSET
    same_site: PostWebhookUnblockerBodyCookiesItemSameSite | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        value = self.value

        domain = self.domain

        path = self.path

        expires = self.expires

        http_only = self.http_only

        secure = self.secure

        same_site: str | Unset = UNSET
        if not isinstance(self.same_site, Unset):
            same_site = self.same_site.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "value": value,
            }
        )
        if domain is not UNSET:
            field_dict["domain"] = domain
        if path is not UNSET:
            field_dict["path"] = path
        if expires is not UNSET:
            field_dict["expires"] = expires
        if http_only is not UNSET:
            field_dict["httpOnly"] = http_only
        if secure is not UNSET:
            field_dict["secure"] = secure
        if same_site is not UNSET:
            field_dict["sameSite"] = same_site

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        value = d.pop("value")

        domain = d.pop("domain", UNSET)

        path = d.pop("path", UNSET)

        expires = d.pop("expires", UNSET)

        http_only = d.pop("httpOnly", UNSET)

        secure = d.pop("secure", UNSET)

        _same_site = d.pop("sameSite", UNSET)
        same_site: PostWebhookUnblockerBodyCookiesItemSameSite | Unset
        if isinstance(_same_site, Unset):
            same_site = UNSET
        else:
            same_site = PostWebhookUnblockerBodyCookiesItemSameSite(_same_site)

        post_webhook_unblocker_body_cookies_item = cls(
            name=name,
            value=value,
            domain=domain,
            path=path,
            expires=expires,
            http_only=http_only,
            secure=secure,
            same_site=same_site,
        )

        return post_webhook_unblocker_body_cookies_item
