import os
import time

from scrape_api_client import AuthenticatedClient, Client
from scrape_api_client.api.account import post_api_users_create_api_keys
from scrape_api_client.api.auth import post_api_auth_sign_up_email
from scrape_api_client.api.flows import post_flows, post_flows_id_runs
from scrape_api_client.api.scraping import post_webhook_unblocker
from scrape_api_client.models import (
    Flow,
    FlowBody,
    FlowRun,
    PostApiAuthSignUpEmailBody,
    PostApiUsersCreateApiKeysBody,
    PostApiUsersCreateApiKeysResponse201,
    PostWebhookUnblockerBody,
    ScrapeResult,
)

base_url = os.environ.get("SCRAPE_API_URL", "http://127.0.0.1:3000")
page_url = os.environ.get("PAGE_URL", "https://example.com/")

# 1. Sign up (or sign in, post_api_auth_sign_in_email): the answer sets the session
#    cookie, which the client's cookie jar keeps for the account routes.
with Client(base_url=base_url, raise_on_unexpected_status=True) as account:
    signed_up = post_api_auth_sign_up_email.sync_detailed(
        client=account,
        body=PostApiAuthSignUpEmailBody(email=f"me-{time.time_ns()}@example.com", password="a-long-password", name="Me"),
    )
    assert signed_up.status_code == 200, signed_up.content

    # 2. An API key (its secret is shown once, here).
    created = post_api_users_create_api_keys.sync(client=account, body=PostApiUsersCreateApiKeysBody(name="laptop", prefix="sk_"))
    assert isinstance(created, PostApiUsersCreateApiKeysResponse201), created

# The scraping, flow and template routes take the key in the x-api-key header.
with AuthenticatedClient(base_url=base_url, token=created.key, prefix="", auth_header_name="x-api-key", raise_on_unexpected_status=True) as api:
    # 3. Scrape a page: the first <h1>.
    result = post_webhook_unblocker.sync(client=api, body=PostWebhookUnblockerBody.from_dict({"url": page_url, "selectors": ["h1"]}))
    assert isinstance(result, ScrapeResult), result
    print("h1:", result.data[0].results[0].text)

    # 4. A flow (here one scrape node), run and awaited (wait=True).
    flow = post_flows.sync(
        client=api,
        body=FlowBody.from_dict({"name": "title", "nodes": [{"id": "page", "type": "scrape", "config": {"url": page_url, "selectors": ["h1"]}}]}),
    )
    assert isinstance(flow, Flow), flow
    run = post_flows_id_runs.sync(flow.id, client=api, wait=True)
    assert isinstance(run, FlowRun), run
    print("flow run:", run.status, "credits spent:", run.credits_.spent)  # `credits` is a Python builtin: the generator appends _
