"""One JSON request to a test server of the web page: ``(status, decoded body)``, errors included
(the web API answers every refusal with a JSON body)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request


def call(url: str, path: str, body=None, method: str | None = None,
         timeout: float = 300) -> tuple[int, dict]:
    """POST ``body`` (a JSON value, or bytes sent as they are) to ``url + path``; GET without
    one."""
    data = None if body is None else (body if isinstance(body, bytes)
                                      else json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())
