from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeRunSummaryErrorType0")


@_attrs_define
class ScrapeRunSummaryErrorType0:
    """
    Attributes:
        code (None | str):
        message (None | str):
        blocked_by (None | str): TARGET_BLOCKED: the vendor whose block page every attempt got (docs/scraping.md "Block
            pages")
    """

    code: None | str
    message: None | str
    blocked_by: None | str

    def to_dict(self) -> dict[str, Any]:
        code: None | str
        code = self.code

        message: None | str
        message = self.message

        blocked_by: None | str
        blocked_by = self.blocked_by

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "code": code,
                "message": message,
                "blockedBy": blocked_by,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        code = _parse_code(d.pop("code"))

        def _parse_message(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        message = _parse_message(d.pop("message"))

        def _parse_blocked_by(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        blocked_by = _parse_blocked_by(d.pop("blockedBy"))

        scrape_run_summary_error_type_0 = cls(
            code=code,
            message=message,
            blocked_by=blocked_by,
        )

        return scrape_run_summary_error_type_0
