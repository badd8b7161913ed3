"""Same game, two engines: the compiled engine (whist_sim.compiled) and the reference engine
(whist_sim.engine) make identical calls, Frisch passes, contracts, plays and scores, deal for deal,
with the same seed, rules and policies (docs/ENGINE.md; RULES.md §1-§8).

Runs every rule option that changes play (Frisch on/off, raising minimum, directions,
pass_is_final, three players with each deck) for random, heuristic and mixed seatings. Random
bidders almost never pass four times, so deals with Frisches and throw-ins are picked out of a
larger compiled batch and compared too; the random Frisch choice itself is compared decision by
decision.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.ground._numba import jit
from whist_sim.compiled.ground.layout import (
    H_FRISCH,
    H_HAND,
    N_PARAMS,
    PH_FRISCH,
    R_HAND,
    R_PLAYERS,
    S_FIRST,
    S_NCHOSEN,
    S_NFRISCH,
    S_PHASE,
    S_TURN,
    new_state,
    rules_array,
)
from whist_sim.compiled.ground.rng import stream_start
from whist_sim.compiled.loop.phases import apply_frisch
from whist_sim.compiled.strategies.bidding.heuristic import est_q_all, heuristic_frisch
from whist_sim.compiled.strategies.bidding.random import random_frisch
from whist_sim.compiled.strategies.dispatch import BASE, choose_frisch
from whist_sim.core.rng import DealRng
from whist_sim.core.rules import Rules
from whist_sim.engine import DealState, get_policy, play_deal
from whist_sim.engine import policies as ref_policies

SEED = 20240611


@jit
def _frisch(st, hm, rp, pol, par, rng, f):
    """Frisch number ``f`` through the loop's transition: every seat chooses, then cards move."""
    st[S_PHASE] = PH_FRISCH
    st[S_NFRISCH] = f
    st[S_NCHOSEN] = 0
    st[S_TURN] = st[S_FIRST]
    for _ in range(rp[R_PLAYERS]):
        seat = st[S_TURN]
        apply_frisch(st, hm, rp, seat, choose_frisch(BASE, pol, par, st, hm, rp, seat, rng))


VARIANTS = [
    Rules(),
    Rules(frisch=False),
    Rules(frisch_raises_minimum=False),
    Rules(frisch_directions="left,across,right"),
    Rules(frisch_directions="right,left,across", frisch_raises_minimum=False),
    Rules(pass_is_final=True),
    Rules(pass_is_final=True, frisch=False),
    Rules(players=3, three_player_deck="no_suit"),
    Rules(players=3, three_player_deck="no_low"),
    Rules(players=3, three_player_deck="one_random"),
    Rules(players=3, three_player_deck="one_random", frisch_directions="right,right,left",
          pass_is_final=True),
    Rules(bid_order="suit"),
    Rules(bid_order="suit", pass_is_final=True, after_third_frisch="redeal"),
    Rules(players=3, three_player_deck="no_suit", bid_order="suit"),
    Rules(after_third_frisch="redeal"),
]


def seatings(p: int) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    r, h = ("random",) * p, ("heuristic",) * p
    return {
        "random": (r, r),
        "heuristic": (h, h),
        "mixed": (("heuristic", "random", "heuristic", "random")[:p],
                  ("random", "heuristic", "heuristic", "random")[:p]),
        "mixed2": (("random", "heuristic", "random", "heuristic")[:p], h),
        "expert": (h, ("expert",) * p),
        "mixed3": (("heuristic", "random", "heuristic", "random")[:p],
                   ("expert", "heuristic", "random", "expert")[:p]),
        "planner": (h, ("planner", "expert", "planner", "heuristic")[:p]),
        "learned": (h, ("learned", "expert", "learned", "planner")[:p]),
    }


def seat_policy(bid: str, play: str):
    """One reference-engine policy from a bidding strategy and a play policy."""
    b, c = get_policy(bid), get_policy(play)

    def policy(state, rng):
        return c(state, rng) if state.phase == "play" else b(state, rng)

    return policy


