from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.firecrawl_update_monitor_request_notification_type_0_email_type_0 import (
        FirecrawlUpdateMonitorRequestNotificationType0EmailType0,
    )


T = TypeVar("T", bound="FirecrawlUpdateMonitorRequestNotificationType0")


@_attrs_define
class FirecrawlUpdateMonitorRequestNotificationType0:
    """
    Attributes:
        email (FirecrawlUpdateMonitorRequestNotificationType0EmailType0 | None | Unset):
    """

    email: FirecrawlUpdateMonitorRequestNotificationType0EmailType0 | None | Unset = (
        UNSET
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.firecrawl_update_monitor_request_notification_type_0_email_type_0 import (
            FirecrawlUpdateMonitorRequestNotificationType0EmailType0,
        )

        email: dict[str, Any] | None | Unset
        if isinstance(self.email, Unset):
            email = UNSET
        elif isinstance(
            self.email, FirecrawlUpdateMonitorRequestNotificationType0EmailType0
        ):
            email = self.email.to_dict()
        else:
            email = self.email

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if email is not UNSET:
            field_dict["email"] = email

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.firecrawl_update_monitor_request_notification_type_0_email_type_0 import (
            FirecrawlUpdateMonitorRequestNotificationType0EmailType0,
        )

        d = dict(src_dict)

        def _parse_email(
            data: object,
        ) -> FirecrawlUpdateMonitorRequestNotificationType0EmailType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                email_type_0 = (
                    FirecrawlUpdateMonitorRequestNotificationType0EmailType0.from_dict(
                        data
                    )
                )

                return email_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                FirecrawlUpdateMonitorRequestNotificationType0EmailType0 | None | Unset,
                data,
            )

        email = _parse_email(d.pop("email", UNSET))

        firecrawl_update_monitor_request_notification_type_0 = cls(
            email=email,
        )

        firecrawl_update_monitor_request_notification_type_0.additional_properties = d
        return firecrawl_update_monitor_request_notification_type_0

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
