"""Reading the table: how well a sampled layout explains the others' decisions (docs/STRATEGIES.md).

A searching seat (``rollout`` play, ``montecarlo`` bidding) samples the cards it cannot see with
the one sampler of hidden hands (:mod:`whist_sim.compiled.ground.sampler`): uniformly over the
layouts consistent with its own hand, the cards played, the voids shown and its Frisch passes. This
module adds what the others *said*: every call of the trump auction (passes and bids, in their
order, with the minimum level then in force) and every contract bid before the seat's decision. Each
is compared with the call the **model** (an assumed bidding strategy per seat) would have made with
the layout's hand at that moment, and the layout scores

    likelihood = eps ** k,  k = (calls the model would have made otherwise)
                               + (tricks by which each contract differs from the model's)

(:func:`mismatches`): a contract one trick from the model's is more likely than one five tricks
away. The strategies are deterministic, so exact matching (``eps = 0``) would
reject nearly every layout and trust the model blindly; ``eps > 0`` tolerates players who are not
the model. A search draws a pool of ``pool * n`` layouts, weights them by their likelihood and
resamples ``n`` of them in proportion (:func:`resample`, systematic); the effective sample size
``(sum w) ** 2 / sum w ** 2`` of the pool says how much the table narrowed it.

The hand a seat held at a decision, given a layout of the hands now:

* during the play: the layout's hand plus the cards the seat has played (public);
* before a Frisch: the later hand with the exchanges the searching seat saw undone (the cards it
  received from that seat go back to it, the cards it passed to that seat leave it). Exchanges
  between two other seats are unseen and are not undone: calls made before such a Frisch (all of
  them passes: a Frisch follows a round of passes) are judged on a hand that may differ from the
  real one by those three cards. A documented approximation.

The model: ``model < 0`` means the table's own strategy for each seat (the bidding strategy and
parameters seated there: in a simulation the strategies are known); a strategy id means that
strategy with its registry defaults at every seat. A ``random`` seat tells nothing (its decisions
score 1 whatever the layout); a searching strategy (``montecarlo``) is modelled by the
``heuristic``, which it starts from. The model's decisions are the base loop's own
(:func:`~whist_sim.compiled.strategies.dispatch.base_call` / ``base_contract``) on a replay of the
auction and contracts with the loop's transitions, so this module holds no rules of its own.

Everything here is deterministic and draws nothing: the searches draw their pools from their own
decision streams, so results depend only on ``(seed, deal, seat, decision)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ground._numba import jit
from ..ground.bits import ZERO
from ..ground.layout import (
    H_FRISCH,
    H_HAND,
    H_START,
    N_PARAMS,
    PH_CONTRACTS,
    PH_FRISCH,
    R_DIR,
    R_PLAYERS,
    S_CALLS,
    S_CONTRACT,
    S_DEAL,
    S_DEALER,
    S_DECLARER,
    S_LEVEL,
    S_NCALLS,
    S_NCONTRACTS,
    S_NFRISCH,
    S_PHASE,
    S_TRUMP,
    S_TURN,
)
from ..loop.phases import (
    apply_call,
    apply_contract,
    apply_frisch,
    begin_contracts,
    begin_deal,
    legal_calls,
    legal_contracts,
    restart_contracts,
)
from ..strategies.dispatch import base_call, base_contract
from ..strategies.registry import BID_HEURISTIC, BID_MONTECARLO, BID_POLICIES, BID_RANDOM


class Replay(NamedTuple):
    """What :func:`mismatches` replays the table with: the model's seating ``pol`` (int64
    ``[2, P]``) and ``par`` (float64 ``[2, P, N_PARAMS]``, :func:`model_rows`), and the scratch
    state ``st`` / ``hm`` and stream ``rng`` (uint64 ``[1]``) of the replay."""

    pol: np.ndarray
    par: np.ndarray
    st: np.ndarray
    hm: np.ndarray
    rng: np.ndarray


#: the model id that means "the table's own strategy for each seat"
MODEL_TABLE = -1

#: registry defaults of every bidding strategy by id (``float64[ids, N_PARAMS]``): the parameters
#: of a model named by id alone
BID_DEFAULTS = np.zeros((max(i.id for i in BID_POLICIES.values()) + 1, N_PARAMS), np.float64)
for _info in BID_POLICIES.values():
    for _j, _p in enumerate(_info.params):
        BID_DEFAULTS[_info.id, _j] = _p.default


@jit
def model_rows(pol, par, p, model, mpol, mpar):
    """Fill the model's seating: ``mpol[0, s]`` (strategy id, ``-1``: the seat tells nothing)
    and ``mpar[0, s, :]`` for every seat, from the table's (``model < 0``) or one strategy id."""
    for s in range(p):
        pid = pol[0, s] if model < 0 else model
        if pid == BID_MONTECARLO:
            pid = BID_HEURISTIC
        mpol[0, s] = -1 if pid == BID_RANDOM else pid
        mpol[1, s] = 0
        for j in range(N_PARAMS):
            if model < 0 and pid == pol[0, s]:
                mpar[0, s, j] = par[0, s, j]
            else:
                mpar[0, s, j] = BID_DEFAULTS[pid, j]
            mpar[1, s, j] = 0.0