def kernel_trace(tr: dict[str, np.ndarray], j: int) -> dict[str, object]:
    """Deal ``j`` of :func:`play_traces` output in the field conventions of ``DealTrace``."""
    thrown = bool(tr["thrown_in"][j])
    return {
        "dealer": int(tr["dealer"][j]),
        "removed_card": int(tr["removed_card"][j]),
        "dealt": tuple(int(x) for x in tr["dealt"][j]),
        "frisch": tuple(tuple(int(x) for x in tr["frisch"][j, f])
                        for f in range(int(tr["n_frisch"][j]))),
        "calls": tuple(int(x) for x in tr["calls"][j, : tr["n_calls"][j]]),
        "thrown_in": thrown,
        "declarer": int(tr["declarer"][j]),
        "trump": int(tr["trump"][j]),
        "level": int(tr["level"][j]),
        "hands": tuple(int(x) for x in tr["hands"][j]),
        "contracts": () if thrown else tuple(int(x) for x in tr["contracts"][j]),
        "plays": tuple(int(x) for x in tr["plays"][j, : tr["n_plays"][j]]),
        "tricks": tuple(int(x) for x in tr["tricks"][j]),
        "scores": tuple(int(x) for x in tr["scores"][j]),
        "over": bool(tr["over"][j]),
        "redeals": int(tr["redeals"][j]),
    }


def assert_same_deals(rules, bid, play, deals) -> None:
    p = rules.players
    policies = [seat_policy(bid[s], play[s]) for s in range(p)]
    for i in deals:
        tr = play_traces(SEED, int(i), 1, rules, bid, play)
        mine = kernel_trace(tr, 0)
        ref = play_deal(SEED, int(i), rules, policies=policies)
        diff = {k: (getattr(ref, k), v) for k, v in mine.items() if getattr(ref, k) != v}
        assert not diff, f"deal {i} ({rules}, bid={bid}, play={play}): (reference, compiled) {diff}"


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
@pytest.mark.parametrize("seating", ["random", "heuristic", "mixed", "mixed2", "expert", "mixed3",
                                     "planner", "learned"])
def test_engines_agree_deal_for_deal(rules, seating):
    bid, play = seatings(rules.players)[seating]
    # the reference expert (and planner, which plays expert's cards when it gives none up) is
    # slow in Python
    n = 40 if "expert" in play or "planner" in play else 150
    if "learned" in play:  # the reference learned: every feature of every card, in Python
        n = 20
    tr = play_traces(SEED, 0, n, rules, bid, play)
    policies = [seat_policy(bid[s], play[s]) for s in range(rules.players)]
    for j in range(n):
        ref = play_deal(SEED, j, rules, policies=policies)
        mine = kernel_trace(tr, j)
        diff = {k: (getattr(ref, k), v) for k, v in mine.items() if getattr(ref, k) != v}
        assert not diff, f"deal {j}: (reference, compiled) {diff}"


@pytest.mark.parametrize("rules", [r for r in VARIANTS if r.players == 4], ids=str)
def test_engines_agree_on_frisch_and_thrown_in_deals(rules):
    # heuristic bidders pass weak hands: pick out deals with Frisches / throw-ins from a big batch
    # (with three players the hands are long and strong: heuristic bidders never all pass; see
    # test_three_player_frisch_exchanges_agree for their Frisches)
    p = rules.players
    h = ("heuristic",) * p
    res = play_batch(SEED, 0, 30000, rules, h, h)
    special = np.flatnonzero((res["frisch"] > 0) | res["thrown_in"]
                             | (res.get("redeals", 0) > 0))
    deepest = np.flatnonzero(res["frisch"] >= 2)
    picked = np.unique(np.concatenate([special[:25], deepest[:10]]))
    assert len(picked) >= 10
    assert_same_deals(rules, h, h, picked)
    assert_same_deals(rules, h, ("random",) * p, picked[:10])
    if p == 4:
        mixed_play = ("random", "heuristic", "heuristic", "random")
        assert_same_deals(rules, h, mixed_play, picked[:10])


