"""Duplicate tournaments (docs/STRATEGIES.md): seatings, the kernel against the batch
engine, independence of chunking, the statistics (paired test, SPRT) and their quality bars:
the null test (a strategy against itself; false-positive rate over 200 seeded tournaments within
a binomial tolerance of 5 %), power (random against heuristic) and the shrink of the interval by
the duplicate design.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import numpy as np
import pytest

from whist_sim.analyses.bench.tournament import bench_tournament
from whist_sim.analyses.tournament import (
    TournamentError,
    TournamentTask,
    load_scores,
    make_entries,
    make_seatings,
    parse_sprt,
    ranking_frame,
    ranking_table,
    render_markdown,
    run_chunk,
    tournament,
)
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.compiled.entry.tournament import TALLY_NAMES
from whist_sim.core.rules import Rules
from whist_sim.runs.executors import ThreadExecutor

SEED = 4242


@pytest.fixture(scope="module")
def one_thread():
    with ThreadExecutor(1) as ex:
        yield ex


# --------------------------------------------------------------------------- entries, seatings


def test_entries_are_labelled_by_slot_when_repeated():
    labels = [e.label for e in make_entries(["heuristic", "heuristic"])]
    assert labels == ["heuristic/learned#1", "heuristic/learned#2"]
    labels = [e.label for e in make_entries("hcp,heuristic,heuristic,montecarlo:n=8")]
    assert labels == ["hcp/learned", "heuristic/learned#2", "heuristic/learned#3",
                      "montecarlo:n=8/learned"]


def test_every_entry_is_labelled_bid_slash_play():
    # an entry that plays the tournament's --play is spelled out like one with its own play
    labels = [e.label for e in make_entries("heuristic,heuristic/heuristic,hcp/random",
                                            play="heuristic")]
    assert labels == ["heuristic/heuristic#1", "heuristic/heuristic#2", "hcp/random"]
    labels = [e.label for e in make_entries("heuristic,heuristic/random")]
    assert labels == ["heuristic/learned", "heuristic/random"]


@pytest.mark.parametrize(
    "names, words",
    [
        (["heuristic"], ["at least two"]),
        (["heuristic"] * 5, ["5 strategies for 4 seats"]),
        (["heuristic", "nope"], ["unknown strategy", "'nope'"]),
        (["heuristic", "hcp:zzz=1"], ["no parameter", "'zzz'"]),
    ],
)
def test_bad_strategy_lists_are_refused(names, words):
    with pytest.raises(Exception) as e:
        make_entries(names)
    for w in words:
        assert w in str(e.value)


@pytest.mark.parametrize(
    "k, players, rotations, count",
    [(4, 4, "all", 24), (4, 4, 4, 4), (4, 4, "4", 4), (2, 4, "all", 6), (2, 4, "rotate", 2),
     (3, 4, "all", 12), (3, 4, 4, 4), (3, 3, "all", 6), (3, 3, 3, 3), (2, 3, "all", 3)],
)
def test_seatings_put_every_entry_in_every_seat_equally_often(k, players, rotations, count):
    seats = make_seatings(k, players, rotations)
    assert seats.shape == (count, players)
    assert len({tuple(r) for r in seats}) == count  # distinct
    base = Counter(s % k for s in range(players))
    for s in range(players):  # every seat sees each entry in proportion to its seats
        col = Counter(seats[:, s].tolist())
        for e in range(k):
            assert col[e] * players == count * base[e]


def test_bad_rotations_are_refused():
    with pytest.raises(TournamentError, match="rotations must be 'all' or 4"):
        make_seatings(2, 4, 3)
    with pytest.raises(TournamentError, match="'all' or 3"):
        make_seatings(2, 3, "4")


# --------------------------------------------------------------------------- kernel vs engine


def _task(names, deals, chunk, rotations="all", independent=False, play="heuristic",
          rules=None) -> TournamentTask:
    rules = rules or Rules()
    entries = make_entries(names, rules.players)
    seats = make_seatings(len(entries), rules.players, rotations)
    return TournamentTask(SEED, deals, chunk, rules, tuple(e.spec for e in entries), play,
                          tuple(tuple(int(v) for v in r) for r in seats), independent)


@pytest.mark.parametrize("independent", [False, True])
def test_chunk_equals_the_batch_engine_seating_by_seating(independent):
    """Every seating of duplicate deal i is play_batch's deal i with that seating (same stream
    (seed, i), same dealer: identical cards); in the independent design it is deal i * S + k."""
    rules = Rules()
    task = _task(["random", "heuristic", "hcp"], 9, 9, independent=independent,
                 play="random")
    res = run_chunk(task, 0)
    seats = np.array(task.seatings)
    names = [s.text for s in task.specs]
    n_seat = seats.shape[0]
    ysum = np.zeros((9, 3))
    tally = np.zeros((9, 3, len(TALLY_NAMES)), dtype=int)
    for k, row in enumerate(seats):
        bid = [names[e] for e in row]
        if independent:
            outs = [play_batch(SEED, i * n_seat + k, 1, rules, bid, ("random",) * 4)
                    for i in range(9)]
            out = {key: np.concatenate([o[key] for o in outs]) for key in outs[0]}
        else:
            out = play_batch(SEED, 0, 9, rules, bid, ("random",) * 4)
        for s, e in enumerate(row):
            m = (row == e).sum()
            sc = out[f"score_{s}"].astype(float)
            ysum[:, e] += sc / m
            c, t = out[f"contract_{s}"].astype(int), out[f"tricks_{s}"].astype(int)
            ok = ~out["thrown_in"]
            tally[:, e, 0] += 1
            tally[:, e, 1] += ok
            tally[:, e, 2] += ok & (t == c)
            tally[:, e, 3] += ok & (c == 0)
            tally[:, e, 9] += ok & (out["declarer"] == s)
            tally[:, e, 13] += ok & (out["declarer"] == s) & (t == c)
    np.testing.assert_allclose(res.ysum, ysum, rtol=0, atol=1e-9)
    assert TALLY_NAMES[13] == "declarer_hits"
    for col in (0, 1, 2, 3, 9, 13):
        np.testing.assert_array_equal(res.tally[:, :, col], tally[:, :, col], err_msg=str(col))
    if not independent:  # the cards (before Frisch play changes them) are the same deal
        dealt = [play_batch(SEED, 0, 9, rules, [names[e] for e in row], ("random",) * 4,
                            store_dealt=True) for row in seats[:3]]
        for d in dealt[1:]:
            for s in range(4):
                np.testing.assert_array_equal(d[f"dealt_{s}"], dealt[0][f"dealt_{s}"])


def test_results_do_not_depend_on_chunk_size_or_threads(tmp_path):
    kw = dict(strategies=["hcp", "ltc", "random"], deals=120, seed=SEED, rotations="all",
              sprt="0,-20", progress=False)
    a = tournament(**kw, chunk_size=7, threads=2, out=tmp_path / "a")
    b = tournament(**kw, chunk_size=50, threads=1, out=tmp_path / "b")
    assert a["deals"] == b["deals"]
    for x, y in zip(a["strategies"], b["strategies"], strict=True):
        for key in ("mean", "hit_rate", "zero_rate", "mean_level"):
            assert x[key] == pytest.approx(y[key], abs=1e-9), key
    for x, y in zip(a["pairs"], b["pairs"], strict=True):
        assert x["diff"] == pytest.approx(y["diff"], abs=1e-9)
        assert x["sprt"]["decision"] == y["sprt"]["decision"]
        assert x["sprt"]["deals"] == y["sprt"]["deals"]
    sa, sb = load_scores(tmp_path / "a"), load_scores(tmp_path / "b")
    assert len(sa) == a["deals"]
    np.testing.assert_array_equal(sa.to_numpy(), sb.to_numpy())
    assert list(sa.columns) == ["deal", "hcp/learned", "ltc/learned", "random/learned"]
    assert sa["deal"].tolist() == list(range(a["deals"]))
    assert sa["hcp/learned"].mean() == pytest.approx(a["strategies"][0]["mean"], abs=1e-3)


def test_three_players_and_play_policy():
    s = tournament(["hcp", "heuristic", "random"], 40, SEED, rules=Rules(players=3), play="random",
                   rotations=3, progress=False, threads=1)
    assert len(s["seatings"]) == 3 and s["players"] == 3 and s["play"] == "random"
    assert {p["a"] for p in s["pairs"]} == {"hcp/random", "heuristic/random"}


# --------------------------------------------------------------------------- statistics


def test_sprt_options_are_checked():
    assert parse_sprt("0,5") == (0.0, 5.0)
    assert parse_sprt(None) is None
    for bad in ("5", "a,b", "3,3", "1,2,3"):
        with pytest.raises(TournamentError):
            parse_sprt(bad)


# --------------------------------------------------------------------------- quality bars


def test_null_a_strategy_against_itself_ties_exactly_and_the_sprt_accepts_h0(one_thread):
    """Duplicate self-play: by symmetry every deal's difference is exactly 0, so the CI is [0, 0]
    (covers 0), p = 1 and the SPRT accepts H0 as soon as it may."""
    for names in (["heuristic", "heuristic"], ["random", "random", "hcp"]):
        s = tournament(names, 200, SEED, sprt="0,5", progress=False, executor=one_thread)
        pair = s["pairs"][0]
        assert pair["a"].endswith("#1") and pair["b"].endswith("#2")
        assert pair["diff"] == 0.0 and pair["ci"] == [0.0, 0.0] and pair["p"] == 1.0
        assert pair["sprt"]["decision"] == "H0"


def _binomial_tolerance(n: int, p: float, tail: float = 0.0005) -> tuple[int, int]:
    """Smallest and largest counts with a tail probability above ``tail`` on each side."""
    pmf = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    cdf = np.cumsum(pmf)
    lo = int(np.searchsorted(cdf, tail))
    hi = int(np.searchsorted(cdf, 1 - tail))
    return lo, hi


def test_false_positive_rate_of_the_paired_test_is_nominal(one_thread):
    """200 seeded heuristic-vs-heuristic tournaments with real noise (independent design: fresh
    cards for every play); the paired test rejects at 5 % about 10 times (99.9 % binomial
    tolerance), and the SPRT (H1: diff 5) accepts H1 at most as often as alpha allows."""
    rejections, h1 = 0, 0
    for i in range(200):
        s = tournament(["heuristic", "heuristic"], 60, SEED + i, design="independent",
                       progress=False, executor=one_thread)
        rejections += s["pairs"][0]["p"] < 0.05
        s = tournament(["heuristic", "heuristic"], 3000, 10_000 + i, design="independent",
                       sprt="0,5", chunk_size=40, progress=False, executor=one_thread)
        h1 += s["pairs"][0]["sprt"]["decision"] == "H1"
    lo, hi = _binomial_tolerance(200, 0.05)
    assert lo <= rejections <= hi, (rejections, lo, hi)
    assert h1 <= hi, (h1, hi)


def test_power_random_loses_to_heuristic_within_10000_deals(one_thread):
    s = tournament(["random", "heuristic"], 2000, SEED, rotations=4, progress=False,
                   executor=one_thread)
    pair = s["pairs"][0]
    assert pair["diff"] < -30 and pair["ci"][1] < -30 and pair["p"] < 1e-12
    s = tournament(["random", "heuristic"], 10_000, SEED, sprt="0,-10", progress=False,
                   executor=one_thread)
    assert s["pairs"][0]["sprt"]["decision"] == "H1" and s["deals"] < 10_000
    assert s["sprt"]["stopped"]


def test_duplicate_design_shrinks_the_interval(one_thread):
    """Against as many independent deals the duplicate interval is several times narrower, and a
    run of the independent design itself has a wider interval than the duplicate run."""
    kw = dict(strategies=["hcp", "heuristic", "ltc", "cautious"], deals=1500, seed=SEED,
              rotations=4, progress=False, executor=one_thread)
    dup = tournament(**kw)
    ind = tournament(**kw, design="independent")
    for p, q in zip(dup["pairs"], ind["pairs"], strict=True):
        assert p["ci_shrink"] > 1.5
        assert (p["ci"][1] - p["ci"][0]) < (q["ci"][1] - q["ci"][0])
        # the independent run's interval agrees with the duplicate run's estimate of it
        width = q["ci"][1] - q["ci"][0]
        est = p["ci_independent_plays"][1] - p["ci_independent_plays"][0]
        assert 0.7 < est / width < 1.4


def test_bench_tournament_reports_its_rates():
    r = bench_tournament(seconds=0.05)
    assert set(r) == {"tournament_seatings_per_s", "tournament_heuristic_deals_per_s",
                      "tournament_vs_heuristic"}
    assert all(v > 0 for v in r.values())


def test_bad_options_are_refused(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    cases = [
        (dict(out=tmp_path / "full"), "not empty"),
        (dict(deals=0), r"deals must be in 1\.\.1000000000000"),
        (dict(seed=-1), "seed must be in"),
        (dict(design="rubber"), "design must be one of"),
        (dict(play="psychic"), "unknown play policy"),
        (dict(sprt="1,1"), "two different numbers"),
        (dict(chunk_size=0), "chunk size must be >= 1"),
    ]
    for extra, words in cases:
        kw = dict(strategies=["heuristic", "hcp"], deals=10, seed=1, progress=False)
        kw.update(extra)
        with pytest.raises(TournamentError, match=words):
            tournament(**kw)


def test_strategy_parameters_reach_the_engine(one_thread):
    """A spec's parameters change its seat's decisions only: hcp with a margin of three tricks
    declares far less often than plain hcp, and montecarlo with no samples ties the heuristic."""
    s = tournament(["hcp:margin=3", "hcp"], 300, SEED, rotations=4, progress=False,
                   executor=one_thread)
    a, b = s["strategies"]
    assert a["name"] == "hcp:margin=3/learned" and a["declarer_rate"] < 0.5 * b["declarer_rate"]
    s = tournament(["montecarlo:n=0", "heuristic"], 300, SEED, progress=False,
                   executor=one_thread)
    assert s["pairs"][0]["diff"] == 0.0


def test_play_match_reports_contracts_made_by_role(one_thread):
    """A play match (one bidding strategy, play policies as entrants): each entrant's rates of
    contracts made as declarer, as another player above zero and as a zero bidder, consistent
    with its overall hit rate; the report and the text name the entrants' plays."""
    s = tournament(["heuristic/heuristic", "heuristic/random"], 60, SEED, play="heuristic",
                   progress=False, executor=one_thread)
    assert len(s["seatings"]) == 6  # every distinct seating of a,b,a,b
    for e in s["strategies"]:
        rates = [e["declarer_hit_rate"], e["other_hit_rate"], e["zero_success"]]
        shares = [e["declarer_rate"], 1 - e["declarer_rate"] - e["zero_rate"], e["zero_rate"]]
        made = sum(r * w for r, w in zip(rates, shares, strict=True) if r is not None)
        assert made == pytest.approx(e["hit_rate"], abs=1e-3)
        assert all(r is None or 0 <= r <= 1 for r in rates)
    heur, rand = s["strategies"]
    assert heur["declarer_hit_rate"] > rand["declarer_hit_rate"]
    md = render_markdown(s)
    assert "made: declarer / other / zero" in md
    assert "play policy `heuristic/heuristic: heuristic, heuristic/random: random`" in md
    frame = ranking_frame(s)
    assert {"declarer_hit_rate", "other_hit_rate"} <= set(frame.columns)
    # a summary written before the role rates existed still renders
    old = json.loads(json.dumps(s))
    for e in old["strategies"]:
        del e["declarer_hit_rate"], e["other_hit_rate"]
    assert "| - / - / " in ranking_table(old)
