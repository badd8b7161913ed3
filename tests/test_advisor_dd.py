"""The double-dummy view of the advisor (``advise --eval dd``, whist_sim.analyses.advisor.dd_view).

* The hands solved are the advisor's own sampled deals at the start of play (the first
  ``dd_deals`` of them): dealt again from the streams ``(seed, j)`` they are the same cards, the
  heuristic results of each candidate on them are those of the run, constraints and consistent
  sampling included.
* The distributions are those of direct ``solve_batch`` calls on those hands (trump of the
  advice, the declarer on lead, RULES §5), with unsolved deals counted and left out; Wilson
  intervals from ``whist_sim.core.stats``; results do not depend on threads.
* Valid relations only (docs/DD.md): ``k`` exactly makeable implies whist-min <= k <= whist-max;
  whist-min > whist-max happens, and then nothing is exactly makeable.
* ``--eval heuristic`` (the default) leaves the advice unchanged; bad input gets a clear error;
  three-player rules (RULES §8) are refused.

Small sizes: 8-16 solved deals, node limits of 20,000-200,000 card plays.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from whist_sim import advise
from whist_sim.analyses.advisor import (
    DEFAULT_DD_DEALS,
    DEFAULT_DD_NODE_LIMIT,
    AdviceError,
    resolve_scenario,
    run_scenario,
    sample_play_hands,
    solve_dd,
)
from whist_sim.compiled.ground.conditional import deal_hidden
from whist_sim.compiled.ground.layout import H_HAND, new_state, rules_array, sampler_scratch
from whist_sim.compiled.ground.rng import stream_start
from whist_sim.compiled.loop.phases import begin_contracts
from whist_sim.core.cards import STRAINS, parse_hand
from whist_sim.core.rules import Rules
from whist_sim.core.stats import wilson_interval
from whist_sim.dd import UNSOLVED, solve_batch
from whist_sim.interfaces.cli import main

HAND = "AKQ2.K3.QJ54.872"
ALL_SPADES = "AKQJT98765432..."
# min > max on most deals (diamonds trump, on lead): nothing exactly makeable
STRONG_D = "AKQJT98.AKQJ.A.2"
# no-trump, on lead: 12 or 13 exactly makeable on some deals
STRONG_NT = "A.AKJT8.AKQ.AKQT"
LIMIT = 200_000


def _cli(*args: str):
    # not about the check against search: --no-check keeps these fast
    return CliRunner().invoke(main, ["advise", *args, "--no-check"])


# --------------------------------------------------------------------------- the sampled deals


def test_sampled_hands_are_the_advisors_deals():
    """Stream (seed, j), docs/ENGINE.md §2: the same hands as dealt directly, and the heuristic
    results of every candidate on them are run_scenario's (so they are the run's deals)."""
    rules = Rules()
    scen = resolve_scenario(HAND, trump="S", declarer=3, bids=[6])
    run = run_scenario(scen, 24, seed=7, infer=False)  # every deal as dealt: no conditions
    got = sample_play_hands(scen, 12, seed=7, infer=False)
    assert got.hands.shape == (12, 4) and got.hands.dtype == np.uint64
    np.testing.assert_array_equal(got.tricks, run.tricks[:, :12])
    rp = rules_array(rules)
    st, hm, rng = new_state()
    known = np.array(scen.known, dtype=np.uint64)
    for j in range(12):
        rng[0] = stream_start(np.uint64(7), np.uint64(j))
        begin_contracts(st, hm, rp, j, 3, 3, 5)
        deal_hidden(st, hm, rp, known, np.uint64(rules.deck_mask), *sampler_scratch(), rng)
        assert [int(hm[H_HAND + s]) for s in range(4)] == [int(h) for h in got.hands[j]]
    h = got.hands
    assert (h[:, 0] == parse_hand(HAND)).all()  # the player's hand is fixed
    union = h[:, 0] | h[:, 1] | h[:, 2] | h[:, 3]
    assert (union == (1 << 52) - 1).all()
    assert len({tuple(int(x) for x in row) for row in h}) == 12


def test_sampled_hands_under_constraints_known_cards_and_consistent_bids():
    """Rejection sampling draws from the same stream: the same accepted deals and tries as the
    run; the known cards sit in their seat; the constraint holds."""
    scen = resolve_scenario(HAND, trump="H", declarer=1, bids=[6, 2], known={2: "JS,AH"},
                            constraints=["1:hcp=8-"])
    run = run_scenario(scen, 10, seed=3, infer=True)
    got = sample_play_hands(scen, 10, seed=3, infer=True, pilot_rate=run.pilot_rate)
    np.testing.assert_array_equal(got.tricks, run.tricks)
    assert int(got.tries.sum()) == run.tries
    known = parse_hand("J.A..")
    assert (got.hands[:, 2] & np.uint64(known) == np.uint64(known)).all()
    hcp = {12: 4, 11: 3, 10: 2, 9: 1}
    for m in got.hands[:, 1]:
        assert sum(hcp.get(c % 13, 0) for c in range(52) if int(m) >> c & 1) >= 8


# --------------------------------------------------------------------------- the distributions


def _direct(hands, trump, leader, seat, limit):
    return {
        "max": solve_batch(hands, trump, leader, "whist-max", seat, threads=1, node_limit=limit),
        "min": solve_batch(hands, trump, leader, "whist-min", seat, threads=1, node_limit=limit),
        "exact": solve_batch(hands, trump, leader, "whist-exact", seat, threads=1,
                             node_limit=limit),
    }


@pytest.mark.parametrize("hand,trump,declarer,bids,limit", [
    (STRONG_D, "D", 0, [], LIMIT),
    (STRONG_D, "D", 0, [], 20_000),  # many unsolved
    (STRONG_NT, "NT", 2, [7, 0], LIMIT),  # seat 0 bids third, declarer seat 2 leads
])
def test_distributions_match_direct_solve_batch(hand, trump, declarer, bids, limit):
    a = advise(hand, trump=trump, declarer=declarer, bids=bids, deals=30, seed=4,
               evaluation="dd", dd_deals=12, dd_node_limit=limit, threads=2)
    scen = a.scenario
    hands = sample_play_hands(scen, 12, seed=4).hands
    t = scen.trump
    direct = _direct(hands, t, declarer, scen.seat, limit)
    for key in ("max", "min", "exact"):
        np.testing.assert_array_equal(a.dd.raw[t][key], direct[key])
    d = a.to_dict()["dd"]
    assert (d["deals"], d["of_deals"], d["node_limit"]) == (12, 30, limit)
    assert (d["seat"], d["leader"]) == (scen.seat, declarer)  # RULES §5: the declarer leads
    (entry,) = d["strains"]
    assert entry["strain"] == STRAINS[t]
    for key, name in (("max", "whist_max"), ("min", "whist_min")):
        v = direct[key]
        ok = v != UNSOLVED
        n = int(ok.sum())
        assert entry[name]["solved"] == n and entry[name]["unsolved"] == 12 - n
        counts = np.bincount(v[ok].astype(int), minlength=14)
        if n:
            np.testing.assert_allclose(entry[name]["p"], counts / n, atol=1e-6)
            assert entry[name]["mean"] == pytest.approx(v[ok].mean(), abs=1e-5)
            lo, hi = wilson_interval(counts, np.full(14, n), 0.95)
            np.testing.assert_allclose(np.array(entry[name]["ci"]), np.c_[lo, hi], atol=1e-6)
    ex = direct["exact"]
    ok = ex[:, 0] != UNSOLVED
    assert ((ex == UNSOLVED).all(axis=1) == ~ok).all()  # -1 in every column of an unsolved row
    n = int(ok.sum())
    assert entry["exact"]["solved"] == n
    if n:
        hits = (ex[ok] == 1).sum(axis=0)
        np.testing.assert_allclose(entry["exact"]["p"], hits / n, atol=1e-6)
        assert entry["exact"]["p_none"] == pytest.approx((ex[ok].max(axis=1) == 0).mean())
    # DD-best bids: the candidates of the advice, with the heuristic P(make) beside them
    bids_h = {r["bid"]: r["p_make"] for r in a.to_dict()["bids"]}
    assert [b["bid"] for b in entry["bids"]] == sorted(bids_h)
    for b in entry["bids"]:
        assert b["p_make"] == bids_h[b["bid"]]
        assert b["p_exact"] == entry["exact"]["p"][b["bid"]]
    if limit == 20_000:
        assert 0 < entry["whist_min"]["unsolved"] and "left unsolved" in str(a)


@pytest.mark.parametrize("hand,trump", [(STRONG_D, "D"), (STRONG_NT, "NT"), (HAND, "S")])
def test_exact_implies_min_le_k_le_max(hand, trump):
    """docs/DD.md: exactly k implies whist-min <= k <= whist-max (only where both are solved);
    min <= max is not required. The max/min distributions sum to 1 over the solved deals."""
    scen = resolve_scenario(hand, trump=trump, declarer=0)
    hands = sample_play_hands(scen, 12, seed=1).hands
    raw = solve_dd(hands, 0, 0, (scen.trump,), LIMIT)[scen.trump]
    both = (raw["max"] >= 0) & (raw["min"] >= 0) & (raw["exact"][:, 0] >= 0)
    checked = 0
    for i in np.flatnonzero(both):
        for k in np.flatnonzero(raw["exact"][i] == 1):
            assert raw["min"][i] <= k <= raw["max"][i]
            checked += 1
        if raw["min"][i] > raw["max"][i]:
            assert not (raw["exact"][i] == 1).any()
    if hand == STRONG_NT:
        assert checked > 0
    a_tab = _view_table(scen, raw)
    for key in ("p_max", "p_min"):
        sums = a_tab[key].to_numpy()
        assert np.isnan(sums).all() or sums.sum() == pytest.approx(1.0)


def _view_table(scen, raw):
    from whist_sim.analyses.advisor import DDView

    view = DDView(raw={scen.trump: raw}, deals=12, of_deals=12, node_limit=LIMIT, seat=0,
                  leader=0, n_tricks=13, confidence=0.95, candidates={scen.trump: ()},
                  p_make={scen.trump: ()}, elapsed_s=0.0)
    return view.table()


def test_auction_mode_every_strain_with_the_player_on_lead():
    """All thirteen spades, declaring and leading (RULES §5): in spades and no-trump he takes
    all 13 whatever happens; in another trump the others decide: a ruff of his first lead gives
    him nothing (whist-max 0), not ruffing gives him at least that trick (whist-min >= 1), so
    whist-min > whist-max and nothing is exactly makeable (docs/DD.md)."""
    a = advise(ALL_SPADES, deals=20, seed=2, evaluation="dd", dd_deals=4, dd_node_limit=LIMIT)
    d = a.to_dict()["dd"]
    assert [e["strain"] for e in d["strains"]] == list(STRAINS)
    assert d["leader"] == d["seat"] == 0
    for e in d["strains"]:
        assert e["whist_max"]["solved"] == e["whist_min"]["solved"] == 4
        assert e["exact"]["solved"] == 4
        if e["strain"] in ("S", "NT"):
            assert e["whist_max"]["mean"] == e["whist_min"]["mean"] == 13
            assert e["exact"]["p"][13] == 1.0 and sum(e["exact"]["p"]) == 1.0
            assert e["best_bid"] == 13
        else:
            assert e["whist_max"]["mean"] == 0 and e["whist_min"]["p"][0] == 0
            assert e["exact"]["p_none"] == 1.0 and e["best_bid"] is None
    assert len(d["strains"][0]["bids"]) == 9  # contracts 5..13 (auction mode)
    text = str(a)
    assert "DD-best bids" in text and "no contract exactly makeable" in text


def test_results_do_not_depend_on_threads():
    kw = dict(trump="NT", declarer=0, deals=16, seed=9, evaluation="dd", dd_deals=8,
              dd_node_limit=50_000)
    assert advise(STRONG_NT, threads=1, **kw).to_dict() == advise(STRONG_NT, threads=2,
                                                                  **kw).to_dict()


# --------------------------------------------------------------------------- unchanged, errors


def test_heuristic_evaluation_is_unchanged():
    kw = dict(trump="S", declarer=3, bids=[6], deals=300, seed=0)
    plain = advise(HAND, **kw)
    same = advise(HAND, evaluation="heuristic", **kw)
    assert plain.to_dict() == same.to_dict() and str(plain) == str(same)
    assert "dd" not in plain.to_dict() and "eval" not in plain.to_dict()
    assert "double dummy" not in str(plain)
    # the dd evaluation adds to the advice and changes nothing of it
    dd = advise(HAND, evaluation="dd", dd_deals=8, dd_node_limit=20_000, **kw).to_dict()
    assert dd.pop("eval") == "dd" and dd.pop("dd") is not None
    assert dd == plain.to_dict()
    r1 = _cli(HAND, "--trump", "S", "--declarer", "3", "--bids", "6", "--deals", "300")
    r2 = _cli(HAND, "--trump", "S", "--declarer", "3", "--bids", "6", "--deals", "300",
              "--eval", "heuristic")
    assert r1.exit_code == 0 and r1.output == r2.output
    assert r1.output.strip() == str(plain)


def test_whist_min_has_its_own_node_limit():
    # dd_min_node_limit: whist-min solved under its own (lower) limit, the other two unchanged
    a = advise(STRONG_D, trump="D", declarer=0, deals=30, seed=4, evaluation="dd", dd_deals=12,
               dd_node_limit=LIMIT, dd_min_node_limit=2_000, threads=2)
    scen = a.scenario
    hands = sample_play_hands(scen, 12, seed=4).hands
    t = scen.trump
    full = _direct(hands, t, 0, scen.seat, LIMIT)
    low = solve_batch(hands, t, 0, "whist-min", scen.seat, threads=1, node_limit=2_000)
    np.testing.assert_array_equal(a.dd.raw[t]["max"], full["max"])
    np.testing.assert_array_equal(a.dd.raw[t]["exact"], full["exact"])
    np.testing.assert_array_equal(a.dd.raw[t]["min"], low)
    assert (low == UNSOLVED).sum() > (full["min"] == UNSOLVED).sum()  # the limit bites
    d = a.to_dict()["dd"]
    assert (d["node_limit"], d["min_node_limit"]) == (LIMIT, 2_000)
    assert f"at most {LIMIT:,} (2,000 for whist-min) card plays per solve" in str(a)
    same = advise(STRONG_D, trump="D", declarer=0, deals=30, seed=4, evaluation="dd",
                  dd_deals=12, dd_node_limit=LIMIT, threads=2)
    assert same.to_dict()["dd"]["min_node_limit"] == LIMIT  # by default whist-min's is the same
    assert "for whist-min)" not in str(same)


def test_default_dd_deals_and_node_limit():
    a = advise(ALL_SPADES, trump="S", deals=30, evaluation="dd")
    assert a.dd.deals == min(DEFAULT_DD_DEALS, 30) and a.dd.node_limit == DEFAULT_DD_NODE_LIMIT


@pytest.mark.parametrize("kwargs,message", [
    (dict(evaluation="exact"), "evaluation 'exact'"),
    (dict(dd_deals=5), "double-dummy evaluation only"),
    (dict(dd_node_limit=1000), "double-dummy evaluation only"),
    (dict(evaluation="dd", dd_deals=50), "more than the 20 sampled deals"),
    (dict(evaluation="dd", dd_deals=0), "dd_deals must be"),
    (dict(evaluation="dd", dd_deals=True), "dd_deals must be"),
    (dict(evaluation="dd", dd_node_limit=0), "dd_node_limit must be"),
    (dict(evaluation="dd", dd_node_limit=2.5), "dd_node_limit must be"),
    (dict(dd_min_node_limit=1000), "double-dummy evaluation only"),
    (dict(evaluation="dd", dd_min_node_limit=0), "dd_min_node_limit must be"),
])
def test_api_errors(kwargs, message):
    with pytest.raises(AdviceError, match=message):
        advise(HAND, trump="S", deals=20, **kwargs)


def test_three_players_are_refused():
    """RULES §8: the solver plays the 52-card, four-player game only."""
    rules = Rules(players=3, three_player_deck="no_low")
    with pytest.raises(AdviceError, match="four-player game only"):
        advise("AKQJT9876.AK.A.", trump="S", deals=20, rules=rules, evaluation="dd")
    r = _cli("AKQJT9876.AK.A.", "--trump", "S", "--deals", "20", "--players", "3",
             "--three-player-deck", "no_low", "--eval", "dd")
    assert r.exit_code == 2 and "four-player game only" in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args,message", [
    (["--dd-deals", "5"], "add --eval dd"),
    (["--dd-node-limit", "5000"], "add --eval dd"),
    (["--eval", "dd", "--dd-deals", "50"], "more than the 20 sampled deals"),
    (["--eval", "dd", "--dd-node-limit", "0"], "--dd-node-limit"),
    (["--dd-min-node-limit", "5000"], "add --eval dd"),
    (["--eval", "dd", "--dd-min-node-limit", "0"], "--dd-min-node-limit"),
    (["--eval", "dd", "--dd-deals", "x"], "--dd-deals"),
    (["--eval", "perfect"], "--eval"),
])
def test_cli_errors(args, message):
    r = _cli(HAND, "--trump", "S", "--deals", "20", *args)
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_cli_json_text_plot_and_progress(tmp_path):
    base = [STRONG_NT, "--trump", "NT", "--deals", "40", "--seed", "3", "--eval", "dd",
            "--dd-deals", "8", "--dd-node-limit", "50000", "--threads", "2"]
    r = _cli(*base, "--json", "--no-progress")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["schema"] == "whist-sim/advice/1" and d["eval"] == "dd"
    e = d["dd"]["strains"][0]
    assert set(e) == {"strain", "whist_max", "whist_min", "exact", "bids", "best_bid",
                      "zero_impossible"}
    assert set(e["whist_max"]) == {"solved", "unsolved", "p", "ci", "mean", "at_least"}
    assert len(e["whist_max"]["at_least"]) == 14
    assert set(e["whist_min"]) == {"solved", "unsolved", "p", "ci", "mean", "at_most",
                                   "unsolved_proved_ge1"}
    assert len(e["whist_min"]["at_most"]) == 14
    assert set(e["exact"]) == {"solved", "unsolved", "p", "ci", "p_none"}
    assert len(e["exact"]["p"]) == len(e["exact"]["ci"]) == 14
    plot = tmp_path / "dd.png"
    r = _cli(*base, "--plot", str(plot), "--progress")  # a bar: on stderr, not in the advice
    assert r.exit_code == 0, r.output
    assert plot.stat().st_size > 1000
    assert "double dummy" in r.stderr and "solve" in r.stderr
    out = r.stdout
    assert "double dummy (every hand seen" in out and "whist-max = k" in out
    assert "DD-best bids" in out and "first 8 of the 40 sampled deals" in out


def test_unsolved_whist_min_keeps_its_proved_bounds():
    # whist-min searches climb from below: a stopped one still proves "at least lo" tricks, and
    # the view counts the deals where that already rules out a zero bid; the searches from the
    # top prove "at most hi", and "min<=k proved / possible" counts every deal by that range
    a = advise(STRONG_D, trump="D", declarer=0, deals=30, seed=4, evaluation="dd", dd_deals=12,
               dd_node_limit=20_000, threads=1)
    scen = a.scenario
    hands = sample_play_hands(scen, 12, seed=4).hands
    t = scen.trump
    val, lo, hi = solve_batch(hands, t, 0, "whist-min", scen.seat, threads=1, node_limit=20_000,
                              return_bounds=True)
    raw = a.dd.raw[t]
    np.testing.assert_array_equal(raw["min"], val)
    np.testing.assert_array_equal(raw["min_lo"], lo)
    unsolved = val == UNSOLVED
    summ = a.dd.summary().loc[STRAINS[t]]
    assert summ["min_unsolved_ge1"] == int((lo[unsolved] >= 1).sum())
    assert summ["zero_impossible"] == int((val >= 1).sum() + (lo[unsolved] >= 1).sum())
    entry = a.to_dict()["dd"]["strains"][0]
    assert entry["whist_min"]["unsolved_proved_ge1"] == summ["min_unsolved_ge1"]
    assert entry["zero_impossible"] == summ["zero_impossible"]
    np.testing.assert_array_equal(raw["min_hi"], hi)
    assert unsolved.any() and (lo[unsolved] < hi[unsolved]).all()
    ks = np.arange(14)
    proved = (hi[:, None] <= ks).mean(axis=0)
    possible = (lo[:, None] <= ks).mean(axis=0)
    assert (proved <= possible).all() and (proved < possible).any()
    np.testing.assert_allclose(np.array(entry["whist_min"]["at_most"]), np.c_[proved, possible],
                               atol=1e-6)
    text = str(a)
    assert "min<=k proved" in text and "min<=k possible" in text


def test_whist_max_at_least_counts_every_deal_by_its_proved_range():
    # the distribution of the solved deals leans to the quick ones; "max>=k proved / possible"
    # counts every deal, an unsolved one by the bounds its whist-max searches proved (docs/DD.md:
    # they narrow it from both ends), so the true share over all the deals lies between the two
    a = advise(HAND, trump="S", deals=40, seed=4, evaluation="dd", dd_deals=12,
               dd_node_limit=20_000, threads=1)
    scen = a.scenario
    hands = sample_play_hands(scen, 12, seed=4).hands
    t = scen.trump
    val, lo, hi = solve_batch(hands, t, a.dd.leader, "whist-max", scen.seat, threads=1,
                              node_limit=20_000, return_bounds=True)
    raw = a.dd.raw[t]
    np.testing.assert_array_equal(raw["max"], val)
    np.testing.assert_array_equal(raw["max_lo"], lo)
    np.testing.assert_array_equal(raw["max_hi"], hi)
    unsolved = val == UNSOLVED
    assert unsolved.any() and (lo[unsolved] < hi[unsolved]).all()
    ks = np.arange(14)
    proved = (lo[:, None] >= ks).mean(axis=0)
    possible = (hi[:, None] >= ks).mean(axis=0)
    assert (proved < possible).any()
    entry = a.to_dict()["dd"]["strains"][0]
    np.testing.assert_allclose(np.array(entry["whist_max"]["at_least"]), np.c_[proved, possible],
                               atol=1e-6)
    # a larger limit solves more deals; each value lies within the range proved before
    better = solve_batch(hands, t, a.dd.leader, "whist-max", scen.seat, threads=1,
                         node_limit=2_000_000)
    ok = better != UNSOLVED
    assert ok[unsolved].any()
    assert ((lo <= better) & (better <= hi))[ok].all()
    text = str(a)
    assert "max>=k proved" in text and "max>=k possible" in text
    # with every deal solved both rows are the solved distribution's tail, and are not printed
    b = advise(STRONG_NT, trump="NT", deals=30, seed=4, evaluation="dd", dd_deals=6,
               dd_node_limit=LIMIT, threads=1)
    (entry,) = b.to_dict()["dd"]["strains"]
    assert entry["whist_max"]["unsolved"] == 0
    tail = np.cumsum(np.array(entry["whist_max"]["p"])[::-1])[::-1]
    np.testing.assert_allclose(np.array(entry["whist_max"]["at_least"]), np.c_[tail, tail],
                               atol=1e-6)
    assert "max>=k proved" not in str(b)


def test_compile_notice_only_after_the_hand_is_checked(monkeypatch):
    # the first --eval dd run compiles the solver for a minute or two and says so on stderr; a
    # malformed hand is reported at once, without that wait
    import whist_sim.dd as dd_pkg

    def fake_warm_up(notify):
        if notify is not None:
            notify("compiling ...")

    monkeypatch.setattr(dd_pkg, "warm_up", fake_warm_up)
    r = _cli("AKQJT9876.AK.A.X", "--trump", "S", "--deals", "20", "--eval", "dd")
    assert r.exit_code != 0 and "compiling" not in r.output and "Traceback" not in r.output
    r = _cli(HAND, "--trump", "S", "--deals", "20", "--eval", "dd", "--dd-deals", "2",
             "--dd-node-limit", "2000", "--json", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "compiling ..." in r.stderr and json.loads(r.stdout)["eval"] == "dd"
