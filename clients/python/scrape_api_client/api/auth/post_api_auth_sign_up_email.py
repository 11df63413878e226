from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_library_error import AuthLibraryError
from ...models.error_body import ErrorBody
from ...models.post_api_auth_sign_up_email_body import PostApiAuthSignUpEmailBody
from ...models.post_api_auth_sign_up_email_response_200 import (
    PostApiAuthSignUpEmailResponse200,
)
from ...types import Response


def _get_kwargs(
    *,
    body: PostApiAuthSignUpEmailBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/auth/sign-up/email",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuthLibraryError | ErrorBody | PostApiAuthSignUpEmailResponse200 | None:
    if response.status_code == 200:
        response_200 = PostApiAuthSignUpEmailResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 403:
        response_403 = AuthLibraryError.from_dict(response.json())

        return response_403

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())

        return response_413

    if response.status_code == 422:

        def _parse_response_422(data: object) -> AuthLibraryError | ErrorBody:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_422_type_0 = ErrorBody.from_dict(data)

                return response_422_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_422_type_1 = AuthLibraryError.from_dict(data)

            return response_422_type_1

        response_422 = _parse_response_422(response.json())

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
) -> Response[AuthLibraryError | ErrorBody | PostApiAuthSignUpEmailResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PostApiAuthSignUpEmailBody,
) -> Response[AuthLibraryError | ErrorBody | PostApiAuthSignUpEmailResponse200]:
    """Sign up with email and password (sets the session cookie)

    Args:
        body (PostApiAuthSignUpEmailBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthLibraryError | AuthLibraryError | ErrorBody | ErrorBody | PostApiAuthSignUpEmailResponse200]
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
    body: PostApiAuthSignUpEmailBody,
) -> AuthLibraryError | ErrorBody | PostApiAuthSignUpEmailResponse200 | None:
    """Sign up with email and password (sets the session cookie)

    Args:
        body (PostApiAuthSignUpEmailBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthLibraryError | AuthLibraryError | ErrorBody | ErrorBody | PostApiAuthSignUpEmailResponse200
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PostApiAuthSignUpEmailBody,
) -> Response[AuthLibraryError | ErrorBody | PostApiAuthSignUpEmailResponse200]:
    """Sign up with email and password (sets the session cookie)

    Args:
        body (PostApiAuthSignUpEmailBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthLibraryError | AuthLibraryError | ErrorBody | ErrorBody | PostApiAuthSignUpEmailResponse200]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PostApiAuthSignUpEmailBody,
) -> AuthLibraryError | ErrorBody | PostApiAuthSignUpEmailResponse200 | None:
    """Sign up with email and password (sets the session cookie)

    Args:
        body (PostApiAuthSignUpEmailBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthLibraryError | AuthLibraryError | ErrorBody | ErrorBody | PostApiAuthSignUpEmailResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
