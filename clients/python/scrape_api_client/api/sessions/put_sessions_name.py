from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.put_sessions_name_body import PutSessionsNameBody
from ...models.session import Session
from ...types import Response


def _get_kwargs(
    name: str,
    *,
    body: PutSessionsNameBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/sessions/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | Session | None:
    if response.status_code == 200:
        response_200 = Session.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Session.from_dict(response.json())

        return response_201

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
) -> Response[ErrorBody | Session]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
    body: PutSessionsNameBody,
) -> Response[ErrorBody | Session]:
    """Import a Playwright storage state (`context.storageState()`) as the session of that name, replacing
    its state

     The body is the JSON Playwright writes (`cookies`, `origins` with `localStorage`; other keys are
    ignored). 201 when the session is new, 200 when replaced. Stored encrypted; the answer is its
    metadata only. Limits: SESSION_MAX_BYTES (413 `SESSION_TOO_LARGE`), SESSIONS_PER_ACCOUNT (409
    `SESSION_LIMIT_REACHED`). docs/scraping.md "Sessions".

    Args:
        name (str):
        body (PutSessionsNameBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Session]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient,
    body: PutSessionsNameBody,
) -> ErrorBody | Session | None:
    """Import a Playwright storage state (`context.storageState()`) as the session of that name, replacing
    its state

     The body is the JSON Playwright writes (`cookies`, `origins` with `localStorage`; other keys are
    ignored). 201 when the session is new, 200 when replaced. Stored encrypted; the answer is its
    metadata only. Limits: SESSION_MAX_BYTES (413 `SESSION_TOO_LARGE`), SESSIONS_PER_ACCOUNT (409
    `SESSION_LIMIT_REACHED`). docs/scraping.md "Sessions".

    Args:
        name (str):
        body (PutSessionsNameBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Session
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient,
    body: PutSessionsNameBody,
) -> Response[ErrorBody | Session]:
    """Import a Playwright storage state (`context.storageState()`) as the session of that name, replacing
    its state

     The body is the JSON Playwright writes (`cookies`, `origins` with `localStorage`; other keys are
    ignored). 201 when the session is new, 200 when replaced. Stored encrypted; the answer is its
    metadata only. Limits: SESSION_MAX_BYTES (413 `SESSION_TOO_LARGE`), SESSIONS_PER_ACCOUNT (409
    `SESSION_LIMIT_REACHED`). docs/scraping.md "Sessions".

    Args:
        name (str):
        body (PutSessionsNameBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | Session]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient,
    body: PutSessionsNameBody,
) -> ErrorBody | Session | None:
    """Import a Playwright storage state (`context.storageState()`) as the session of that name, replacing
    its state

     The body is the JSON Playwright writes (`cookies`, `origins` with `localStorage`; other keys are
    ignored). 201 when the session is new, 200 when replaced. Stored encrypted; the answer is its
    metadata only. Limits: SESSION_MAX_BYTES (413 `SESSION_TOO_LARGE`), SESSIONS_PER_ACCOUNT (409
    `SESSION_LIMIT_REACHED`). docs/scraping.md "Sessions".

    Args:
        name (str):
        body (PutSessionsNameBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | Session
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
