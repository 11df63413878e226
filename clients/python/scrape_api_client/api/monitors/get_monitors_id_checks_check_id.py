from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.monitor_check_with_snapshot import MonitorCheckWithSnapshot
from ...types import Response


def _get_kwargs(
    id: str,
    check_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/monitors/{id}/checks/{check_id}".format(
            id=quote(str(id), safe=""),
            check_id=quote(str(check_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | MonitorCheckWithSnapshot | None:
    if response.status_code == 200:
        response_200 = MonitorCheckWithSnapshot.from_dict(response.json())

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
) -> Response[ErrorBody | MonitorCheckWithSnapshot]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    check_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | MonitorCheckWithSnapshot]:
    """One check, with the snapshot it compared

    Args:
        id (str):
        check_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MonitorCheckWithSnapshot]
    """

    kwargs = _get_kwargs(
        id=id,
        check_id=check_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    check_id: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | MonitorCheckWithSnapshot | None:
    """One check, with the snapshot it compared

    Args:
        id (str):
        check_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MonitorCheckWithSnapshot
    """

    return sync_detailed(
        id=id,
        check_id=check_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    check_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[ErrorBody | MonitorCheckWithSnapshot]:
    """One check, with the snapshot it compared

    Args:
        id (str):
        check_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | MonitorCheckWithSnapshot]
    """

    kwargs = _get_kwargs(
        id=id,
        check_id=check_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    check_id: str,
    *,
    client: AuthenticatedClient,
) -> ErrorBody | MonitorCheckWithSnapshot | None:
    """One check, with the snapshot it compared

    Args:
        id (str):
        check_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | MonitorCheckWithSnapshot
    """

    return (
        await asyncio_detailed(
            id=id,
            check_id=check_id,
            client=client,
        )
    ).parsed