def test_batch_columns_match_reference():
    rules = Rules(players=3, three_player_deck="one_random")
    bid, play = ("heuristic", "random", "heuristic"), ("random", "heuristic", "heuristic")
    res = play_batch(SEED, 500, 60, rules, bid, play, store_dealt=True)
    policies = [seat_policy(bid[s], play[s]) for s in range(3)]
    for j in range(60):
        ref = play_deal(SEED, 500 + j, rules, policies=policies)
        assert res["removed_card"][j] == ref.removed_card
        assert res["n_calls"][j] == len(ref.calls) and res["frisch"][j] == len(ref.frisch)
        assert res["declarer"][j] == ref.declarer and res["over"][j] == ref.over
        for s in range(3):
            assert int(res[f"hand_{s}"][j]) == ref.hands[s]
            assert int(res[f"dealt_{s}"][j]) == ref.dealt[s]
            assert res[f"score_{s}"][j] == ref.scores[s]
            assert res[f"contract_{s}"][j] == (ref.contracts[s] if ref.contracts else -1)


# ----------------------------------------------------------------------- decision by decision

HANDS = st.integers(2, 2**52 - 1)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**52 - 1))
def test_estimates_agree(hand):
    # ENGINE.md §5: est_q in quarter tricks, all five strains
    got = est_q_all(np.uint64(hand))
    assert tuple(int(x) for x in got) == tuple(ref_policies.est_q(hand, t) for t in range(5))


def _frisch_state(rules: Rules, seed: int, deal: int) -> DealState:
    """A reference DealState in the Frisch phase (four passes on a dealt hand)."""
    state = DealState.deal(rules, DealRng(seed, deal), dealer=deal % rules.players)
    for _ in range(rules.players):
        state.apply(0)
    assert state.phase == "frisch"
    return state


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, three_player_deck="one_random"),
                                   Rules(players=3, three_player_deck="no_low")], ids=str)
def test_frisch_choices_agree(rules):
    # ENGINE.md §4 (three draws below(H), below(H-1), below(H-2)) and §5 (smallest keys)
    st_, hm, rng = new_state()
    rp = rules_array(rules)
    assert rp[R_HAND] == rules.hand_size
    for deal in range(200):
        state = _frisch_state(rules, 77, deal)
        seat = state.to_move
        hm[H_HAND + seat] = np.uint64(state.hand(seat))
        ref_rng = DealRng(9, deal)
        rng[0] = stream_start(np.uint64(9), np.uint64(deal))
        assert int(random_frisch(st_, hm, rp, seat, rng)) == ref_policies.random_policy(
            state, ref_rng)
        assert int(rng[0]) == ref_rng.state  # exactly three draws each
        assert int(heuristic_frisch(st_, hm, rp, seat, rng)) == ref_policies.heuristic_policy(
            state, ref_rng)


@pytest.mark.parametrize("rules", [
    Rules(players=3, three_player_deck="no_suit"),
    Rules(players=3, three_player_deck="no_low", frisch_directions="right,left,right"),
    Rules(players=3, three_player_deck="one_random", frisch_directions="left,right,right"),
    Rules(frisch_directions="across,right,left"),
], ids=str)
@pytest.mark.parametrize("bidder", ["random", "heuristic"])
def test_three_player_frisch_exchanges_agree(rules, bidder):
    # RULES §3, ENGINE §3.3: choices in calling order from the hands before any card moves, then
    # all cards move at once to (s + offset(f)) % P; three Frisches in a row
    p = rules.players
    rp = rules_array(rules)
    pol = np.full((2, p), 0 if bidder == "random" else 1, dtype=np.int64)
    par = np.zeros((2, p, N_PARAMS))
    policy = get_policy(bidder)
    for deal in range(40):
        ref_rng = DealRng(SEED, deal)
        state = DealState.deal(rules, ref_rng, dealer=deal % p)
        st_, hm, rng = new_state()
        rng[0] = np.uint64(ref_rng.state)
        st_[S_FIRST] = (deal % p + 1) % p
        for s in range(p):
            hm[H_HAND + s] = np.uint64(state.hand(s))
        for f in range(3):
            for _ in range(p):
                state.apply(0)
            for _ in range(p):
                state.apply(policy(state, ref_rng))
            _frisch(st_, hm, rp, pol, par, rng, f)
            assert tuple(int(hm[H_FRISCH + 4 * f + s]) for s in range(p)) == state.frisch[f]
            assert [int(hm[H_HAND + s]) for s in range(p)] == [state.hand(s) for s in range(p)]
            assert int(rng[0]) == ref_rng.state