@jit(inline="always")
def _undo_frisch(hm, rp, seat, o, hand, f, p):
    """Seat ``o``'s hand before Frisch ``f`` from its hand after it, as far as ``seat`` saw the
    exchange: what ``o`` passed to ``seat`` goes back, what ``seat`` passed to ``o`` leaves."""
    off = rp[R_DIR + f]
    if (seat + off) % p == o:  # o received the seat's cards
        hand &= ~hm[H_FRISCH + 4 * f + seat]
    if (o + off) % p == seat:  # o passed its cards to the seat
        hand |= hm[H_FRISCH + 4 * f + o]
    return hand


@jit(inline="always")
def _set_round_hands(hm, rp, seat, now, rhm, r, nf, p):
    """``rhm[H_HAND + o]``: each seat's hand in auction round ``r`` (before Frisch ``r``) from
    its hand ``now[o]`` after the last Frisch ``nf - 1``."""
    for o in range(p):
        h = now[o]
        for f in range(nf - 1, r - 1, -1):
            h = _undo_frisch(hm, rp, seat, o, h, f, p)
        rhm[H_HAND + o] = h
        rhm[H_START + o] = h


@jit
def mismatches(st, hm, rp, seat, lay, mpol, mpar, rst, rhm, rrng):
    """How far the other seats' decisions so far are from the model's, had the hands been those
    of the layout ``lay`` (``lay[H_HAND + o]``: seat ``o``'s hand now): one per auction call the
    model would have made otherwise, plus for each contract the tricks by which the model's
    contract differs from it.

    Replays the deal's calls (``st[S_CALLS ...]``; none for a deal started at its contracts,
    :func:`~whist_sim.compiled.loop.phases.begin_contracts`) and, from the contract phase on, its
    contracts on the scratch state ``rst`` / ``rhm`` with the loop's transitions, asking the model
    (``mpol`` / ``mpar``, :func:`model_rows`) before each decision of a seat other than ``seat``.
    ``rrng``: a scratch stream (the model strategies do not draw; ``random`` seats are skipped).
    The scratch starts zeroed (``np.zeros``) for a decision and is reused for all its layouts
    unchanged: the replay rewrites every slot it reads, and the strategies' caches in it are
    keyed by the hand they hold.
    """
    p = rp[R_PLAYERS]
    phase = st[S_PHASE]
    now = (ZERO, ZERO, ZERO, ZERO)
    for o in range(p):
        h = lay[H_HAND + o] if o != seat else hm[H_HAND + seat]
        if phase > PH_CONTRACTS:  # the cards each seat played are public
            h |= hm[H_START + o] & ~hm[H_HAND + o]
        now = _put4(now, o, h)
    nf = st[S_NFRISCH]
    if st[S_NCALLS] == 0 and phase >= PH_CONTRACTS:  # a deal started at its contracts: no calls
        begin_contracts(rst, rhm, rp, st[S_DEAL], st[S_DECLARER], st[S_TRUMP], st[S_LEVEL])
    else:
        begin_deal(rst, rhm, rp, st[S_DEAL], st[S_DEALER])
    r = 0
    _set_round_hands(hm, rp, seat, now, rhm, r, nf, p)
    k = 0
    for i in range(st[S_NCALLS]):
        who = rst[S_TURN]
        call = st[S_CALLS + i]
        if who != seat and mpol[0, who] >= 0:
            lo, hi = legal_calls(rst, rp, who)
            if base_call(mpol, mpar, rst, rhm, rp, who, lo, hi, rrng) != call:
                k += 1
        if apply_call(rst, rhm, rp, who, call) and rst[S_PHASE] == PH_FRISCH:
            for _ in range(p):  # the passes are not replayed: the next round's hands are set
                apply_frisch(rst, rhm, rp, rst[S_TURN], ZERO)
            r += 1
            _set_round_hands(hm, rp, seat, now, rhm, r, nf, p)
    if phase < PH_CONTRACTS or rst[S_PHASE] != PH_CONTRACTS:
        return k
    n_con = st[S_NCONTRACTS] if phase == PH_CONTRACTS else p
    for _ in range(n_con):
        who = rst[S_TURN]
        c = st[S_CONTRACT + who]
        if who != seat and mpol[0, who] >= 0:
            lo, forbidden = legal_contracts(rst, rp)
            d = base_contract(mpol, mpar, rst, rhm, rp, who, lo, forbidden, rrng) - c
            k += d if d > 0 else -d
        apply_contract(rst, rp, who, c)
    return k


