from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_api_consent_body_kind import PostApiConsentBodyKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="PostApiConsentBody")


@_attrs_define
class PostApiConsentBody:
    """
    Attributes:
        kind (PostApiConsentBodyKind):
        granted (bool):
        version (str | Unset):
    """

    kind: PostApiConsentBodyKind
    granted: bool
    version: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        granted = self.granted

        version = self.version

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "granted": granted,
            }
        )
        if version is not UNSET:
            field_dict["version"] = version

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        kind = PostApiConsentBodyKind(d.pop("kind"))

        granted = d.pop("granted")

        version = d.pop("version", UNSET)

        post_api_consent_body = cls(
            kind=kind,
            granted=granted,
            version=version,
        )

        return post_api_consent_body
