"""Schemathesis hooks of the schema fuzz (api/openapi.fuzz.test.ts; docs/api.md, "Schema fuzzing").

- Every URL it generates (in a body or a query, at any depth) becomes one page of the local
  fixture server (FUZZ_TARGET, http://host:port/page/fuzz): scrapes, flows and webhooks then do
  their real work on this machine, never reach another host, and never hit the fixture's slow or
  huge pages. The service's processes also resolve no host name (test/fuzz/offline-dns.cjs).
- Sign-out is sent without the fuzz's session cookie, so the other session routes keep it.
"""

import os
from urllib.parse import urlsplit

import schemathesis

TARGET = os.environ["FUZZ_TARGET"]
SESSION_COOKIE = "better-auth.session_token"


def _local(value):
    if isinstance(value, str):
        try:
            parts = urlsplit(value)
        except ValueError:
            return value
        return TARGET if parts.netloc else value
    if isinstance(value, list):
        return [_local(item) for item in value]
    if isinstance(value, dict):
        return {key: _local(item) for key, item in value.items()}
    return value


@schemathesis.hook
def before_call(context, case, kwargs):
    if isinstance(case.body, (dict, list, str)):
        case.body = _local(case.body)
    if case.query:
        case.query = _local(case.query)
    if case.operation.path == "/api/auth/sign-out" and case.cookies:
        case.cookies.pop(SESSION_COOKIE, None)
