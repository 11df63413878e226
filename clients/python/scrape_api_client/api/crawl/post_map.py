from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.map_result import MapResult
from ...models.post_map_body import PostMapBody
from ...types import Response


def _get_kwargs(
    *,
    body: PostMapBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/map",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MapResult | None:
    if response.status_code == 200:
        response_200 = MapResult.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

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

    if response.status_code == 502:
        response_502 = ErrorBody.from_dict(response.json())

        return response_502

    if response.status_code == 503:
        response_503 = ErrorBody.from_dict(response.json())

        return response_503

    if response.status_code == 504:
        response_504 = ErrorBody.from_dict(response.json())

        return response_504

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | MapResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostMapBody,
) -> Response[ErrorBody | MapResult]:
    """A site's URLs without their content: the start page's links and its sitemaps' URLs (1 credit)

     Normalised, deduplicated, on the start URL's origin (or its subdomains with `include_subdomains`),
    at most `limit` (default 1000, at most 10,000). `sitemap`: `include` (default), `skip` (the start
    page's links only) or `only` (the sitemaps only). robots.txt is honoured (nothing it disallows is
    fetched or listed; a robots.txt that answers 5xx/429 or nothing fails the map, refunded) unless
    `ignore_robots: true`. docs/crawl.md "Map".

    Args:
        body (PostMapBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MapResult]
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
    body: PostMapBody,
) -> ErrorBody | MapResult | None:
    """A site's URLs without their content: the start page's links and its sitemaps' URLs (1 credit)

     Normalised, deduplicated, on the start URL's origin (or its subdomains with `include_subdomains`),
    at most `limit` (default 1000, at most 10,000). `sitemap`: `include` (default), `skip` (the start
    page's links only) or `only` (the sitemaps only). robots.txt is honoured (nothing it disallows is
    fetched or listed; a robots.txt that answers 5xx/429 or nothing fails the map, refunded) unless
    `ignore_robots: true`. docs/crawl.md "Map".

    Args:
        body (PostMapBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MapResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostMapBody,
) -> Response[ErrorBody | MapResult]:
    """A site's URLs without their content: the start page's links and its sitemaps' URLs (1 credit)

     Normalised, deduplicated, on the start URL's origin (or its subdomains with `include_subdomains`),
    at most `limit` (default 1000, at most 10,000). `sitemap`: `include` (default), `skip` (the start
    page's links only) or `only` (the sitemaps only). robots.txt is honoured (nothing it disallows is
    fetched or listed; a robots.txt that answers 5xx/429 or nothing fails the map, refunded) unless
    `ignore_robots: true`. docs/crawl.md "Map".

    Args:
        body (PostMapBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MapResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PostMapBody,
) -> ErrorBody | MapResult | None:
    """A site's URLs without their content: the start page's links and its sitemaps' URLs (1 credit)

     Normalised, deduplicated, on the start URL's origin (or its subdomains with `include_subdomains`),
    at most `limit` (default 1000, at most 10,000). `sitemap`: `include` (default), `skip` (the start
    page's links only) or `only` (the sitemaps only). robots.txt is honoured (nothing it disallows is
    fetched or listed; a robots.txt that answers 5xx/429 or nothing fails the map, refunded) unless
    `ignore_robots: true`. docs/crawl.md "Map".

    Args:
        body (PostMapBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MapResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
