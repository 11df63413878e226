from enum import StrEnum


class PostApiPaymentsIdLocalWebhookBodyOutcome(StrEnum):
    FAILED = "failed"
    REFUNDED = "refunded"
    SUCCEEDED = "succeeded"

    def __str__(self) -> str:
        return str(self.value)
