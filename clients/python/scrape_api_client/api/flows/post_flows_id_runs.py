from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_body import ErrorBody
from ...models.flow_run import FlowRun
from ...models.flow_run_summary import FlowRunSummary
from ...models.post_flows_id_runs_body import PostFlowsIdRunsBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: PostFlowsIdRunsBody | Unset = UNSET,
    wait: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    params: dict[str, Any] = {}

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/flows/{id}/runs".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorBody | FlowRun | FlowRunSummary | None:
    if response.status_code == 200:
        response_200 = FlowRun.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = FlowRunSummary.from_dict(response.json())

        return response_202

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
) -> Response[ErrorBody | FlowRun | FlowRunSummary]:
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
    body: PostFlowsIdRunsBody | Unset = UNSET,
    wait: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorBody | FlowRun | FlowRunSummary]:
    """Start a run (202), or with ?wait=true wait for it up to the synchronous limit (200, else 504 with
    the run id)

    Args:
        id (str):
        wait (bool | Unset):
        idempotency_key (str | Unset):
        body (PostFlowsIdRunsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FlowRun | FlowRunSummary]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        wait=wait,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsBody | Unset = UNSET,
    wait: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorBody | FlowRun | FlowRunSummary | None:
    """Start a run (202), or with ?wait=true wait for it up to the synchronous limit (200, else 504 with
    the run id)

    Args:
        id (str):
        wait (bool | Unset):
        idempotency_key (str | Unset):
        body (PostFlowsIdRunsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FlowRun | FlowRunSummary
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        wait=wait,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsBody | Unset = UNSET,
    wait: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[ErrorBody | FlowRun | FlowRunSummary]:
    """Start a run (202), or with ?wait=true wait for it up to the synchronous limit (200, else 504 with
    the run id)

    Args:
        id (str):
        wait (bool | Unset):
        idempotency_key (str | Unset):
        body (PostFlowsIdRunsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FlowRun | FlowRunSummary]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        wait=wait,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: PostFlowsIdRunsBody | Unset = UNSET,
    wait: bool | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> ErrorBody | FlowRun | FlowRunSummary | None:
    """Start a run (202), or with ?wait=true wait for it up to the synchronous limit (200, else 504 with
    the run id)

    Args:
        id (str):
        wait (bool | Unset):
        idempotency_key (str | Unset):
        body (PostFlowsIdRunsBody | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FlowRun | FlowRunSummary
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            wait=wait,
            idempotency_key=idempotency_key,
        )
    ).parsed
