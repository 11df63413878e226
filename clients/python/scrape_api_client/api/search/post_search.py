from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.post_search_body import PostSearchBody
from ...models.search_result import SearchResult
from ...types import Response


def _get_kwargs(
    *,
    body: PostSearchBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/search",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | SearchResult | None:
    if response.status_code == 200:
        response_200 = SearchResult.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = ErrorBody.from_dict(response.json())

        return response_402

    if response.status_code == 403:
        response_403 = ErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())

        return response_422

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
) -> Response[ErrorBody | SearchResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostSearchBody,
) -> Response[ErrorBody | SearchResult]:
    """Search the web (SearXNG): ranked results per source, optionally each result scraped (1 credit a
    search, plus each page's scrape)

     Results in the backend's order, deduplicated by URL, without the targets the guard refuses
    (blacklist, private addresses), at most `limit` per source. With `scrape`, every web and news result
    is scraped as one batch job (each page its scrape's price, failures refunded), answered with the
    results until `timeout_ms`. 400 SEARCH_NOT_CONFIGURED without a backend (SEARXNG_ENDPOINT); 503
    SEARCH_UNAVAILABLE when it fails (refunded). docs/search.md.

    Args:
        body (PostSearchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SearchResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PostSearchBody,
) -> ErrorBody | SearchResult | None:
    """Search the web (SearXNG): ranked results per source, optionally each result scraped (1 credit a
    search, plus each page's scrape)

     Results in the backend's order, deduplicated by URL, without the targets the guard refuses
    (blacklist, private addresses), at most `limit` per source. With `scrape`, every web and news result
    is scraped as one batch job (each page its scrape's price, failures refunded), answered with the
    results until `timeout_ms`. 400 SEARCH_NOT_CONFIGURED without a backend (SEARXNG_ENDPOINT); 503
    SEARCH_UNAVAILABLE when it fails (refunded). docs/search.md.

    Args:
        body (PostSearchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SearchResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostSearchBody,
) -> Response[ErrorBody | SearchResult]:
    """Search the web (SearXNG): ranked results per source, optionally each result scraped (1 credit a
    search, plus each page's scrape)

     Results in the backend's order, deduplicated by URL, without the targets the guard refuses
    (blacklist, private addresses), at most `limit` per source. With `scrape`, every web and news result
    is scraped as one batch job (each page its scrape's price, failures refunded), answered with the
    results until `timeout_ms`. 400 SEARCH_NOT_CONFIGURED without a backend (SEARXNG_ENDPOINT); 503
    SEARCH_UNAVAILABLE when it fails (refunded). docs/search.md.

    Args:
        body (PostSearchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SearchResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PostSearchBody,
) -> ErrorBody | SearchResult | None:
    """Search the web (SearXNG): ranked results per source, optionally each result scraped (1 credit a
    search, plus each page's scrape)

     Results in the backend's order, deduplicated by URL, without the targets the guard refuses
    (blacklist, private addresses), at most `limit` per source. With `scrape`, every web and news result
    is scraped as one batch job (each page its scrape's price, failures refunded), answered with the
    results until `timeout_ms`. 400 SEARCH_NOT_CONFIGURED without a backend (SEARXNG_ENDPOINT); 503
    SEARCH_UNAVAILABLE when it fails (refunded). docs/search.md.

    Args:
        body (PostSearchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SearchResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
