from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.post_temporal_codec_token_encode_body import (
    PostTemporalCodecTokenEncodeBody,
)
from ...models.post_temporal_codec_token_encode_response_200 import (
    PostTemporalCodecTokenEncodeResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    token: str,
    *,
    body: PostTemporalCodecTokenEncodeBody | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/temporal-codec/{token}/encode".format(
            token=quote(str(token), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | PostTemporalCodecTokenEncodeResponse200 | None:
    if response.status_code == 200:
        response_200 = PostTemporalCodecTokenEncodeResponse200.from_dict(
            response.json()
        )

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
) -> Response[ErrorBody | PostTemporalCodecTokenEncodeResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecTokenEncodeBody | Unset = UNSET,
) -> Response[ErrorBody | PostTemporalCodecTokenEncodeResponse200]:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN, here in the
    path)

    Args:
        token (str):
        body (PostTemporalCodecTokenEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PostTemporalCodecTokenEncodeResponse200]
    """

    kwargs = _get_kwargs(
        token=token,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecTokenEncodeBody | Unset = UNSET,
) -> ErrorBody | PostTemporalCodecTokenEncodeResponse200 | None:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN, here in the
    path)

    Args:
        token (str):
        body (PostTemporalCodecTokenEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PostTemporalCodecTokenEncodeResponse200
    """

    return sync_detailed(
        token=token,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecTokenEncodeBody | Unset = UNSET,
) -> Response[ErrorBody | PostTemporalCodecTokenEncodeResponse200]:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN, here in the
    path)

    Args:
        token (str):
        body (PostTemporalCodecTokenEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | PostTemporalCodecTokenEncodeResponse200]
    """

    kwargs = _get_kwargs(
        token=token,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    token: str,
    *,
    client: AuthenticatedClient | Client,
    body: PostTemporalCodecTokenEncodeBody | Unset = UNSET,
) -> ErrorBody | PostTemporalCodecTokenEncodeResponse200 | None:
    """Temporal codec server: encode payloads (operator credential: Bearer OPERATOR_TOKEN, here in the
    path)

    Args:
        token (str):
        body (PostTemporalCodecTokenEncodeBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | PostTemporalCodecTokenEncodeResponse200
    """

    return (
        await asyncio_detailed(
            token=token,
            client=client,
            body=body,
        )
    ).parsed
