from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CrawlQueuedLinks")


@_attrs_define
class CrawlQueuedLinks:
    """
    Attributes:
        self_ (str):
        pages (str):
        cancel (str):
        resume (str):
    """

    self_: str
    pages: str
    cancel: str
    resume: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        self_ = self.self_

        pages = self.pages

        cancel = self.cancel

        resume = self.resume

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "self": self_,
                "pages": pages,
                "cancel": cancel,
                "resume": resume,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        self_ = d.pop("self")

        pages = d.pop("pages")

        cancel = d.pop("cancel")

        resume = d.pop("resume")

        crawl_queued_links = cls(
            self_=self_,
            pages=pages,
            cancel=cancel,
            resume=resume,
        )

        crawl_queued_links.additional_properties = d
        return crawl_queued_links

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