def test_engines_agree_when_expert_plays_against_the_others():
    # ENGINE §6: once its contract is lost, expert lets tricks go to a zero bidder on zero or a
    # player who has its tricks, and takes them from one who needs them. Deals where a contract
    # failed by two or more (lost early) exercise it; both engines must play them alike.
    import whist_sim.engine.policies as ref_policies

    rules = Rules()
    e = ("expert",) * 4
    h = ("heuristic",) * 4
    res = play_batch(SEED, 0, 2000, rules, h, e)
    miss = np.zeros(2000, dtype=bool)
    for s in range(4):
        c = res[f"contract_{s}"].astype(int)
        miss |= (c > 0) & (np.abs(res[f"tricks_{s}"] - c) >= 2)
    picked = np.flatnonzero(miss)[:30]
    assert len(picked) == 30
    spoiling = []
    original = ref_policies.wants_trick

    def counting(state):
        seat = state.to_move
        need = state.contracts[seat] - state.tricks_taken[seat]
        lost = not 0 <= need <= state.n_tricks - state.trick_number
        if lost and state.current_trick:
            spoiling.append(original(state) != (need > 0))
        return original(state)

    ref_policies.wants_trick = counting
    try:
        assert_same_deals(rules, h, e, picked)
    finally:
        ref_policies.wants_trick = original
    assert sum(spoiling) >= 5, sum(spoiling)  # the rule changed the seat's aim on some cards


def _counting_give_ups(calls: list[bool]):
    """Wrap the reference ``planner_give_up`` to record whether each call gave a trick up."""
    original = ref_policies.planner_give_up

    def counting(state, *args):
        keys = original(state, *args)
        calls.append(keys is not None)
        return keys

    return original, counting


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, three_player_deck="no_low")],
                         ids=str)
def test_engines_agree_when_planner_gives_tricks_up(rules):
    # ENGINE §7: deals where a seat ended over its contract under expert are where planner's
    # sure-trick count lets it give a trick up; both engines must play them alike, and the rule
    # must have decided cards there
    p = rules.players
    h = ("heuristic",) * p
    res = play_batch(SEED, 0, 600, rules, h, ("expert",) * p)
    over = np.zeros(600, dtype=bool)
    for s in range(p):
        over |= res[f"tricks_{s}"] > res[f"contract_{s}"]
    picked = np.flatnonzero(over & ~res["thrown_in"])[:25]
    assert len(picked) == 25
    calls: list[bool] = []
    original, counting = _counting_give_ups(calls)
    ref_policies.planner_give_up = counting
    try:
        assert_same_deals(rules, h, ("planner",) * p, picked)
    finally:
        ref_policies.planner_give_up = original
    assert sum(calls) >= 20, sum(calls)


def test_engines_agree_on_planner_parameters():
    # the parameters reach the compiled policy as its play row; the reference engine takes them
    # as arguments (ENGINE §7)
    import functools

    rules = Rules()
    h = ("heuristic",) * 4
    for values in ({"margin": 0, "lead": 1, "shed": 0},
                   {"margin": 2, "side": 1, "lead": 2},
                   {"margin": 0, "side": -1, "lead": 2}):
        spec = "planner" + "".join(f":{k}={v}" for k, v in values.items())
        card = functools.partial(ref_policies.planner_card, **values)

        def policy(state, rng, card=card):
            return card(state) if state.phase == "play" else ref_policies.heuristic_policy(
                state, rng)

        tr = play_traces(SEED, 0, 25, rules, h, (spec,) * 4)
        for j in range(25):
            ref = play_deal(SEED, j, rules, policies=[policy] * 4)
            mine = kernel_trace(tr, j)
            diff = {k: (getattr(ref, k), v) for k, v in mine.items() if getattr(ref, k) != v}
            assert not diff, f"{spec}, deal {j}: (reference, compiled) {diff}"


def test_planner_defaults_agree_with_the_registry():
    from whist_sim.compiled.strategies.registry import get_info

    assert get_info("planner", "play").defaults == {
        "margin": ref_policies.PLANNER_MARGIN, "side": ref_policies.PLANNER_SIDE,
        "lead": ref_policies.PLANNER_LEAD, "shed": ref_policies.PLANNER_SHED}
