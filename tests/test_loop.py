"""The one deal loop (whist_sim.compiled.loop.phases): it starts from any point of a deal, and it
owns legality (RULES §2 calls, §3 Frisch cards, §4 contracts, §5 following suit).

A deal played in one go and the same deal rebuilt up to any decision with the loop's own
transitions (``apply_call``, ``apply_frisch``, ``apply_contract``, ``apply_card``), then finished by
the loop, must be the same deal move for move.
"""

import numpy as np
import pytest

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.entry.deal import loop_address, run_shared
from whist_sim.compiled.ground.layout import (
    H_DEALT,
    H_HAND,
    N_PARAMS,
    PH_AUCTION,
    PH_CONTRACTS,
    PH_DONE,
    PH_FRISCH,
    PH_PLAY,
    S_BAD_SEAT,
    S_BAD_VALUE,
    S_CALLS,
    S_CONTRACT,
    S_NCALLS,
    S_NPLAYS,
    S_PHASE,
    S_PLAYS,
    S_POS,
    S_REMOVED,
    S_SCORE,
    S_TRICKS,
    S_TURN,
    new_state,
    rules_array,
)
from whist_sim.compiled.loop.phases import (
    IllegalDecision,
    apply_call,
    apply_card,
    apply_contract,
    apply_frisch,
    begin_deal,
)
from whist_sim.compiled.strategies.dispatch import AUDITED, BASE, FULL
from whist_sim.compiled.strategies.registry import BID, PLAY, PolicyError, seat_ids, seat_params
from whist_sim.compiled.strategies.seating import Seating
from whist_sim.core.rules import Rules

VARIANTS = [
    Rules(),
    Rules(pass_is_final=True),
    Rules(players=3, three_player_deck="no_low"),
    Rules(players=3, three_player_deck="one_random", frisch_directions="left,right,right"),
    Rules(bid_order="suit", after_third_frisch="redeal"),
]
SEATINGS = [("heuristic", "heuristic"), ("hcp", "heuristic"), ("cautious", "heuristic")]


def _seating(rules, bid, play):
    p = rules.players
    pol = np.empty((2, p), dtype=np.int64)
    pol[0] = seat_ids([bid] * p, BID, p)
    pol[1] = seat_ids([play] * p, PLAY, p)
    par = np.zeros((2, p, N_PARAMS))
    par[0] = seat_params([bid] * p, BID)
    par[1] = seat_params([play] * p, PLAY)
    return pol, par


