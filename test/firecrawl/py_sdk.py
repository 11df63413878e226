"""Drives the official Python SDK (firecrawl-py, pinned in scripts/python-requirements.txt) for
api/firecrawl/sdk.test.ts: one call per run, its outcome as JSON on stdout.

    python py_sdk.py '{"apiUrl": "...", "apiKey": "...", "client": "v2"|"v1", "method": "scrape", "args": [...], "kwargs": {...}}'

Success: {"ok": true, "value": <the SDK's parsed answer, model_dump(mode="json")>, "type": "<its class>"}.
Failure: {"ok": false, "type": "<exception class>", "status": <HTTP status or null>, "message": "..."}.
"""
import json
import os
import sys

# The caller-origin detection walks the stack for an installing package; a plain origin is enough here.
os.environ.setdefault("FIRECRAWL_DISABLE_CALLER_ORIGIN", "1")

from firecrawl import Firecrawl  # noqa: E402


def dump(value):
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, list):
        return [dump(item) for item in value]
    if isinstance(value, dict):
        return {key: dump(item) for key, item in value.items()}
    return value


def main():
    spec = json.loads(sys.argv[1])
    client = Firecrawl(api_key=spec["apiKey"], api_url=spec["apiUrl"])
    target = client.v1 if spec.get("client") == "v1" else client
    try:
        value = getattr(target, spec["method"])(*spec.get("args", []), **spec.get("kwargs", {}))
        print(json.dumps({"ok": True, "type": type(value).__name__, "value": dump(value)}))
    except Exception as error:  # the SDK's own exception classes are what the test checks
        status = getattr(error, "status_code", None)
        response = getattr(error, "response", None)
        if status is None and response is not None:
            status = getattr(response, "status_code", None)
        print(json.dumps({"ok": False, "type": type(error).__name__, "status": status, "message": str(error)}))


main()
