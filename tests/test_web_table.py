"""The tables of the play page (whist_sim/interfaces/web/tables.py, docs/WEB.md): a repeated tap is
refused and changes nothing, a table kept on disk comes back after a restart exactly as it stood
(and a record that does not replay is refused, not trusted), the bots' cards come with their trick
and its winner, the cards received in a Frisch are marked, the opponents are chosen by level, and
the page can say when the engine is still starting."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from webcall import call

from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main
from whist_sim.interfaces.web.app import create_app
from whist_sim.interfaces.web.server import LocalServer
from whist_sim.interfaces.web.tables import OPPONENT_LEVELS, GameTable, StaleMove, TableStore
from whist_sim.interfaces.web.warmth import Warmth

CHEAP = "random/random"  # the cheapest bots




def simple_move(v: dict) -> str:
    """Pass when allowed, else the first legal call or contract; the three last cards in a
    Frisch; the first legal card."""
    if v["phase"] == "frisch":
        return " ".join(c["text"] for c in v["hand"][-3:])
    if v["phase"] == "play":
        return next(c["text"] for c in v["hand"] if c["legal"])
    texts = [m["text"] for m in v["legal"]]
    return "pass" if "pass" in texts else texts[0]


def test_a_repeated_tap_is_refused_politely_and_changes_nothing(tmp_path):
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        status, v = call(url, "/api/play", {"seat": 0, "seed": 1, "seats": CHEAP})
        assert status == 200 and v["seq"] == 0
        move = simple_move(v)
        status, after = call(url, f"/api/play/{v['id']}/move", {"move": move, "seq": 0})
        assert status == 200 and after["seq"] == 1
        status, again = call(url, f"/api/play/{v['id']}/move", {"move": move, "seq": 0})
        assert status == 409 and again["field"] == "seq" and again["stale"]
        assert "already done" in again["error"] and "nothing changed" in again["error"]
        assert again["view"] == after  # the table as it stands, one move made
        assert call(url, f"/api/play/{v['id']}")[1] == after
        # a move number that is not a number is a 400 naming it; no number: accepted
        status, err = call(url, f"/api/play/{v['id']}/move", {"move": "pass", "seq": "x"})
        assert status == 400 and err["field"] == "seq"
        status, err = call(url, f"/api/play/{v['id']}/next", {"seq": 0})
        assert status == 409


def test_a_table_survives_a_restart_of_the_server(tmp_path):
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        status, v = call(url, "/api/play", {"seat": 2, "seed": 7, "seats": CHEAP,
                                            "zero_over": 30})
        tid = v["id"]
        for _ in range(12):
            status, v = call(url, f"/api/play/{tid}/move", {"move": simple_move(v),
                                                            "seq": v["seq"]})
            assert status == 200, v
            if v["over"]:
                break
    assert (tmp_path / f"{tid}.json").is_file()
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        status, back = call(url, f"/api/play/{tid}")
        assert status == 200
        assert back == {**v, "events": []}  # the same table, the last moves not shown again
        assert back["rules"]["zero_over"] == 30
        while not back["over"]:
            status, back = call(url, f"/api/play/{tid}/move", {"move": simple_move(back),
                                                               "seq": back["seq"]})
        status, nxt = call(url, f"/api/play/{tid}/next", {"seq": back["seq"]})
        assert status == 200 and nxt["deal"] == 1 and nxt["totals"] == back["totals"]
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        status, again = call(url, f"/api/play/{tid}")
        assert again == {**nxt, "events": []}
        assert again["results"][0]["scores"] == back["results"][0]["scores"]
    # without a state folder a table lives in memory only
    with LocalServer(create_app(workers=2)) as url:
        assert call(url, f"/api/play/{tid}")[0] == 404


def test_a_stored_table_that_does_not_replay_is_refused_and_kept(tmp_path):
    g = GameTable(Rules(), 0, [CHEAP] * 4, seed=3)
    while not g.table.over:
        g.move(simple_move(g.view()), g.seq)
    store = TableStore(tmp_path)
    store.save(g)
    assert GameTable.from_dict(g.to_dict()).view() == {**g.view(), "events": []}
    path = tmp_path / f"{g.id}.json"
    d = json.loads(path.read_text())
    d["actions"][-1][1] = d["actions"][-2][1]  # the last card changed
    path.write_text(json.dumps(d))
    with pytest.raises(ValueError, match="does not replay as stored"):
        store.load(g.id)
    d = json.loads(path.read_text())
    d["actions"] = d["actions"][:-1]  # the last card gone, but the deal counted
    d["results"][-1]["scores"][0] += 1
    path.write_text(json.dumps(d))
    with pytest.raises(ValueError):
        store.load(g.id)
    path.write_text("{not json")
    with pytest.raises(ValueError, match=f"{g.id}.json: the stored table cannot be read"):
        store.load(g.id)
    assert path.read_text() == "{not json"  # left as it was: nothing lost
    assert store.load("../../etc/passwd") is None and store.load("f" * 32) is None
    with LocalServer(create_app(workers=2, state_dir=tmp_path)) as url:
        status, err = call(url, f"/api/play/{g.id}")
        assert status == 400 and "cannot be read" in err["error"]


def test_the_bots_cards_come_with_their_trick_and_its_winner():
    g = GameTable(Rules(), 1, ["heuristic/heuristic"] * 4, seed=5)
    seen = 0
    while not g.table.over:
        v = g.view()
        g.move(simple_move(v), g.seq)
        v = g.view()
        events = v["events"]
        assert events[0]["seat"] == 1  # the person's move first, then the bots' in order
        plays = [e for e in events if e["phase"] == "play"]
        for e in plays:
            k = e["trick"]
            cards = v["tricks"][k]["cards"] if k < len(v["tricks"]) else v["current_trick"]
            mine = next(c for c in cards if c["seat"] == e["seat"])
            assert mine["text"] == e["card"]["text"]
            if e["won_by"] is not None:
                assert cards[-1]["seat"] == e["seat"] and v["tricks"][k]["winner"] == e["won_by"]
                seen += 1
            else:
                assert cards[-1]["seat"] != e["seat"] or k == len(v["tricks"])
        if v["phase"] == "play":
            assert v["leader"] == (v["current_trick"][0]["seat"] if v["current_trick"]
                                   else v["tricks"][-1]["winner"])
    v = g.view()
    assert seen == 13 or v["phase"] == "thrown_in"
    if v["phase"] == "scored":
        assert v["contract_sum"] == sum(v["contracts"]) and v["n_tricks"] == 13


def test_the_cards_received_in_a_frisch_are_marked():
    for seed in range(3):
        g = GameTable(Rules(), 0, ["hcp:margin=20/random"] * 4, seed=seed)  # never bids
        while not g.table.over and g.table.state.frisch_count == 0:
            g.move(simple_move(g.view()), g.seq)
        s = g.table.state
        if s.frisch_count == 0:
            continue
        giver = (0 - Rules().direction_offset(0)) % 4
        got = {c["text"] for c in g.view()["hand"] if c["received"] == 1}
        from whist_sim.core.cards import card_str, cards_of
        assert got == {card_str(c) for c in cards_of(s.frisch[0][giver])}
        assert all(c["received"] in (None, 1) for c in g.view()["hand"])
        return
    pytest.fail("no Frisch in 3 deals")


def test_opponents_by_level(tmp_path):
    assert list(OPPONENT_LEVELS) == ["beginner", "club player", "strong"]
    # the strong bots play the search over the default play, the strongest the ladder shows
    assert OPPONENT_LEVELS["strong"] == "learned/rollout:n=16:base=learned"
    with LocalServer(create_app(workers=2)) as url:
        info = call(url, "/api/info")[1]
        assert info["opponent_levels"] == OPPONENT_LEVELS
        status, v = call(url, "/api/play", {"seat": 0, "seed": 2, "level": "beginner"})
        assert status == 200 and v["seats"] == [OPPONENT_LEVELS["beginner"]] * 4
        status, err = call(url, "/api/play", {"level": "grandmaster"})
        assert status == 400 and err["field"] == "level" and "club player" in err["error"]
        status, err = call(url, "/api/play", {"level": ["beginner"]})
        assert status == 400 and err["field"] == "level"
        status, err = call(url, "/api/play", {"level": "beginner", "seats": CHEAP})
        assert status == 400 and err["field"] == "level"


class FakeCompiles:
    """numba's compiles as the status reads them: one running while ``depth`` > 0."""

    def __init__(self) -> None:
        self.depth = 0
        self.seconds = 0.0

    def so_far(self) -> float:
        return self.seconds


