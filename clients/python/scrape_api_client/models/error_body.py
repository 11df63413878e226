from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_body_code import ErrorBodyCode

T = TypeVar("T", bound="ErrorBody")


@_attrs_define
class ErrorBody:
    """The standard error body; extra fields (id, links, remaining, cost, dependency) depend on the code.

    Attributes:
        status_code (int):
        message (list[str] | str):
        error (str):
        code (ErrorBodyCode):
    """

    status_code: int
    message: list[str] | str
    error: str
    code: ErrorBodyCode
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status_code = self.status_code

        message: list[str] | str
        if isinstance(self.message, list):
            message = self.message

        else:
            message = self.message

        error = self.error

        code = self.code.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "statusCode": status_code,
                "message": message,
                "error": error,
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status_code = d.pop("statusCode")

        def _parse_message(data: object) -> list[str] | str:
            try:
                if not isinstance(data, list):
                    raise TypeError()
                message_type_1 = cast(list[str], data)

                return message_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | str, data)

        message = _parse_message(d.pop("message"))

        error = d.pop("error")

        code = ErrorBodyCode(d.pop("code"))

        error_body = cls(
            status_code=status_code,
            message=message,
            error=error,
            code=code,
        )

        error_body.additional_properties = d
        return error_body

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
