from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.post_monitors_body_compare import PostMonitorsBodyCompare
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.post_monitors_body_ignore import PostMonitorsBodyIgnore
    from ..models.post_monitors_body_request import PostMonitorsBodyRequest
    from ..models.post_monitors_body_schedule_type_0 import (
        PostMonitorsBodyScheduleType0,
    )
    from ..models.post_monitors_body_schedule_type_1 import (
        PostMonitorsBodyScheduleType1,
    )


T = TypeVar("T", bound="PostMonitorsBody")


@_attrs_define
class PostMonitorsBody:
    """
    Attributes:
        name (str):
        request (PostMonitorsBodyRequest):
        schedule (PostMonitorsBodyScheduleType0 | PostMonitorsBodyScheduleType1):
        compare (PostMonitorsBodyCompare | Unset):  Default: PostMonitorsBodyCompare.MARKDOWN.
        ignore (PostMonitorsBodyIgnore | Unset):
    """

    name: str
    request: PostMonitorsBodyRequest
    schedule: PostMonitorsBodyScheduleType0 | PostMonitorsBodyScheduleType1
    compare: PostMonitorsBodyCompare | Unset = PostMonitorsBodyCompare.MARKDOWN
    ignore: PostMonitorsBodyIgnore | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.post_monitors_body_schedule_type_0 import (
            PostMonitorsBodyScheduleType0,
        )

        name = self.name

        request = self.request.to_dict()

        schedule: dict[str, Any]
        if isinstance(self.schedule, PostMonitorsBodyScheduleType0):
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

        field_dict.update(
            {
                "name": name,
                "request": request,
                "schedule": schedule,
            }
        )
        if compare is not UNSET:
            field_dict["compare"] = compare
        if ignore is not UNSET:
            field_dict["ignore"] = ignore

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.post_monitors_body_ignore import PostMonitorsBodyIgnore
        from ..models.post_monitors_body_request import PostMonitorsBodyRequest
        from ..models.post_monitors_body_schedule_type_0 import (
            PostMonitorsBodyScheduleType0,
        )
        from ..models.post_monitors_body_schedule_type_1 import (
            PostMonitorsBodyScheduleType1,
        )

        d = dict(src_dict)
        name = d.pop("name")

        request = PostMonitorsBodyRequest.from_dict(d.pop("request"))

        def _parse_schedule(
            data: object,
        ) -> PostMonitorsBodyScheduleType0 | PostMonitorsBodyScheduleType1:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = PostMonitorsBodyScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            schedule_type_1 = PostMonitorsBodyScheduleType1.from_dict(data)

            return schedule_type_1

        schedule = _parse_schedule(d.pop("schedule"))

        _compare = d.pop("compare", UNSET)
        compare: PostMonitorsBodyCompare | Unset
        if isinstance(_compare, Unset):
            compare = UNSET
        else:
            compare = PostMonitorsBodyCompare(_compare)

        _ignore = d.pop("ignore", UNSET)
        ignore: PostMonitorsBodyIgnore | Unset
        if isinstance(_ignore, Unset):
            ignore = UNSET
        else:
            ignore = PostMonitorsBodyIgnore.from_dict(_ignore)

        post_monitors_body = cls(
            name=name,
            request=request,
            schedule=schedule,
            compare=compare,
            ignore=ignore,
        )

        return post_monitors_body
