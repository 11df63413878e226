from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.scrape_run import ScrapeRun
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/webhook/runs/{id}/cancel".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ScrapeRun | None:
    if response.status_code == 200:
        response_200 = ScrapeRun.from_dict(response.json())

        return response_200

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

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = ErrorBody.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | ScrapeRun]:
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
) -> Response[ErrorBody | ScrapeRun]:
    """Cancel a queued or running scrape run (its neighbours untouched): recorded cancelled, refunded when
    it was debited; a repeat answers the same

     The run as `GET /webhook/runs/{id}` then shows it: `status: "cancelled"`, `error: {code:
    "CANCELLED", message, refunded}`. A run that already succeeded or failed → 409 `CONFLICT`. A scrape
    of a flow run, or a page of a crawl or batch job, is cancelled with its job → 409 `CONFLICT` naming
    its cancel route. docs/scraping.md "Cancelling a run".

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ScrapeRun]
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
) -> ErrorBody | ScrapeRun | None:
    """Cancel a queued or running scrape run (its neighbours untouched): recorded cancelled, refunded when
    it was debited; a repeat answers the same

     The run as `GET /webhook/runs/{id}` then shows it: `status: "cancelled"`, `error: {code:
    "CANCELLED", message, refunded}`. A run that already succeeded or failed → 409 `CONFLICT`. A scrape
    of a flow run, or a page of a crawl or batch job, is cancelled with its job → 409 `CONFLICT` naming
    its cancel route. docs/scraping.md "Cancelling a run".

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ScrapeRun
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | ScrapeRun]:
    """Cancel a queued or running scrape run (its neighbours untouched): recorded cancelled, refunded when
    it was debited; a repeat answers the same

     The run as `GET /webhook/runs/{id}` then shows it: `status: "cancelled"`, `error: {code:
    "CANCELLED", message, refunded}`. A run that already succeeded or failed → 409 `CONFLICT`. A scrape
    of a flow run, or a page of a crawl or batch job, is cancelled with its job → 409 `CONFLICT` naming
    its cancel route. docs/scraping.md "Cancelling a run".

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ScrapeRun]
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
) -> ErrorBody | ScrapeRun | None:
    """Cancel a queued or running scrape run (its neighbours untouched): recorded cancelled, refunded when
    it was debited; a repeat answers the same

     The run as `GET /webhook/runs/{id}` then shows it: `status: "cancelled"`, `error: {code:
    "CANCELLED", message, refunded}`. A run that already succeeded or failed → 409 `CONFLICT`. A scrape
    of a flow run, or a page of a crawl or batch job, is cancelled with its job → 409 `CONFLICT` naming
    its cancel route. docs/scraping.md "Cancelling a run".

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ScrapeRun
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
