from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.crawl_pages import CrawlPages
from ...models.error_body import ErrorBody
from ...models.get_crawl_id_pages_status import GetCrawlIdPagesStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    cursor: str | Unset = UNSET,
    status: GetCrawlIdPagesStatus | Unset = UNSET,
    limit: int | Unset = 100,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/crawl/{id}/pages".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CrawlPages | ErrorBody | None:
    if response.status_code == 200:
        response_200 = CrawlPages.from_dict(response.json())

        return response_200

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
) -> Response[CrawlPages | ErrorBody]:
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
    cursor: str | Unset = UNSET,
    status: GetCrawlIdPagesStatus | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[CrawlPages | ErrorBody]:
    """A job's pages in frontier order (each page's scrape run is at /webhook/runs/{run_id})

    Args:
        id (str):
        cursor (str | Unset):
        status (GetCrawlIdPagesStatus | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CrawlPages | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        cursor=cursor,
        status=status,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    status: GetCrawlIdPagesStatus | Unset = UNSET,
    limit: int | Unset = 100,
) -> CrawlPages | ErrorBody | None:
    """A job's pages in frontier order (each page's scrape run is at /webhook/runs/{run_id})

    Args:
        id (str):
        cursor (str | Unset):
        status (GetCrawlIdPagesStatus | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CrawlPages | ErrorBody
    """

    return sync_detailed(
        id=id,
        client=client,
        cursor=cursor,
        status=status,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    status: GetCrawlIdPagesStatus | Unset = UNSET,
    limit: int | Unset = 100,
) -> Response[CrawlPages | ErrorBody]:
    """A job's pages in frontier order (each page's scrape run is at /webhook/runs/{run_id})

    Args:
        id (str):
        cursor (str | Unset):
        status (GetCrawlIdPagesStatus | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CrawlPages | ErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        cursor=cursor,
        status=status,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    status: GetCrawlIdPagesStatus | Unset = UNSET,
    limit: int | Unset = 100,
) -> CrawlPages | ErrorBody | None:
    """A job's pages in frontier order (each page's scrape run is at /webhook/runs/{run_id})

    Args:
        id (str):
        cursor (str | Unset):
        status (GetCrawlIdPagesStatus | Unset):
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CrawlPages | ErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            cursor=cursor,
            status=status,
            limit=limit,
        )
    ).parsed