IDLE = {"seconds": None, "compiling": None, "compile_seconds": None}


def test_the_engine_state_says_starting_then_ready():
    now = [100.0]
    compiles = FakeCompiles()
    w = Warmth(clock=lambda: now[0], compiles=compiles)
    assert w.status()["play"] == {"state": "cold", **IDLE}
    with w.using("play"):
        now[0] += 42.5
        assert w.status()["play"] == {"state": "starting", "seconds": 42.5, "compiling": False,
                                      "compile_seconds": 0.0}  # loading from the cache
        compiles.depth, compiles.seconds = 1, 40.04
        assert w.status()["play"] == {"state": "starting", "seconds": 42.5, "compiling": True,
                                      "compile_seconds": 40.0}
        assert w.status()["advice"]["state"] == "cold"
    assert w.status()["play"] == {"state": "ready", **IDLE}
    with pytest.raises(RuntimeError), w.using("advice"):
        raise RuntimeError("a failed first run does not make it ready")
    assert w.status()["advice"]["state"] == "cold"


def test_the_status_says_when_the_engine_is_ready():
    with LocalServer(create_app(workers=2)) as url:
        assert call(url, "/api/status")[1]["engine"]["play"]["state"] == "cold"
        call(url, "/api/play", {"seat": 0, "seed": 2, "seats": CHEAP})
        assert call(url, "/api/status")[1]["engine"]["play"] == {"state": "ready", **IDLE}
        assert call(url, "/api/play/nosuch")[0] == 404


