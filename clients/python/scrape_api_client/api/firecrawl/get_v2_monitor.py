from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.firecrawl_error import FirecrawlError
from ...models.get_v2_monitor_response_200 import GetV2MonitorResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 25,
    offset: int | Unset = 0,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v2/monitor",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | FirecrawlError | GetV2MonitorResponse200 | None:
    if response.status_code == 200:
        response_200 = GetV2MonitorResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = FirecrawlError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = FirecrawlError.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = FirecrawlError.from_dict(response.json())

        return response_402

    if response.status_code == 403:
        response_403 = FirecrawlError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = FirecrawlError.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = FirecrawlError.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = FirecrawlError.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = FirecrawlError.from_dict(response.json())

        return response_413

    if response.status_code == 429:
        response_429 = FirecrawlError.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = FirecrawlError.from_dict(response.json())

        return response_500

    if response.status_code == 502:
        response_502 = FirecrawlError.from_dict(response.json())

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
) -> Response[ErrorBody | FirecrawlError | GetV2MonitorResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    offset: int | Unset = 0,
) -> Response[ErrorBody | FirecrawlError | GetV2MonitorResponse200]:
    """Firecrawl v2: the account's monitors, newest first

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        limit (int | Unset):  Default: 25.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FirecrawlError | GetV2MonitorResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    offset: int | Unset = 0,
) -> ErrorBody | FirecrawlError | GetV2MonitorResponse200 | None:
    """Firecrawl v2: the account's monitors, newest first

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        limit (int | Unset):  Default: 25.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FirecrawlError | GetV2MonitorResponse200
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    offset: int | Unset = 0,
) -> Response[ErrorBody | FirecrawlError | GetV2MonitorResponse200]:
    """Firecrawl v2: the account's monitors, newest first

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        limit (int | Unset):  Default: 25.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FirecrawlError | GetV2MonitorResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    offset: int | Unset = 0,
) -> ErrorBody | FirecrawlError | GetV2MonitorResponse200 | None:
    """Firecrawl v2: the account's monitors, newest first

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        limit (int | Unset):  Default: 25.
        offset (int | Unset):  Default: 0.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FirecrawlError | GetV2MonitorResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
        )
    ).parsed