@jit(inline="always")
def _put4(t, i, v):
    """The 4-tuple ``t`` with item ``i`` replaced by ``v``."""
    if i == 0:
        return (v, t[1], t[2], t[3])
    if i == 1:
        return (t[0], v, t[2], t[3])
    if i == 2:
        return (t[0], t[1], v, t[3])
    return (t[0], t[1], t[2], v)


@jit
def resample(w, m, n, u, picks):
    """Systematic resampling: ``n`` indices of the pool's first ``m`` weights ``w`` into
    ``picks`` (ascending), index ``i`` about ``n * w[i] / sum(w)`` times; ``u`` in [0, 1) the
    one uniform draw. Returns the effective sample size ``(sum w) ** 2 / sum w ** 2`` of the
    pool."""
    total = 0.0
    sq = 0.0
    for i in range(m):
        total += w[i]
        sq += w[i] * w[i]
    step = total / n
    x = u * step
    acc = w[0]
    i = 0
    for j in range(n):
        while acc <= x and i < m - 1:
            i += 1
            acc += w[i]
        picks[j] = i
        x += step
    return total * total / sq



@jit(inline="always")  # one caller (the advisor's sampler): compiled in it, not apart
def forced_mismatches(st, hm, rp, me, forced, positions, replay):
    """:func:`mismatches` of the deal in ``st`` / ``hm`` (at the start of its contract phase, the
    hands all known: a sampled deal of the advisor) once the first ``positions`` bidders have bid
    their ``forced`` contracts, for the player ``me``, replayed with ``replay`` (a
    :class:`Replay`). The state is back at the start of the contract phase on return."""
    for _ in range(positions):
        seat = st[S_TURN]
        apply_contract(st, rp, seat, forced[seat])
    k = mismatches(st, hm, rp, me, hm, replay.pol, replay.par, replay.st, replay.hm, replay.rng)
    restart_contracts(st, rp)
    return k
