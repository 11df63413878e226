from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScrapeRunProxyAttemptsItem")


@_attrs_define
class ScrapeRunProxyAttemptsItem:
    """
    Attributes:
        attempt (int):
        proxy (str): host:port of the outbound proxy (never its credentials)
        outcome (str):
        message (str | Unset):
    """

    attempt: int
    proxy: str
    outcome: str
    message: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        attempt = self.attempt

        proxy = self.proxy

        outcome = self.outcome

        message = self.message

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "attempt": attempt,
                "proxy": proxy,
                "outcome": outcome,
            }
        )
        if message is not UNSET:
            field_dict["message"] = message

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        attempt = d.pop("attempt")

        proxy = d.pop("proxy")

        outcome = d.pop("outcome")

        message = d.pop("message", UNSET)

        scrape_run_proxy_attempts_item = cls(
            attempt=attempt,
            proxy=proxy,
            outcome=outcome,
            message=message,
        )

        return scrape_run_proxy_attempts_item
