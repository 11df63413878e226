from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.consent_record import ConsentRecord
    from ..models.get_api_consent_response_200_current import (
        GetApiConsentResponse200Current,
    )
    from ..models.get_api_consent_response_200_versions import (
        GetApiConsentResponse200Versions,
    )


T = TypeVar("T", bound="GetApiConsentResponse200")


@_attrs_define
class GetApiConsentResponse200:
    """
    Attributes:
        versions (GetApiConsentResponse200Versions):
        current (GetApiConsentResponse200Current):
        history (list[ConsentRecord]):
    """

    versions: GetApiConsentResponse200Versions
    current: GetApiConsentResponse200Current
    history: list[ConsentRecord]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        versions = self.versions.to_dict()

        current = self.current.to_dict()

        history = []
        for history_item_data in self.history:
            history_item = history_item_data.to_dict()
            history.append(history_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "versions": versions,
                "current": current,
                "history": history,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.consent_record import ConsentRecord
        from ..models.get_api_consent_response_200_current import (
            GetApiConsentResponse200Current,
        )
        from ..models.get_api_consent_response_200_versions import (
            GetApiConsentResponse200Versions,
        )

        d = dict(src_dict)
        versions = GetApiConsentResponse200Versions.from_dict(d.pop("versions"))

        current = GetApiConsentResponse200Current.from_dict(d.pop("current"))

        history = []
        _history = d.pop("history")
        for history_item_data in _history:
            history_item = ConsentRecord.from_dict(history_item_data)

            history.append(history_item)

        get_api_consent_response_200 = cls(
            versions=versions,
            current=current,
            history=history,
        )

        get_api_consent_response_200.additional_properties = d
        return get_api_consent_response_200

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
