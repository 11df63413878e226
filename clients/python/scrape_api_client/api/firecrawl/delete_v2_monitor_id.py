from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.delete_v2_monitor_id_response_200 import DeleteV2MonitorIdResponse200
from ...models.error_body import ErrorBody
from ...models.firecrawl_error import FirecrawlError
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v2/monitor/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError | None:
    if response.status_code == 200:
        response_200 = DeleteV2MonitorIdResponse200.from_dict(response.json())

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
) -> Response[DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError]:
    """Firecrawl v2: delete a monitor, its schedule and its checks

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
) -> DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError | None:
    """Firecrawl v2: delete a monitor, its schedule and its checks

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError]:
    """Firecrawl v2: delete a monitor, its schedule and its checks

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
) -> DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError | None:
    """Firecrawl v2: delete a monitor, its schedule and its checks

     The API key as `Authorization: Bearer <key>` (what the Firecrawl SDKs send) or `x-api-key`. Errors
    are Firecrawl's `{success: false, code, error, details?}` (docs/firecrawl.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeleteV2MonitorIdResponse200 | ErrorBody | FirecrawlError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
