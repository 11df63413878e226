#!/usr/bin/env python3
"""Reference extractor for the benchmark (never used by the product): trafilatura on each page.
Reads JSON lines {"name", "url", "html"} on stdin, writes JSON lines {"name", "text", "ms"}.
Run by `npm run bench:extraction -- --trafilatura <python with trafilatura installed>`."""
import json
import sys
import time

import trafilatura

for line in sys.stdin:
    page = json.loads(line)
    t0 = time.perf_counter()
    try:
        text = trafilatura.extract(page["html"], url=page["url"], include_comments=False, include_tables=True)
    except Exception as error:  # noqa: BLE001 - a failure on one page scores as null
        print(f"{page['name']}: {error!r}", file=sys.stderr)
        text = None
    ms = (time.perf_counter() - t0) * 1000
    print(json.dumps({"name": page["name"], "text": text, "ms": ms}), flush=True)
