"""The web page's JSON API (docs/WEB.md), against a real local server: the advice equals
``whist-sim advise --json``, bad input is a 4xx JSON error, 50 concurrent requests all answer
correctly, long advice shows progress and can be cancelled, and a deal played at the table gives
a record that ``whist-sim replay`` accepts."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from webcall import call

from whist_sim.analyses.advisor import advise
from whist_sim.analyses.advisor.sampling import PROGRESS_BLOCK
from whist_sim.interfaces.cli import main
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.reports import render_markdown, safe_path
from whist_sim.interfaces.web.server import LocalServer

ROOT = Path(__file__).resolve().parent.parent
HAND = "AKQ2.K3.QJ54.872"
MAX_DEALS = 3000


@pytest.fixture(scope="module")
def url():
    app = create_app(max_deals=MAX_DEALS, reports={"results": ROOT / "results"}, workers=4)
    with LocalServer(app) as base:
        yield base




def test_advise_answers_as_the_command(url):
    # the same fields as `whist-sim advise`, the same JSON as its --json (docs/ADVISOR.md); the
    # web page answers unchecked, as `advise --no-check` does (no check object)
    fields = {"hand": HAND, "trump": "S", "declarer": 3, "bids": "6", "deals": 60, "seed": 5,
              "play": "heuristic", "zero_over": 30}
    status, got = call(url, "/api/advise", fields)
    assert status == 200
    r = CliRunner().invoke(main, ["advise", HAND, "--trump", "S", "--declarer", "3", "--bids",
                                  "6", "--deals", "60", "--seed", "5", "--play", "heuristic",
                                  "--zero-over", "30", "--json", "--no-check"])
    assert r.exit_code == 0, r.output
    assert got == json.loads(r.stdout)
    assert got["rules"]["zero_over"] == 30 and got["deals"] == 60
    # constraints and known cards, as the command's repeated options
    status, got = call(url, "/api/advise", {"hand": HAND, "trump": "H", "deals": 40,
                                            "play": "heuristic", "known": ["1:AH,QH"],
                                            "constrain": ["1:S=0-2", "2:hcp=8-"]})
    r = CliRunner().invoke(main, ["advise", HAND, "--trump", "H", "--deals", "40", "--play",
                                  "heuristic", "--known", "1:AH,QH", "--constrain", "1:S=0-2",
                                  "--constrain", "2:hcp=8-", "--json", "--no-check"])
    assert status == 200 and r.exit_code == 0, r.output
    assert got == json.loads(r.stdout) and got["acceptance_rate"] < 1
    # auction mode, rule options as an object
    status, got = call(url, "/api/advise", {"hand": HAND, "deals": 30, "play": "heuristic",
                                            "rules": {"players": 4, "bid_order": "suit"}})
    assert status == 200 and got["mode"] == "auction" and got["best_call"]
    assert got == advise(HAND, deals=30, play="heuristic",
                         rules=__import__("whist_sim").Rules(bid_order="suit")).to_dict()
    # a searching play, screened as the command screens it (4 deals: a rollout that reads the
    # table costs about 600 deals each against the server's limit)
    status, got = call(url, "/api/advise", {"hand": HAND, "trump": "S", "deals": 4,
                                            "play": "rollout:n=4", "screen": 2})
    r = CliRunner().invoke(main, ["advise", HAND, "--trump", "S", "--deals", "4", "--play",
                                  "rollout:n=4", "--screen", "2", "--json", "--no-progress",
                                  "--no-check"])
    assert status == 200 and r.exit_code == 0, r.output
    assert got == json.loads(r.stdout) and got["screen"]["kept_per_strain"] == 2


@pytest.mark.parametrize("body, field, words", [
    ({"hand": "AKQ2.K3.QJ54.87", "trump": "S"}, None, "13"),
    ({"hand": "AKQ2.K3.QJ54.8X2"}, None, "X"),
    ({"hand": HAND, "trump": "Z"}, None, "Z"),
    ({"hand": HAND, "play": "telepathy"}, "play", "telepathy"),
    ({"hand": HAND, "bid_policy": "nosuch"}, "bid_policy", "nosuch"),
    ({"hand": HAND, "deals": MAX_DEALS + 1}, "deals", str(MAX_DEALS)),
    ({"hand": HAND, "deals": "many"}, "deals", "whole number"),
    ({"hand": HAND, "players": 5}, "rules", "players"),
    ({"hand": HAND, "rules": {"zero_ovr": 3}}, "rules", "zero_ovr"),
    ({"hand": HAND, "colour": "red"}, None, "colour"),
    ({"trump": "S"}, "hand", "required"),
    ({"hand": HAND, "eval": "dd"}, "eval", "command line"),
    ({"hand": HAND, "trump": "S", "bids": "6,6,6,6"}, None, "bids"),
])
def test_bad_input_is_a_4xx_json_error(url, body, field, words):
    status, got = call(url, "/api/advise", body)
    assert 400 <= status < 500, got
    assert words.lower() in got["error"].lower()
    assert got["field"] == field
    assert "Traceback" not in got["error"] and "\n" not in got["error"]


def test_a_body_that_is_not_json_is_refused(url):
    status, got = call(url, "/api/advise", b"hand=AKQ")
    assert status == 400 and "not JSON" in got["error"]
    status, got = call(url, "/api/jobs/nosuchjob")
    assert status == 404 and "no such job" in got["error"]


def test_progress_counts_every_deal_and_changes_no_result():
    seen: list[int] = []
    a = advise(HAND, trump="S", deals=1100, play="heuristic", on_deals=seen.append)
    assert sum(seen) == 1100 and len(seen) >= 10 and max(seen) <= PROGRESS_BLOCK
    assert a.to_dict() == advise(HAND, trump="S", deals=1100, play="heuristic").to_dict()
    seen.clear()
    b = advise(HAND, trump="S", deals=1100, play="heuristic", threads=2, on_deals=seen.append)
    assert sum(seen) == 1100 and b.to_dict() == a.to_dict()


def test_fifty_concurrent_requests_all_answer_correctly(url):
    seeds = list(range(5))
    want = {s: advise(HAND, trump="H", deals=20, seed=s, play="heuristic").to_dict()
            for s in seeds}

    def ask(i: int) -> tuple[int, dict]:
        return i % 5, call(url, "/api/advise", {"hand": HAND, "trump": "H", "deals": 20,
                                                "seed": i % 5, "play": "heuristic"})[1]

    with ThreadPoolExecutor(50) as pool:
        answers = list(pool.map(ask, range(50)))
    assert len(answers) == 50
    for seed, got in answers:
        assert got == want[seed]


def test_a_job_shows_progress_ends_with_the_advice_and_can_be_cancelled(url):
    fields = {"hand": HAND, "trump": "S", "deals": 1200, "seed": 1, "play": "heuristic"}
    status, job = call(url, "/api/jobs", fields)
    assert status == 202 and job["state"] == "running" and job["deals"] == 1200
    seen = []
    while job["state"] == "running":
        time.sleep(0.01)
        job = call(url, f"/api/jobs/{job['id']}")[1]
        seen.append(job["done_deals"])
    assert job["state"] == "done" and job["done_deals"] == 1200 and job["fraction"] == 1.0
    assert seen == sorted(seen)
    assert job["result"] == call(url, "/api/advise", fields)[1]
    # a long one, cancelled: it stops before its end
    status, job = call(url, "/api/jobs", {**fields, "deals": MAX_DEALS, "play": "expert"})
    status, job = call(url, f"/api/jobs/{job['id']}", method="DELETE")
    assert status == 200
    while job["state"] == "running":
        time.sleep(0.01)
        job = call(url, f"/api/jobs/{job['id']}")[1]
    assert job["state"] == "cancelled" and job["done_deals"] < MAX_DEALS
    assert "result" not in job


def test_a_deal_at_the_table_ends_in_a_record_replay_accepts(url, tmp_path):
    status, t = call(url, "/api/play", {"seat": 1, "seed": 3, "seats": "heuristic/heuristic"})
    assert status == 200 and t["seat"] == 1 and t["deal"] == 0 and len(t["hand"]) == 13
    tid = t["id"]
    refused = False
    while not t["over"]:
        assert t["waiting"]
        if t["phase"] == "play" and not refused:
            bad = [c["text"] for c in t["hand"] if not c["legal"]]
            if bad:  # an illegal card is refused with the rule's reason; nothing moves
                status, err = call(url, f"/api/play/{tid}/move", {"move": bad[0]})
                assert status == 400 and err["field"] == "move"
                assert err["error"].startswith("move: refused, ") and bad[0] in err["error"]
                assert call(url, f"/api/play/{tid}")[1]["hand"] == t["hand"]
                refused = True
        status, h = call(url, f"/api/play/{tid}/hint", {})
        assert status == 200 and h["why"]
        if t["phase"] == "contracts":
            assert h["advice"]["recommended"] in h["advice"]["ev"] or str(
                h["advice"]["recommended"]) in h["advice"]["ev"]
        status, t = call(url, f"/api/play/{tid}/move", {"move": h["text"]})
        assert status == 200, t
    assert t["results"][-1]["totals"] == t["totals"]
    req = urllib.request.urlopen(f"{url}/api/play/{tid}/record", timeout=30)
    assert "attachment" in req.headers["Content-Disposition"]
    path = tmp_path / "deal.json"
    path.write_bytes(req.read())
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0, r.output
    status, t2 = call(url, f"/api/play/{tid}/next", {})
    assert status == 200 and t2["deal"] == 1 and t2["dealer"] == 1 and t2["totals"] == t["totals"]


def test_the_table_refuses_bad_seats_and_moves(url):
    status, got = call(url, "/api/play", {"seat": 7})
    assert status == 400 and "7" in got["error"]
    status, got = call(url, "/api/play", {"seats": "nosuch"})
    assert status == 400 and "nosuch" in got["error"]
    status, t = call(url, "/api/play", {"seat": 0, "seats": ["heuristic"] * 4})
    status, got = call(url, f"/api/play/{t['id']}/move", {"move": "banana"})
    assert status == 400 and got["field"] == "move"
    status, got = call(url, f"/api/play/{t['id']}/record")
    assert status == 400 and "not over" in got["error"]
    assert call(url, "/api/play/nosuch")[0] == 404


def test_reports_are_listed_rendered_and_served(url):
    status, got = call(url, "/api/reports")
    paths = {r["path"] for r in got["reports"]}
    assert {"default/report.md", "bid_chart/report.md", "tournament/report.md"} <= paths
    status, rep = call(url, "/api/report?root=results&path=default/report.md")
    assert status == 200 and "<table>" in rep["html"] and "/files/results/default/" in rep["html"]
    img = rep["html"].split('<img src="')[1].split('"')[0]
    with urllib.request.urlopen(url + img, timeout=30) as r:
        assert r.read(8) == b"\x89PNG\r\n\x1a\n"
    assert call(url, "/api/report?root=results&path=../README.md")[0] == 404
    assert call(url, "/files/results/..%2FMakefile")[0] == 404


def test_markdown_subset():
    html = render_markdown("# T\n\nsome *em* and **b** `x<y`\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n"
                           "\n- one\n- two\n\n![c](charts/a.png) [r](x.md)\n\n<script>",
                           lambda u, img: ("I:" if img else "L:") + u)
    assert "<h1>T</h1>" in html and "<em>em</em>" in html and "<strong>b</strong>" in html
    assert "<code>x&lt;y</code>" in html and '<td style="text-align:right">2</td>' in html
    assert "<li>two</li>" in html and 'src="I:charts/a.png"' in html and 'href="L:x.md"' in html
    assert "<script>" not in html
    assert safe_path(ROOT, "../x") is None and safe_path(ROOT, "/etc/passwd") is None
    assert safe_path(ROOT, "results/README.md") == ROOT / "results" / "README.md"


def test_the_serve_command_checks_its_options():
    r = CliRunner().invoke(main, ["serve", "--help"])
    assert r.exit_code == 0 and "--max-deals" in r.output and "127.0.0.1" in r.output
    r = CliRunner().invoke(main, ["serve", "--reports", "no/such/folder"])
    assert r.exit_code == 2 and "--reports" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "--port" in r.output


def test_a_deal_thrown_in_after_the_third_frisch_is_redealt_by_the_same_dealer(tmp_path):
    # RULES §3, after_third_frisch=redeal: the same dealer deals again, the stream continued
    from whist_sim import Rules
    from whist_sim.interfaces.web.tables import GameTable

    g = GameTable(Rules(after_third_frisch="redeal"), 0, ["cautious"] * 4, seed=11)
    first = g.table.state.hand(0)
    while not g.table.over:  # you pass; the cautious bots pass too, three Frisches long
        g.move("pass" if g.table.state.phase == "auction" else g.hint()["text"])
    assert g.table.state.phase == "thrown_in" and g.table.state.redeal_due
    g.next_deal()
    v = g.view()
    assert (v["deal"], v["dealer"], v["redeals"]) == (0, 0, 1)
    assert g.table.state.hand(0) != first and v["totals"] == [0, 0, 0, 0]
    while not g.table.over:
        g.move(g.hint()["text"])
    rec = g.record()
    assert rec["redeals"] == 1
    path = tmp_path / "redealt.json"
    path.write_text(json.dumps(rec))
    r = CliRunner().invoke(main, ["replay", str(path)])
    assert r.exit_code == 0, r.output


def test_whist_sim_serve_starts_the_page(tmp_path):
    import os
    import subprocess
    import sys

    from whist_sim.interfaces.web.server import free_port

    port = free_port()
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "report.md").write_text("# My run\n\n| a |\n|---|\n| 1 |\n")
    proc = subprocess.Popen([sys.executable, "-m", "whist_sim", "serve", "--port", str(port),
                             "--max-deals", "123", "--reports", f"mine={tmp_path / 'mine'}"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True,
                            # its default state folder, made at start-up: not the user's own
                            env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")})
    try:
        base = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 60
        while True:
            try:
                status, info = call(base, "/api/info")
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < end, proc.communicate()[1]
                time.sleep(0.1)
        assert status == 200 and info["max_deals"] == 123
        with urllib.request.urlopen(base + "/advisor", timeout=30) as r:
            assert b"Get advice" in r.read()
        got = call(base, "/api/reports")[1]
        assert {"root": "mine", "path": "report.md", "title": "My run"} in got["reports"]
        assert call(base, "/api/advise", {"hand": HAND, "deals": 124})[0] == 400
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
