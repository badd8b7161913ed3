"""The seats of a table are parsed once, at the edge, into a frozen ``Seating``; every layer
below (a run's chunk tasks, the batch entry points, the tournament, the bots of a table) takes
that value as it is: ``.text`` for what is recorded, ``.arrays()`` for the kernels."""

from __future__ import annotations

import pickle
import re

import numpy as np
import pytest

from whist_sim.compiled.ground.layout import N_PARAMS
from whist_sim.compiled.strategies import seating as seating_module
from whist_sim.compiled.strategies.dispatch import AUDITED, BASE, FULL
from whist_sim.compiled.strategies.registry import BID, PLAY, PolicyError, get_info
from whist_sim.compiled.strategies.seating import Seating
from whist_sim.compiled.strategies.spec import parse_play, parse_strategy
from whist_sim.core.rules import Rules

BIDS = ("heuristic", "montecarlo:n=4:calls=0", "cautious:margin_q=6", "random")
PLAYS = ("expert", "heuristic", "planner:margin=2", "random")


def test_a_seating_holds_each_seat_parsed_and_writes_it_back_as_text():
    s = Seating.of(BIDS, PLAYS, 4)
    assert s.players == 4
    assert s.bid == tuple(parse_strategy(b) for b in BIDS)
    assert s.play == tuple(parse_play(q) for q in PLAYS)
    assert s.text == ("heuristic/expert", "montecarlo:n=4:calls=0/heuristic",
                      "cautious:margin_q=6/planner:margin=2", "random/random")
    assert Seating.of(s.bid_text, s.play_text, 4) == s  # the texts parse back to it
    assert pickle.loads(pickle.dumps(s)) == s  # a chunk task carries it to a worker
    assert Seating.of(s, players=4) is s


def test_its_arrays_are_the_registry_ids_and_the_parameter_rows():
    s = Seating.of(BIDS, PLAYS, 4)
    pol, par = s.arrays()
    assert pol.dtype == np.int64 and pol.shape == (2, 4)
    assert par.dtype == np.float64 and par.shape == (2, 4, N_PARAMS)
    for seat in range(4):
        for row, kind, spec in ((0, BID, s.bid[seat]), (1, PLAY, s.play[seat])):
            info = get_info(spec.name, kind)
            assert pol[row, seat] == info.id
            values = spec.values()
            assert list(par[row, seat, :len(info.params)]) == [values[p.name]
                                                                for p in info.params]
            assert not par[row, seat, len(info.params):].any()


def test_its_mode_is_the_base_loop_unless_a_seat_searches():
    quiet = Seating.of(("heuristic",) * 4, ("expert",) * 4, 4)
    assert quiet.mode() == BASE and quiet.mode(audited=True) == AUDITED
    assert Seating.of(BIDS, PLAYS, 4).mode() == FULL  # montecarlo
    assert Seating.of(("heuristic",) * 3, ("rollout:n=2",) * 3, 3).mode() == FULL


@pytest.mark.parametrize("bid, play, players, message", [
    (("heuristic",) * 3, ("expert",) * 3, 4, "3 name(s) given for 4 seats"),
    ("heuristic", ("expert",) * 4, 4, "must be a sequence"),
    (("heuristic",) * 4, ("expert",) * 3, 4, "3 name(s) given for 4 seats"),
    (("nope",) * 4, ("expert",) * 4, 4, "unknown bid policy 'nope'"),
    (("heuristic",) * 4, ("ltc",) * 4, 4, "unknown play policy 'ltc'"),
    (("hcp:points_per_trick=0",) * 4, ("expert",) * 4, 4, "points_per_trick must be in"),
])
def test_a_bad_seating_is_refused_with_the_problem_named(bid, play, players, message):
    with pytest.raises(PolicyError, match=re.escape(message)):
        Seating.of(bid, play, players)


def test_a_run_parses_its_seats_once_and_its_chunks_never(tmp_path, monkeypatch):
    from whist_sim.runs.simulate import plan_run, run_chunk

    (tmp_path / "run").mkdir()
    plan = plan_run(tmp_path / "run", 40, 7, Rules(), ("heuristic/expert",) * 4, None, 20,
                    1, False)
    assert isinstance(plan.task.seating, Seating)
    assert plan.task.bid == ("heuristic",) * 4 and plan.task.play == ("expert",) * 4

    def refuse(*_):
        raise AssertionError("a seat was parsed again below the edge")

    monkeypatch.setattr(seating_module, "parse_strategy", refuse)
    monkeypatch.setattr(seating_module, "parse_play", refuse)
    task = pickle.loads(pickle.dumps(plan.task))
    receipt = run_chunk(task, 1)
    assert receipt.count == 20 and receipt.start == 20
