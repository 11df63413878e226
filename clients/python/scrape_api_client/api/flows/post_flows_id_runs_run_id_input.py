from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.flow_input_accepted import FlowInputAccepted
from ...models.post_flows_id_runs_run_id_input_body import PostFlowsIdRunsRunIdInputBody
from ...types import Response


def _get_kwargs(
    id: str,
    run_id: str,
    *,
    body: PostFlowsIdRunsRunIdInputBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/flows/{id}/runs/{run_id}/input".format(
            id=quote(str(id), safe=""),
            run_id=quote(str(run_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | FlowInputAccepted | None:
    if response.status_code == 200:
        response_200 = FlowInputAccepted.from_dict(response.json())

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
) -> Response[ErrorBody | FlowInputAccepted]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsRunIdInputBody,
) -> Response[ErrorBody | FlowInputAccepted]:
    """Answer an input node that is waiting: its value becomes {{ nodes.<node>.value }} and the run goes on
    (409 when the node is not waiting)

    Args:
        id (str):
        run_id (str):
        body (PostFlowsIdRunsRunIdInputBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FlowInputAccepted]
    """

    kwargs = _get_kwargs(
        id=id,
        run_id=run_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsRunIdInputBody,
) -> ErrorBody | FlowInputAccepted | None:
    """Answer an input node that is waiting: its value becomes {{ nodes.<node>.value }} and the run goes on
    (409 when the node is not waiting)

    Args:
        id (str):
        run_id (str):
        body (PostFlowsIdRunsRunIdInputBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FlowInputAccepted
    """

    return sync_detailed(
        id=id,
        run_id=run_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsRunIdInputBody,
) -> Response[ErrorBody | FlowInputAccepted]:
    """Answer an input node that is waiting: its value becomes {{ nodes.<node>.value }} and the run goes on
    (409 when the node is not waiting)

    Args:
        id (str):
        run_id (str):
        body (PostFlowsIdRunsRunIdInputBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FlowInputAccepted]
    """

    kwargs = _get_kwargs(
        id=id,
        run_id=run_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    run_id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsRunIdInputBody,
) -> ErrorBody | FlowInputAccepted | None:
    """Answer an input node that is waiting: its value becomes {{ nodes.<node>.value }} and the run goes on
    (409 when the node is not waiting)

    Args:
        id (str):
        run_id (str):
        body (PostFlowsIdRunsRunIdInputBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FlowInputAccepted
    """

    return (
        await asyncio_detailed(
            id=id,
            run_id=run_id,
            client=client,
            body=body,
        )
    ).parsed
