from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.patch_monitors_id_body_compare import PatchMonitorsIdBodyCompare
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_monitors_id_body_ignore import PatchMonitorsIdBodyIgnore
    from ..models.patch_monitors_id_body_request import PatchMonitorsIdBodyRequest
    from ..models.patch_monitors_id_body_schedule_type_0 import (
        PatchMonitorsIdBodyScheduleType0,
    )
    from ..models.patch_monitors_id_body_schedule_type_1 import (
        PatchMonitorsIdBodyScheduleType1,
    )


T = TypeVar("T", bound="PatchMonitorsIdBody")


@_attrs_define
class PatchMonitorsIdBody:
    """
    Attributes:
        name (str | Unset):
        request (PatchMonitorsIdBodyRequest | Unset):
        schedule (PatchMonitorsIdBodyScheduleType0 | PatchMonitorsIdBodyScheduleType1 | Unset):
        compare (PatchMonitorsIdBodyCompare | Unset):
        ignore (PatchMonitorsIdBodyIgnore | Unset):
    """

    name: str | Unset = UNSET
    request: PatchMonitorsIdBodyRequest | Unset = UNSET
    schedule: (
        PatchMonitorsIdBodyScheduleType0 | PatchMonitorsIdBodyScheduleType1 | Unset
    ) = UNSET
    compare: PatchMonitorsIdBodyCompare | Unset = UNSET
    ignore: PatchMonitorsIdBodyIgnore | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.patch_monitors_id_body_schedule_type_0 import (
            PatchMonitorsIdBodyScheduleType0,
        )

        name = self.name

        request: dict[str, Any] | Unset = UNSET
        if not isinstance(self.request, Unset):
            request = self.request.to_dict()

        schedule: dict[str, Any] | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, PatchMonitorsIdBodyScheduleType0):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule.to_dict()

        compare: str | Unset = UNSET
        if not isinstance(self.compare, Unset):
            compare = self.compare.value

        ignore: dict[str, Any] | Unset = UNSET
        if not isinstance(self.ignore, Unset):
            ignore = self.ignore.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if request is not UNSET:
            field_dict["request"] = request
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if compare is not UNSET:
            field_dict["compare"] = compare
        if ignore is not UNSET:
            field_dict["ignore"] = ignore

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.patch_monitors_id_body_ignore import PatchMonitorsIdBodyIgnore
        from ..models.patch_monitors_id_body_request import PatchMonitorsIdBodyRequest
        from ..models.patch_monitors_id_body_schedule_type_0 import (
            PatchMonitorsIdBodyScheduleType0,
        )
        from ..models.patch_monitors_id_body_schedule_type_1 import (
            PatchMonitorsIdBodyScheduleType1,
        )

        d = dict(src_dict)
        name = d.pop("name", UNSET)

        _request = d.pop("request", UNSET)
        request: PatchMonitorsIdBodyRequest | Unset
        if isinstance(_request, Unset):
            request = UNSET
        else:
            request = PatchMonitorsIdBodyRequest.from_dict(_request)

        def _parse_schedule(
            data: object,
        ) -> (
            PatchMonitorsIdBodyScheduleType0 | PatchMonitorsIdBodyScheduleType1 | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = PatchMonitorsIdBodyScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            schedule_type_1 = PatchMonitorsIdBodyScheduleType1.from_dict(data)

            return schedule_type_1

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        _compare = d.pop("compare", UNSET)
        compare: PatchMonitorsIdBodyCompare | Unset
        if isinstance(_compare, Unset):
            compare = UNSET
        else:
            compare = PatchMonitorsIdBodyCompare(_compare)

        _ignore = d.pop("ignore", UNSET)
        ignore: PatchMonitorsIdBodyIgnore | Unset
        if isinstance(_ignore, Unset):
            ignore = UNSET
        else:
            ignore = PatchMonitorsIdBodyIgnore.from_dict(_ignore)

        patch_monitors_id_body = cls(
            name=name,
            request=request,
            schedule=schedule,
            compare=compare,
            ignore=ignore,
        )

        return patch_monitors_id_body
