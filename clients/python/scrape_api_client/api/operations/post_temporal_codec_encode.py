from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.post_temporal_codec_encode_body import PostTemporalCodecEncodeBody
from ...models.post_temporal_codec_encode_response_200 import (
    PostTemporalCodecEncodeResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PostTemporalCodecEncodeBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/temporal-codec/encode",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | PostTemporalCodecEncodeResponse200 | None:
    if response.status_code == 200:
        response_200 = PostTemporalCodecEncodeResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

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
) -> Response[ErrorBody | PostTemporalCodecEncodeResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecEncodeBody | Unset = UNSET,
) -> Response[ErrorBody | PostTemporalCodecEncodeResponse200]:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN)

    Args:
        body (PostTemporalCodecEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PostTemporalCodecEncodeResponse200]
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
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecEncodeBody | Unset = UNSET,
) -> ErrorBody | PostTemporalCodecEncodeResponse200 | None:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN)

    Args:
        body (PostTemporalCodecEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PostTemporalCodecEncodeResponse200
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecEncodeBody | Unset = UNSET,
) -> Response[ErrorBody | PostTemporalCodecEncodeResponse200]:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN)

    Args:
        body (PostTemporalCodecEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PostTemporalCodecEncodeResponse200]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecEncodeBody | Unset = UNSET,
) -> ErrorBody | PostTemporalCodecEncodeResponse200 | None:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN)

    Args:
        body (PostTemporalCodecEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PostTemporalCodecEncodeResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
