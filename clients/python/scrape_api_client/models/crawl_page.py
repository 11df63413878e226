from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.crawl_page_status import CrawlPageStatus
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.crawl_page_error import CrawlPageError


T = TypeVar("T", bound="CrawlPage")


@_attrs_define
class CrawlPage:
    """
    Attributes:
        url (str):
        depth (int):
        status (CrawlPageStatus):
        run_id (None | str):
        http_status (int | None):
        error (CrawlPageError | Unset):
    """

    url: str
    depth: int
    status: CrawlPageStatus
    run_id: None | str
    http_status: int | None
    error: CrawlPageError | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        depth = self.depth

        status = self.status.value

        run_id: None | str
        run_id = self.run_id

        http_status: int | None
        http_status = self.http_status

        error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.error, Unset):
            error = self.error.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "depth": depth,
                "status": status,
                "run_id": run_id,
                "http_status": http_status,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.crawl_page_error import CrawlPageError

        d = dict(src_dict)
        url = d.pop("url")

        depth = d.pop("depth")

        status = CrawlPageStatus(d.pop("status"))

        def _parse_run_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        run_id = _parse_run_id(d.pop("run_id"))

        def _parse_http_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        http_status = _parse_http_status(d.pop("http_status"))

        _error = d.pop("error", UNSET)
        error: CrawlPageError | Unset
        if isinstance(_error, Unset):
            error = UNSET
        else:
            error = CrawlPageError.from_dict(_error)

        crawl_page = cls(
            url=url,
            depth=depth,
            status=status,
            run_id=run_id,
            http_status=http_status,
            error=error,
        )

        crawl_page.additional_properties = d
        return crawl_page

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
