from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_error_details_type_0 import FirecrawlErrorDetailsType0


T = TypeVar("T", bound="FirecrawlError")


@_attrs_define
class FirecrawlError:
    """
    Attributes:
        success (bool):
        code (str): Firecrawl's code where one exists (BAD_REQUEST, SCRAPE_TIMEOUT, …), else ours (docs/errors.md)
        error (str):
        details (FirecrawlErrorDetailsType0 | list[Any] | Unset):
    """

    success: bool
    code: str
    error: str
    details: FirecrawlErrorDetailsType0 | list[Any] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_error_details_type_0 import FirecrawlErrorDetailsType0

        success = self.success

        code = self.code

        error = self.error

        details: dict[str, Any] | list[Any] | Unset
        if isinstance(self.details, Unset):
            details = UNSET
        elif isinstance(self.details, FirecrawlErrorDetailsType0):
            details = self.details.to_dict()
        else:
            details = self.details

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "success": success,
                "code": code,
                "error": error,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_error_details_type_0 import FirecrawlErrorDetailsType0

        d = dict(src_dict)
        success = d.pop("success")

        code = d.pop("code")

        error = d.pop("error")

        def _parse_details(
            data: object,
        ) -> FirecrawlErrorDetailsType0 | list[Any] | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                details_type_0 = FirecrawlErrorDetailsType0.from_dict(data)

                return details_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            details_type_1 = cast(list[Any], data)

            return details_type_1

        details = _parse_details(d.pop("details", UNSET))

        firecrawl_error = cls(
            success=success,
            code=code,
            error=error,
            details=details,
        )

        return firecrawl_error
