"""A web API that cannot be tied up (docs/WEB.md): unknown fields and bad values are a 400 with a
JSON error naming the field; a body is read within size, nesting and number limits; an advice is
costed by deals x its play policy's cost against --max-deals; an advice nobody waits for any more
is cancelled; play never waits behind advice; every refusal is one log line, never a trace."""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest
from webcall import call

from whist_sim.interfaces.web import jobs as jobs_module
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.requests import MAX_BODY_BYTES, play_cost
from whist_sim.interfaces.web.server import LocalServer

HAND = "AKQ2.K3.QJ54.872"
MAX_DEALS = 400_000


@pytest.fixture(scope="module")
def url():
    app = create_app(max_deals=MAX_DEALS, reports={}, workers=1)
    with LocalServer(app) as base:
        yield base




@pytest.mark.parametrize("path, body, field, fragment", [
    ("/api/play", {"seet": 2}, None, "unknown field(s) 'seet'"),
    ("/api/play", {"seat": 1, "made_bonus": 2**63}, "rules", "made_bonus must be in"),
    ("/api/play", {"rules": {"zero_under": -40000}}, "rules", "zero_under must be in"),
    ("/api/advise", {"hand": HAND, "seet": 2}, None, "unknown field(s) 'seet'"),
    ("/api/advise", {"hand": HAND, "made_bonus": 40000}, "rules", "made_bonus must be in"),
    ("/api/advise", {"hand": HAND, "deals": 10, "play": "rollout:n=4096"}, "deals",
     "deal-equivalents"),
    ("/api/jobs", {"hand": HAND, "deals": 200, "play": "rollout:n=64"}, "deals",
     f"{play_cost('rollout:n=64'):,} a deal"),
    ("/api/advise", b"[" * 100_000 + b"]" * 100_000, None, "nested deeper"),
    ("/api/advise", b'{"hand": "x", "deals": ' + b"9" * 5000 + b"}", None, "digits"),
    ("/api/advise", b'{"hand": NaN}', None, "NaN"),
    ("/api/advise", b"\xff\xfe", None, "UTF-8"),
])
def test_bad_requests_are_400_json_naming_the_field(url, path, body, field, fragment, caplog):
    with caplog.at_level(logging.INFO, logger="whist_sim.interfaces.web"):
        status, got = call(url, path, body)
    assert status == 400, got
    assert got["field"] == field and fragment in got["error"], got
    lines = [r for r in caplog.records if r.name == "whist_sim.interfaces.web"]
    assert len(lines) == 1 and lines[0].getMessage().startswith("refused POST")
    assert "\n" not in lines[0].getMessage() and lines[0].exc_info is None


def test_a_body_over_the_size_cap_is_refused_unread(url):
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port))) as s:
        s.sendall(b"POST /api/advise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: " + str(MAX_BODY_BYTES + 1).encode() + b"\r\n\r\n{")
        reply = b""
        while b"bytes" not in reply:
            part = s.recv(65536)
            if not part:
                break
            reply += part
    assert reply.startswith(b"HTTP/1.1 400") and b"the request body is over" in reply


def test_a_move_body_with_other_fields_is_refused(url):
    status, table = call(url, "/api/play", {"seat": 0, "seed": 3})
    assert status == 200, table
    status, got = call(url, f"/api/play/{table['id']}/move", {"move": "pass", "mvoe": 1})
    assert status == 400 and "'mvoe'" in got["error"]


def test_play_never_waits_behind_advice_and_an_abandoned_advice_stops(url, monkeypatch):
    # compile first (a cold cache takes minutes): the timings below are of the work alone
    assert call(url, "/api/play", {"seat": 0, "seed": 2, "seats": "random"})[0] == 200
    assert call(url, "/api/advise", {"hand": HAND, "deals": 20, "play": "random"})[0] == 200
    monkeypatch.setattr(jobs_module, "ABANDON_SECONDS", 3.0)
    # the one advice worker busy with a long advice nobody will ask about again
    status, job = call(url, "/api/jobs", {"hand": HAND, "deals": MAX_DEALS, "play": "random"})
    assert status == 202, job
    t0 = time.monotonic()
    status, table = call(url, "/api/play", {"seat": 0, "seed": 1, "seats": "random"})
    assert status == 200, table
    waited = time.monotonic() - t0
    status, got = call(url, f"/api/jobs/{job['id']}")
    assert got["state"] == "running", (got, waited)  # the table was served meanwhile
    time.sleep(6)  # nobody asks: abandoned after 3 s, stopped at its next block of deals
    end = time.monotonic() + 120
    while got["state"] == "running" and time.monotonic() < end:
        time.sleep(0.5)
        _, got = call(url, f"/api/jobs/{job['id']}")
    assert got["state"] == "cancelled", got


def test_an_advice_whose_client_hangs_up_is_cancelled(url, monkeypatch, caplog):
    host, port = url.removeprefix("http://").split(":")
    body = json.dumps({"hand": HAND, "deals": MAX_DEALS, "play": "random"}).encode()
    with caplog.at_level(logging.INFO, logger="whist_sim.interfaces.web"):
        with socket.create_connection((host, int(port))) as s:
            s.sendall(b"POST /api/advise HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                      b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
            time.sleep(1.0)
        end = time.monotonic() + 120
        while time.monotonic() < end and not any(
                "went away" in r.getMessage() for r in caplog.records):
            time.sleep(0.2)
    assert any("advice cancelled" in r.getMessage() for r in caplog.records)
