from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.post_documents_body import PostDocumentsBody
from ...models.scrape_result import ScrapeResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PostDocumentsBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/documents",
    }

    if not isinstance(body, Unset):
        _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | ScrapeResult | None:
    if response.status_code == 200:
        response_200 = ScrapeResult.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())

        return response_415

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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorBody | ScrapeResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PostDocumentsBody | Unset = UNSET,
) -> Response[ErrorBody | ScrapeResult]:
    """Convert an uploaded PDF or DOCX (multipart/form-data) to markdown, text and metadata, as a document
    target is

     Priced as a document target in http mode (1 credit), refunded when the document cannot be read
    (DOCUMENT_UNREADABLE). At most 10485760 bytes (413 past it).

    Args:
        body (PostDocumentsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ScrapeResult]
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
    body: PostDocumentsBody | Unset = UNSET,
) -> ErrorBody | ScrapeResult | None:
    """Convert an uploaded PDF or DOCX (multipart/form-data) to markdown, text and metadata, as a document
    target is

     Priced as a document target in http mode (1 credit), refunded when the document cannot be read
    (DOCUMENT_UNREADABLE). At most 10485760 bytes (413 past it).

    Args:
        body (PostDocumentsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ScrapeResult
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PostDocumentsBody | Unset = UNSET,
) -> Response[ErrorBody | ScrapeResult]:
    """Convert an uploaded PDF or DOCX (multipart/form-data) to markdown, text and metadata, as a document
    target is

     Priced as a document target in http mode (1 credit), refunded when the document cannot be read
    (DOCUMENT_UNREADABLE). At most 10485760 bytes (413 past it).

    Args:
        body (PostDocumentsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | ScrapeResult]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PostDocumentsBody | Unset = UNSET,
) -> ErrorBody | ScrapeResult | None:
    """Convert an uploaded PDF or DOCX (multipart/form-data) to markdown, text and metadata, as a document
    target is

     Priced as a document target in http mode (1 credit), refunded when the document cannot be read
    (DOCUMENT_UNREADABLE). At most 10485760 bytes (413 past it).

    Args:
        body (PostDocumentsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | ScrapeResult
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