def test_serve_takes_a_state_folder(tmp_path):
    (tmp_path / "file").write_text("x")
    r = CliRunner().invoke(main, ["serve", "--state-dir", str(tmp_path / "file")])
    assert r.exit_code == 2 and "--state-dir" in r.output
    r = CliRunner().invoke(main, ["serve", "--help"])
    assert "--state-dir" in r.output and "restart" in r.output


def test_a_stale_move_is_refused_by_the_table_itself():
    g = GameTable(Rules(), 0, [CHEAP] * 4, seed=1)
    g.move(simple_move(g.view()), 0)
    with pytest.raises(StaleMove):
        g.move("pass", 0)
    assert g.seq == 1


def test_the_status_tells_a_compile_from_a_load_by_numbas_own_events():
    """A real numba compile while a first run is starting shows as compiling, and its seconds
    count; before and after it, the start shows as a load (no compile running)."""
    import numba

    w = Warmth()

    def first_use():
        @numba.njit(cache=False)
        def seen(x):
            return x + 1
        return seen

    seen = first_use()
    with w.using("advice"):
        assert w.status()["advice"]["compiling"] is False
        compiled_during = []
        from numba.core import event

        class Probe(event.Listener):
            def on_start(self, ev):
                compiled_during.append(w.status()["advice"]["compiling"])

            def on_end(self, ev):
                pass

        with event.install_listener("numba:compile", Probe()):
            assert seen(1) == 2
        assert compiled_during and all(compiled_during)  # compiling while numba compiled
        assert w.status()["advice"]["compiling"] is False
        assert w.compiles.so_far() > 0  # its time counted (the status rounds it to 0.1 s)
