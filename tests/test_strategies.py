"""The built-in bidding strategies (docs/STRATEGIES.md): registry and specs, legal play under
every rule variant (checked move by move by the reference engine's record replay, RULES §2-§6 and
§10), no draws from the deal's random stream, the montecarlo strategy's reproducibility, and the
hand estimates on hands worked out by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.entry.deal import loop_address, play_deal_in
from whist_sim.compiled.ground.layout import (
    N_PARAMS,
    R_DECK_SIZE,
    Deal,
    deck_array,
    new_state,
    rules_array,
)
from whist_sim.compiled.ground.rng import GOLDEN, stream_start
from whist_sim.compiled.strategies.bidding.estimators import (
    hcp_estimates,
    ltc_estimates,
    ltc_losers,
)
from whist_sim.compiled.strategies.dispatch import FULL
from whist_sim.compiled.strategies.registry import (
    BID_POLICIES,
    PLAY_HEURISTIC,
    get_info,
    seat_params,
)
from whist_sim.compiled.strategies.spec import (
    StrategyError,
    StrategySpec,
    param_rows,
    parse_strategy,
    strategy_names,
    strategy_table,
)
from whist_sim.core.cards import parse_hand
from whist_sim.core.rng import mix64
from whist_sim.core.rules import Rules
from whist_sim.engine.play import DealTrace
from whist_sim.engine.record import record_from_trace, replay_record

NEW = ("hcp", "ltc", "cautious", "aggressive", "montecarlo", "learned")
DETERMINISTIC = ("heuristic", "hcp", "ltc", "cautious", "aggressive", "montecarlo", "learned")
SEED = 606
VARIANTS = [
    Rules(),
    Rules(frisch=False),
    Rules(pass_is_final=True),
    Rules(frisch_directions="left,across,right", frisch_raises_minimum=False),
    Rules(players=3, three_player_deck="no_suit"),
    Rules(players=3, three_player_deck="no_low"),
    Rules(players=3, three_player_deck="one_random"),
]
VARIANT_IDS = ["default", "no_frisch", "pass_final", "directions", "three_no_suit", "three_no_low",
               "three_one_random"]


# --------------------------------------------------------------------------- registry and specs


def test_every_built_in_strategy_is_registered_with_a_unique_id():
    names = strategy_names()
    for n in ("random", "heuristic", *NEW):
        assert n in names
    ids = [info.id for info in BID_POLICIES.values()]
    assert len(ids) == len(set(ids))
    for row in strategy_table():
        assert row["description"] and len(row["params"]) <= N_PARAMS


def test_spec_parsing_and_canonical_text():
    spec = parse_strategy("montecarlo:n=16:span=3")
    assert spec == StrategySpec("montecarlo", (("n", 16.0), ("span", 3.0)))
    assert spec.text == "montecarlo:n=16:span=3"
    assert spec.values()["n"] == 16.0 and spec.values()["calls"] == 1.0
    assert parse_strategy(" hcp ").text == "hcp"
    assert parse_strategy("hcp:margin=0.5").text == "hcp:margin=0.5"
    rows = param_rows([parse_strategy("montecarlo:n=8"), parse_strategy("heuristic"),
                       parse_strategy("random")])
    assert rows.shape == (3, N_PARAMS)
    assert rows[0, 0] == 8.0 and rows[0, 1] == 1.0 and not rows[2].any()
    assert list(rows[1, :2]) == [1.0, 0.0] and not rows[1, 2:].any()  # nt, nt_hcp


@pytest.mark.parametrize(
    "text, words",
    [
        ("bogus", ["unknown strategy", "'bogus'", "heuristic"]),
        ("hcp:foo=1", ["no parameter", "'foo'", "points_per_trick"]),
        ("hcp:margin", ["not key=value"]),
        ("hcp:margin=x", ["margin", "not a number"]),
        ("hcp:margin=1:margin=2", ["given twice"]),
        ("montecarlo:n=2.5", ["whole number"]),
        ("montecarlo:n=-1", ["n must be in 0..4096"]),
        ("hcp:points_per_trick=inf", ["finite"]),
        ("heuristic:x=1", ["no parameter", "nt, nt_hcp"]),
        ("random:x=1", ["no parameter", "none"]),
        ("heuristic:nt=2", ["nt must be in 0..1"]),
        ("", ["a strategy must be a name"]),
    ],
)
def test_bad_specs_are_refused_by_name(text, words):
    with pytest.raises(StrategyError) as e:
        parse_strategy(text)
    for w in words:
        assert w in str(e.value)


# --------------------------------------------------------------------------- legal play


def _trace(tr: dict, j: int, rules: Rules, seed: int) -> DealTrace:
    p = rules.players
    nf = int(tr["n_frisch"][j])
    thrown = bool(tr["thrown_in"][j])
    return DealTrace(
        seed=seed, deal=int(tr["deal"][j]), dealer=int(tr["dealer"][j]), rules=rules,
        dealt=tuple(int(h) for h in tr["dealt"][j]),
        removed_card=int(tr["removed_card"][j]),
        frisch=tuple(tuple(int(m) for m in tr["frisch"][j, f, :p]) for f in range(nf)),
        calls=tuple(int(c) for c in tr["calls"][j, : tr["n_calls"][j]]),
        thrown_in=thrown, declarer=int(tr["declarer"][j]), trump=int(tr["trump"][j]),
        level=int(tr["level"][j]), hands=tuple(int(h) for h in tr["hands"][j]),
        contracts=() if thrown else tuple(int(c) for c in tr["contracts"][j]),
        plays=tuple(int(c) for c in tr["plays"][j, : tr["n_plays"][j]]),
        tricks=tuple(int(t) for t in tr["tricks"][j]),
        scores=tuple(int(s) for s in tr["scores"][j]),
        over=bool(tr["over"][j]),
    )


@pytest.mark.parametrize("rules", VARIANTS, ids=VARIANT_IDS)
def test_every_strategy_plays_legal_deals_that_replay_to_the_same_scores(rules):
    """RULES §2 (calls beat the highest bid), §3 (Frisch), §4 (declarer >= level, the hooked
    last bidder), §5 (following suit), §6 (scores): the reference engine replays every compiled
    deal of every strategy, mixed with random and heuristic seats, and scores it the same."""
    p = rules.players
    seatings = [
        (("hcp", "ltc", "cautious", "aggressive")[:p], ("heuristic",) * p),
        (("aggressive", "random", "hcp", "ltc")[:p], ("random", "heuristic", "heuristic",
                                                      "random")[:p]),
        (("montecarlo", "cautious", "heuristic", "random")[:p], ("heuristic",) * p),
        (("learned", "heuristic", "learned", "random")[:p], ("heuristic", "learned", "random",
                                                             "heuristic")[:p]),
    ]
    for k, (bid, play) in enumerate(seatings):
        count = 6 if "montecarlo" in bid else 40
        tr = play_traces(SEED + k, 0, count, rules, bid, play)
        for j in range(count):
            trace = _trace(tr, j, rules, SEED + k)
            res = replay_record(record_from_trace(trace))
            assert res.ok, (bid, j, res.error)
            if trace.thrown_in:
                assert res.thrown_in
                continue
            assert res.finished
            assert tuple(res.scores) == trace.scores, (bid, j)
            assert tuple(res.contracts) == trace.contracts


def test_declarer_contract_and_hook_over_many_deals():
    """RULES §4 on 4,000 deals per strategy: the declarer bids at least his level, the contracts
    never sum to 13, and the tricks always do (§5)."""
    rules = Rules()
    for name in ("hcp", "ltc", "cautious", "aggressive", "learned"):
        out = play_batch(SEED, 0, 4000, rules, (name,) * 4, ("heuristic",) * 4)
        played = ~out["thrown_in"]
        c = np.stack([out[f"contract_{s}"] for s in range(4)])[:, played].astype(int)
        t = np.stack([out[f"tricks_{s}"] for s in range(4)])[:, played].astype(int)
        decl = out["declarer"][played].astype(int)
        assert (c[decl, np.arange(decl.size)] >= out["level"][played]).all()
        assert (c.sum(axis=0) != 13).all()
        assert (t.sum(axis=0) == 13).all()
        assert played.mean() > 0.9, name  # these strategies bid: few throw-ins


# --------------------------------------------------------------------------- random stream


def _stream_after_deal(name: str, rules: Rules, deal: int) -> tuple[int, int]:
    """(rng state after one deal with ``name`` bidding at every seat, heuristic play; expected
    state if only the shuffle drew)."""
    p = rules.players
    st, hm, rng = new_state()
    pol = np.empty((2, p), dtype=np.int64)
    pol[0] = get_info(name, "bid").id
    pol[1] = PLAY_HEURISTIC
    par = np.zeros((2, p, N_PARAMS))
    par[0] = seat_params([name] * p, "bid", [{"n": 4.0} if name == "montecarlo" else {}] * p)
    rp = rules_array(rules)
    play_deal_in(loop_address(FULL), np.uint64(mix64(SEED)), deal, rp, deck_array(rules), pol,
                 par, Deal(st, hm, rng, np.zeros(52, np.int64)))
    start = int(stream_start(np.uint64(SEED), np.uint64(deal)))
    shuffle_draws = int(rp[R_DECK_SIZE]) - 1
    return int(rng[0]), (start + shuffle_draws * int(GOLDEN)) % (1 << 64)


@pytest.mark.parametrize("name", DETERMINISTIC)
def test_deterministic_strategies_draw_nothing_from_the_deal_stream(name):
    """docs/ENGINE.md §2: after a deal in which every seat bids by ``name`` (and plays by the
    heuristic) the deal's stream has advanced by the shuffle's draws only; montecarlo samples
    from its own sub-stream."""
    for rules in (Rules(), Rules(players=3, three_player_deck="one_random")):
        for deal in range(3 if name == "montecarlo" else 12):
            got, want = _stream_after_deal(name, rules, deal)
            assert got == want, (name, deal)


# --------------------------------------------------------------------------- montecarlo


def test_montecarlo_is_reproducible_and_independent_of_batching():
    rules = Rules()
    bid = ("montecarlo", "heuristic", "montecarlo", "random")
    play = ("heuristic", "heuristic", "heuristic", "random")
    a = play_batch(SEED, 0, 12, rules, bid, play)
    b = play_batch(SEED, 0, 12, rules, bid, play)
    c = play_batch(SEED, 5, 7, rules, bid, play)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
        np.testing.assert_array_equal(a[key][5:], c[key])


def test_montecarlo_with_no_samples_is_the_heuristic():
    rules = Rules()
    ref = play_traces(SEED, 0, 40, rules, ("heuristic",) * 4, ("heuristic",) * 4)
    got = _traces_with_params(rules, "montecarlo", {"n": 0.0}, 40)
    for key in ("calls", "contracts", "plays", "scores"):
        np.testing.assert_array_equal(got[key], ref[key], err_msg=key)
    # calls=0: the heuristic's auction (and Frisches), simulated contracts
    got = _traces_with_params(rules, "montecarlo", {"calls": 0.0, "n": 4.0}, 8)
    np.testing.assert_array_equal(got["calls"], ref["calls"][:8])
    assert (got["contracts"] != ref["contracts"][:8]).any()


def _traces_with_params(rules: Rules, name: str, params: dict, count: int) -> dict:
    """play_traces with parameter overrides for every seat, given in the spec
    (``montecarlo:n=0``)."""
    spec = name + "".join(f":{k}={v:g}" for k, v in params.items())
    return play_traces(SEED, 0, count, rules, (spec,) * rules.players,
                       ("heuristic",) * rules.players)


def test_montecarlo_beats_the_heuristic_in_its_seat():
    """The simulation picks better contracts than the estimate it starts from: seat 0 scores more
    as montecarlo than as heuristic on the same 150 deals (the other seats heuristic)."""
    rules = Rules()
    heur = ("heuristic",) * 4
    mc = play_batch(SEED, 0, 150, rules, ("montecarlo",) + heur[1:], heur)
    ref = play_batch(SEED, 0, 150, rules, heur, heur)
    diff = mc["score_0"].astype(float) - ref["score_0"].astype(float)
    assert diff.mean() > 2 * diff.std() / np.sqrt(diff.size)


# --------------------------------------------------------------------------- estimates


def _par(name: str) -> np.ndarray:
    par = np.zeros((2, 1, N_PARAMS))
    par[0] = seat_params([name], "bid")
    return par


@pytest.mark.parametrize(
    "suit, losers",
    [("", 0), ("A", 0), ("K", 1), ("2", 1), ("AK", 0), ("A2", 1), ("K2", 1), ("Q2", 2),
     ("32", 2), ("AKQ", 0), ("AK2", 1), ("KQ2", 1), ("A32", 2), ("432", 3), ("AKQJT98", 0),
     ("Q5432", 2)],
)
def test_losing_trick_count_per_suit(suit, losers):
    sb = np.uint64(parse_hand(f"S:{suit} H: D: C:") >> 39)
    assert ltc_losers(sb) == losers


def test_ltc_and_hcp_estimates_of_a_worked_hand():
    # S: AKQ32 (0 losers, 5 cards)  H: K2 (1 loser: 1 winner)  D: 432 (3 losers)  C: AQ2 (1 loser)
    hand = np.uint64(parse_hand("S:AKQ32 H:K2 D:432 C:AQ2"))
    e = ltc_estimates(hand, rules_array(Rules()), _par("ltc"), 0)
    # spades trump: 5 - 0 = 5, side winners H 1 + D 0 + C 2 = 3, x 0.8
    assert e[3] == pytest.approx(5 + 0.8 * 3)
    # NT: 0.8 x (3 + 1 + 0 + 2) + 0.5 x (5 - 4)
    assert e[4] == pytest.approx(0.8 * 6 + 0.5)
    h = hcp_estimates(hand, rules_array(Rules()), _par("hcp"), 0)
    hcp = 9 + 3 + 0 + 6
    # spades: 5 trumps -> +4 x 2; shortness: hearts doubleton 1, capped at 3 x 3
    assert h[3] == pytest.approx((hcp + 8 + 1) / 4)
    # hearts: 2 trumps, no length or shortness points
    assert h[2] == pytest.approx(hcp / 4)
    assert h[4] == pytest.approx((hcp + 2 * 1) / 4)


def test_cautious_bids_zero_more_often_and_aggressive_less_than_the_heuristic():
    """The shaded strategies differ from the baseline the way their descriptions say."""
    rules = Rules()
    rates = {}
    for name in ("heuristic", "cautious", "aggressive"):
        out = play_batch(SEED, 0, 3000, rules, (name,) * 4, ("heuristic",) * 4)
        played = ~out["thrown_in"]
        c = np.stack([out[f"contract_{s}"] for s in range(4)])[:, played].astype(int)
        rates[name] = ((c == 0).mean(), c.sum(axis=0).mean())
    assert rates["cautious"][0] > rates["heuristic"][0] > rates["aggressive"][0]
    assert rates["aggressive"][1] > rates["heuristic"][1] > rates["cautious"][1]


@pytest.mark.parametrize(
    "rules", VARIANTS + [Rules(bid_order="suit"), Rules(players=3, three_player_deck="no_suit",
                                                        bid_order="suit")],
    ids=VARIANT_IDS + ["suit_order", "three_no_suit_suit_order"])
def test_the_shaded_strategies_without_a_margin_call_as_the_heuristic(rules):
    """``cautious`` and ``aggressive`` with ``margin_q=0`` make the heuristic's auction calls
    (docs/STRATEGIES.md): every call of every deal is the same, alone and seated beside the
    heuristic (they read the heuristic's cached estimates and best strain of the seat's hand)."""
    p = rules.players
    base = play_traces(SEED, 0, 400, rules, ("heuristic",) * p, ("heuristic",) * p)
    seatings = [("cautious:margin_q=0",) * p, ("aggressive:margin_q=0",) * p,
                ("heuristic", "cautious:margin_q=0", "aggressive:margin_q=0",
                 "cautious:margin_q=0")[:p]]
    for bid in seatings:
        out = play_traces(SEED, 0, 400, rules, bid, ("heuristic",) * p)
        assert np.array_equal(out["n_calls"], base["n_calls"]), bid
        assert np.array_equal(out["calls"], base["calls"]), bid
        assert np.array_equal(out["frisch"], base["frisch"]), bid
