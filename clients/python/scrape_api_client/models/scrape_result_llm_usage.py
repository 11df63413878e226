from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ScrapeResultLlmUsage")


@_attrs_define
class ScrapeResultLlmUsage:
    """
    Attributes:
        model (str):
        prompt_tokens (int):
        completion_tokens (int):
        calls (int):
    """

    model: str
    prompt_tokens: int
    completion_tokens: int
    calls: int

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        prompt_tokens = self.prompt_tokens

        completion_tokens = self.completion_tokens

        calls = self.calls

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "calls": calls,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        model = d.pop("model")

        prompt_tokens = d.pop("prompt_tokens")

        completion_tokens = d.pop("completion_tokens")

        calls = d.pop("calls")

        scrape_result_llm_usage = cls(
            model=model,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            calls=calls,
        )

        return scrape_result_llm_usage
