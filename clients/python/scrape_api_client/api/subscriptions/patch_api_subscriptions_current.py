from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.patch_api_subscriptions_current_body import (
    PatchApiSubscriptionsCurrentBody,
)
from ...models.patch_api_subscriptions_current_response_200 import (
    PatchApiSubscriptionsCurrentResponse200,
)
from ...models.patch_api_subscriptions_current_response_202 import (
    PatchApiSubscriptionsCurrentResponse202,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PatchApiSubscriptionsCurrentBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/subscriptions/current",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    ErrorBody
    | PatchApiSubscriptionsCurrentResponse200
    | PatchApiSubscriptionsCurrentResponse202
    | None
):
    if response.status_code == 200:
        response_200 = PatchApiSubscriptionsCurrentResponse200.from_dict(
            response.json()
        )

        return response_200

    if response.status_code == 202:
        response_202 = PatchApiSubscriptionsCurrentResponse202.from_dict(
            response.json()
        )

        return response_202

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

    if response.status_code == 500:
        response_500 = ErrorBody.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    ErrorBody
    | PatchApiSubscriptionsCurrentResponse200
    | PatchApiSubscriptionsCurrentResponse202
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PatchApiSubscriptionsCurrentBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    ErrorBody
    | PatchApiSubscriptionsCurrentResponse200
    | PatchApiSubscriptionsCurrentResponse202
]:
    """Change plan from the next period (202 with a checkout when leaving a free plan for a paid one)

    Args:
        idempotency_key (str | Unset):
        body (PatchApiSubscriptionsCurrentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PatchApiSubscriptionsCurrentResponse200 | PatchApiSubscriptionsCurrentResponse202]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PatchApiSubscriptionsCurrentBody,
    idempotency_key: str | Unset = UNSET,
) -> (
    ErrorBody
    | PatchApiSubscriptionsCurrentResponse200
    | PatchApiSubscriptionsCurrentResponse202
    | None
):
    """Change plan from the next period (202 with a checkout when leaving a free plan for a paid one)

    Args:
        idempotency_key (str | Unset):
        body (PatchApiSubscriptionsCurrentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PatchApiSubscriptionsCurrentResponse200 | PatchApiSubscriptionsCurrentResponse202
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PatchApiSubscriptionsCurrentBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    ErrorBody
    | PatchApiSubscriptionsCurrentResponse200
    | PatchApiSubscriptionsCurrentResponse202
]:
    """Change plan from the next period (202 with a checkout when leaving a free plan for a paid one)

    Args:
        idempotency_key (str | Unset):
        body (PatchApiSubscriptionsCurrentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PatchApiSubscriptionsCurrentResponse200 | PatchApiSubscriptionsCurrentResponse202]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PatchApiSubscriptionsCurrentBody,
    idempotency_key: str | Unset = UNSET,
) -> (
    ErrorBody
    | PatchApiSubscriptionsCurrentResponse200
    | PatchApiSubscriptionsCurrentResponse202
    | None
):
    """Change plan from the next period (202 with a checkout when leaving a free plan for a paid one)

    Args:
        idempotency_key (str | Unset):
        body (PatchApiSubscriptionsCurrentBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PatchApiSubscriptionsCurrentResponse200 | PatchApiSubscriptionsCurrentResponse202
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