def _rebuild(tr, j, rules, k):
    """The state of deal ``j`` of the traces after its first ``k`` decisions, rebuilt with the
    loop's transitions (calls, Frisch choices, contracts, cards, in the order they were made)."""
    p = rules.players
    rp = rules_array(rules)
    st, hm, rng = new_state()
    begin_deal(st, hm, rp, int(tr["deal"][j]), int(tr["dealer"][j]))
    for s in range(p):
        hm[H_DEALT + s] = tr["dealt"][j, s]
        hm[H_HAND + s] = tr["dealt"][j, s]
    st[S_REMOVED] = tr["removed_card"][j]
    calls = iter(int(c) for c in tr["calls"][j, : tr["n_calls"][j]])
    plays = iter(int(c) for c in tr["plays"][j, : tr["n_plays"][j]])
    frisch_no = 0
    made = 0
    while made < k and st[S_PHASE] != PH_DONE:
        seat = int(st[S_TURN])
        phase = int(st[S_PHASE])
        if phase == PH_AUCTION:
            apply_call(st, hm, rp, seat, next(calls))
        elif phase == PH_FRISCH:
            apply_frisch(st, hm, rp, seat, np.uint64(tr["frisch"][j, frisch_no, seat]))
            if st[S_PHASE] == PH_AUCTION:
                frisch_no += 1
        elif phase == PH_CONTRACTS:
            apply_contract(st, rp, seat, int(tr["contracts"][j, seat]))
        elif phase == PH_PLAY:
            apply_card(st, hm, rp, seat, next(plays))
        else:
            break
        made += 1
    return st, hm, rng, rp


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
@pytest.mark.parametrize("bid,play", SEATINGS)
def test_the_loop_resumes_from_any_decision(rules, bid, play):
    """Deterministic strategies: after any number of decisions rebuilt by hand, the loop plays
    the same rest of the deal (calls, contracts, cards, tricks, scores)."""
    p = rules.players
    tr = play_traces(11, 0, 12, rules, [bid] * p, [play] * p)
    pol, par = _seating(rules, bid, play)
    for j in range(12):
        total = int(tr["n_calls"][j]) + int(tr["n_plays"][j]) + p * (1 + int(tr["n_frisch"][j]))
        for k in sorted({0, 1, total // 3, total // 2, total - 5, total - 1}):
            st, hm, rng, rp = _rebuild(tr, j, rules, max(k, 0))
            run_shared(loop_address(FULL), st, hm, rp, pol, par, rng, PH_DONE)
            assert int(st[S_NCALLS]) == tr["n_calls"][j]
            assert list(st[S_CALLS:S_CALLS + st[S_NCALLS]]) == list(
                tr["calls"][j, : tr["n_calls"][j]])
            if tr["thrown_in"][j]:
                continue
            assert [int(st[S_CONTRACT + s]) for s in range(p)] == list(tr["contracts"][j])
            assert list(st[S_PLAYS:S_PLAYS + st[S_NPLAYS]]) == list(
                tr["plays"][j, : tr["n_plays"][j]])
            assert [int(st[S_TRICKS + s]) for s in range(p)] == list(tr["tricks"][j])
            assert [int(st[S_SCORE + s]) for s in range(p)] == list(tr["scores"][j])


def test_the_loop_stops_at_the_phase_asked_for():
    """``until``: the loop stops at the first state of that phase (here: the play, §3.5), and a
    second call finishes the deal as one call would have."""
    rules = Rules()
    tr = play_traces(5, 0, 20, rules, ["heuristic"] * 4, ["heuristic"] * 4)
    pol, par = _seating(rules, "heuristic", "heuristic")
    for j in np.flatnonzero(~tr["thrown_in"]):
        st, hm, rng, rp = _rebuild(tr, j, rules, 0)
        run_shared(loop_address(FULL), st, hm, rp, pol, par, rng, PH_PLAY)
        assert st[S_PHASE] == PH_PLAY and st[S_NPLAYS] == 0 and st[S_POS] == 0
        assert [int(st[S_CONTRACT + s]) for s in range(4)] == list(tr["contracts"][j])
        run_shared(loop_address(FULL), st, hm, rp, pol, par, rng, PH_DONE)
        assert [int(st[S_SCORE + s]) for s in range(4)] == list(tr["scores"][j])


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
@pytest.mark.parametrize("play", ["random", "heuristic"])
def test_the_play_copies_leave_the_state_the_general_play_leaves(rules, play):
    """§5: the base loop plays a seating where every seat plays ``random`` or ``heuristic`` in a
    copy of the play that shows the trick in ``st`` only when it is complete. From any point of
    the play, and from the start of the deal, it ends in the very state (every slot of ``st`` and
    ``hm``, the random stream too) that the general play of the audited loop ends in."""
    p = rules.players
    tr = play_traces(13, 0, 8, rules, ["heuristic"] * p, [play] * p)
    pol, par = _seating(rules, "heuristic", play)
    for j in np.flatnonzero(~tr["thrown_in"]):
        auction = int(tr["n_calls"][j]) + p * (1 + int(tr["n_frisch"][j]))
        for k in (0, auction, auction + 1, auction + 2, auction + 4 * p + 3):
            st, hm, rng, rp = _rebuild(tr, j, rules, k)
            st2, hm2, rng2 = st.copy(), hm.copy(), rng.copy()
            run_shared(loop_address(BASE), st, hm, rp, pol, par, rng, PH_DONE)
            run_shared(loop_address(AUDITED), st2, hm2, rp, pol, par, rng2, PH_DONE)
            assert np.array_equal(st, st2), (j, k, np.flatnonzero(st != st2))
            assert np.array_equal(hm, hm2), (j, k, np.flatnonzero(hm != hm2))
            assert np.array_equal(rng, rng2)
            if play == "heuristic":  # (random play draws from the rebuilt state's own stream)
                assert list(st[S_PLAYS:S_PLAYS + st[S_NPLAYS]]) == list(
                    tr["plays"][j, : tr["n_plays"][j]])


def test_an_illegal_answer_is_caught():
    """§5: a card must come from the legal cards; a decision with none to give is refused by the
    loop (here the seat to play holds no card at all)."""
    rules = Rules()
    tr = play_traces(5, 0, 10, rules, ["heuristic"] * 4, ["heuristic"] * 4)
    j = int(np.flatnonzero(~tr["thrown_in"])[0])
    pol, par = _seating(rules, "heuristic", "random")
    st, hm, rng, rp = _rebuild(tr, j, rules, 10_000)  # the whole deal ...
    st[S_PHASE] = PH_PLAY  # ... then one more card asked of a seat with an empty hand
    with pytest.raises(IllegalDecision):
        run_shared(loop_address(AUDITED), st, hm, rp, pol, par, rng, PH_DONE)
    assert st[S_BAD_SEAT] == st[S_TURN] and st[S_BAD_VALUE] > 51


def test_batch_runs_name_an_illegal_answer():
    """The Python entry points turn the loop's IllegalDecision into a PolicyError with the seat."""
    from whist_sim.compiled.entry import batch
    from whist_sim.compiled.ground.layout import new_deal

    rules = Rules()
    st = new_deal().st
    with pytest.raises(PolicyError, match="seat 2"):
        with batch._audited(st, Seating.of(["heuristic"] * 4, ["heuristic"] * 4, 4)):
            st[S_BAD_SEAT], st[S_BAD_VALUE] = 2, 60  # as the loop leaves them
            raise IllegalDecision("a strategy gave an illegal answer")
    assert play_batch(1, 0, 10, rules, ["random"] * 4, ["random"] * 4)["deal"].size == 10


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_every_strategy_is_legal_in_the_audited_loop(rules):
    """RULES §2-5: every registered bidding strategy and play policy, at every seat, makes only
    legal decisions (the audited loop raises on the first illegal one); and the audited loop
    plays the same deals as the fast one."""
    from whist_sim.compiled.strategies.registry import policy_names

    p = rules.players
    bids = policy_names(BID)
    plays = policy_names(PLAY)
    for k in range(len(bids)):
        seating_bid = [bids[(k + s) % len(bids)] for s in range(p)]
        seating_play = [plays[(k + s) % len(plays)] for s in range(p)]
        n = 6 if "montecarlo" in seating_bid else 300
        audited = play_batch(k, 0, n, rules, seating_bid, seating_play, audited=True)
        fast = play_batch(k, 0, n, rules, seating_bid, seating_play)
        for col in audited:
            assert np.array_equal(audited[col], fast[col]), col


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_a_seating_without_search_plays_its_deals_in_the_base_entry_point(rules):
    """docs/ENGINE.md §3: a seating where no seat searches runs in ``BASE`` (``loop_mode``; its
    loop table loads no search), and a seating with a searching seat in ``FULL``; the unaudited
    loop plays the same deals as the audited loop, byte for byte."""
    from whist_sim.compiled.strategies.dispatch import AUDITED, BASE, FULL, loop_mode
    from whist_sim.compiled.strategies.registry import (
        SEARCHING_BID,
        get_info,
        policy_names,
    )

    p = rules.players
    bids = [b for b in policy_names(BID) if not get_info(b, BID).searches]
    plays = [q for q in policy_names(PLAY) if not get_info(q, PLAY).searches]
    assert len(bids) + len(SEARCHING_BID) == len(policy_names(BID))
    for k in range(max(len(bids), len(plays))):
        seating_bid = [bids[(k + s) % len(bids)] for s in range(p)]
        seating_play = [plays[(k + s) % len(plays)] for s in range(p)]
        pol = np.array([seat_ids(seating_bid, BID, p), seat_ids(seating_play, PLAY, p)])
        assert loop_mode(pol) is BASE and loop_mode(pol, audited=True) is AUDITED
        audited = play_batch(k, 0, 200, rules, seating_bid, seating_play, audited=True)
        fast = play_batch(k, 0, 200, rules, seating_bid, seating_play)
        for col in audited:
            assert np.array_equal(audited[col], fast[col]), col
    for searching in ("montecarlo", "rollout"):
        kind = BID if searching == "montecarlo" else PLAY
        pol = np.zeros((2, p), dtype=np.int64)
        pol[0 if kind == BID else 1, p - 1] = get_info(searching, kind).id
        assert loop_mode(pol) is FULL
