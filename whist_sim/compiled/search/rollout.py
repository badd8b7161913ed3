"""The compiled ``rollout`` play policy: search over sampled layouts (docs/STRATEGIES.md).

Perfect-information Monte Carlo with a base policy: at a card decision with more than one legal
card, the seat samples ``n`` layouts of the cards it cannot see, consistent with what it knows; for
every candidate card it plays that card on each layout and finishes the deal with the base play
policy at every seat (the deal loop, through its address), and it plays the candidate with the
best total score for itself over the same layouts (common random numbers); ties go to the base
policy's own card (on the real state) when it is among the best, else to the lowest card code.

What the seat knows when it samples (:func:`sample_layout`, with the one sampler of hidden hands,
:mod:`whist_sim.compiled.ground.sampler`: every layout consistent with it equally likely):

* its own hand, every card played, and so the cards still out (the deck less those);
* the hand sizes of the others (public: everyone holds as many cards as tricks remain, less the
  cards played to the current trick);
* the voids shown in the play (``st[S_VOIDS]``): a seat that did not follow a suit gets none of it;
* the cards it passed in the last Frisch: still at their receiver unless played;
* with ``infer`` (read the table): the others' calls and contracts. It draws ``pool * n``
  layouts, weights each ``eps ** k`` for the ``k`` decisions the bidding strategy ``model``
  (``table``: each seat's own) would have made otherwise with the layout's hands, and picks
  ``picks * n`` in proportion; each layout picked is played once and counts as often as it was
  picked
  (:func:`draw_pool`, :mod:`whist_sim.compiled.search.inference`).

Candidates that cannot differ are pruned: of two cards of one suit with no card between them still
out or on the current trick (every card between is the seat's or played in an earlier trick), only
the lower is tried. A card of the current trick between them separates them: one of the two beats
it and the other does not.

Racing (``race = z > 0``): after the first :data:`RACE_FIRST` layouts, and every
:data:`RACE_EVERY` layouts after that, a candidate is dropped when its mean score per layout trails
the leader's (the best total so far, ties to the lowest card) by ``d > 0`` with
``d * sqrt(m) > z * sd``, ``sd`` the spread of the per-layout score differences of the two on the
same ``m`` layouts; the search stops when one candidate is left. The card is the best total among
the candidates left. ``race = 0`` plays every candidate on every layout.

Parameters (``par[1, seat, j]``, registry order): ``n`` layouts per decision, ``base`` the play
policy id of the rollouts (a policy that does not search: ``random``, ``heuristic``, ``expert``),
``race`` the ``z`` of racing, ``infer`` (1: read the table), ``model`` (a bidding strategy id,
-1: ``table``), ``eps``, ``pool`` and ``picks``.

Speed (docs/STRATEGIES.md has the figures). The rollouts of the base policy are nearly all of the
time, so the measures that count cut their number: the pruning above, and racing (default
``race = 1``: 1.5 x the deals/s of ``race = 0`` with ``expert`` rollouts, not measurably weaker).
Tried and left out: dropping a candidate that scored exactly as a lower one on the first layouts
(2.3 x, but 2 points a deal weaker); ``race = 0.5`` (2.2 x, 0.9 points weaker); restoring only
the fields of the state copy that the play changes (no measurable gain). Not done: stopping a
rollout once the seat's score is settled. Its score depends on its exact trick count, and in a
layout that count is provably settled only when the seat's remaining cards are a run of top trumps
(side-suit masters may have to be discarded, and no card is a sure loser while anyone may
discard), which the pruning above already reduces to one candidate; the check would also sit in
the shared deal loop at every trick.

Random numbers: the policy never draws from the deal's stream. Each decision has its own
counter-based stream (:func:`whist_sim.compiled.ground.rng.decision_stream` of the deal stream's
state, the seat and the decision index ``ROLLOUT_DECISION + cards played``), so its choices depend
only on ``(seed, deal)`` and the seating, whatever the chunking or threads. The decision allocates
its scratch (a few small arrays), so it is compiled with numba's reference counting and not inlined;
the deal loop itself stays allocation-free.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ground._numba import jit
from ..ground.bits import ONE, SUIT_MASK, SUIT_OF, ZERO, ctz, popcount
from ..ground.layout import (
    H_FRISCH,
    H_HAND,
    H_PLAYED,
    H_TRICK,
    HM_SIZE,
    MAX_CALLS,
    MAX_HAND,
    N_PARAMS,
    PH_DONE,
    R_DECK_MASK,
    R_DIR,
    R_PLAYERS,
    S_NFRISCH,
    S_NPLAYS,
    S_SCORE,
    S_VOIDS,
    SAMPLER_TAB,
    SAMPLER_WORK,
    ST_SIZE,
)
from ..ground.rng import decision_stream, unit
from ..ground.sampler import NO_LAYOUT, W_NEED, Sampler, deal_pool
from ..loop.phases import apply_card
from ..loop.shared import run_base_at
from ..strategies.dispatch import base_card
from .inference import Replay, mismatches, model_rows, resample

ROLLOUT_DECISION = MAX_CALLS + 16  # + cards played: decision index of a card (after contracts)
RACE_FIRST = 4  # racing: layouts played by every candidate before any is dropped
RACE_EVERY = 2  # ... then a look every this many layouts


class Draw(NamedTuple):
    """How a search draws the layouts of one decision: ``n_layouts`` layouts (int64), or with
    ``infer`` (bool) ``pool * n_layouts`` weighted ``eps ** k`` (float64) of which ``n_picks``
    (int64) are picked in proportion (module doc of
    :mod:`whist_sim.compiled.search.inference`)."""

    n_layouts: np.int64
    infer: np.bool_
    pool: np.int64
    eps: np.float64
    n_picks: np.int64


class Drawn(NamedTuple):
    """The layouts :func:`draw_pool` writes: ``lays[i, o]`` seat ``o``'s hand in layout ``i``
    (uint64), ``r0s[i]`` the state of the sub-stream after it was drawn (uint64), ``w`` the
    pool's weights (float64), ``picks`` the picks (int64) and ``mult[i]`` how many times layout
    ``i`` counts (int64)."""

    lays: np.ndarray
    r0s: np.ndarray
    w: np.ndarray
    picks: np.ndarray
    mult: np.ndarray


@jit
def sample_layout(st, hm, rp, seat, sub, work, tab, fresh, out_hm, use_voids):
    """Deal the cards ``seat`` cannot see to the others into ``out_hm`` (their ``H_HAND``).

    Seat ``o`` gets as many cards as it holds now; no card of a suit it has shown void in (with
    ``use_voids``); the cards the seat passed in the last Frisch that are still out go to their
    receiver. With the ``one_random`` deck one card of the pool stays out (the removed card).
    The one sampler of hidden hands (:func:`whist_sim.compiled.ground.sampler.deal_pool`) draws from
    ``sub`` only; ``work`` / ``tab``: its scratch, ``fresh``: the first layout of the decision.
    Returns False when no layout meets the voids (the caller deals without them).
    """
    p = rp[R_PLAYERS]
    mine = hm[H_HAND + seat]
    pool = np.uint64(rp[R_DECK_MASK]) & ~(hm[H_PLAYED] | hm[H_TRICK])
    for o in range(p):
        out_hm[H_HAND + o] = ZERO
        work[W_NEED + o] = popcount(hm[H_HAND + o])
    out_hm[H_HAND + seat] = mine
    nf = st[S_NFRISCH]
    if nf > 0:  # the cards passed in the last Frisch are at the receiver (unless played)
        f = nf - 1
        to = (seat + rp[R_DIR + f]) % p
        out_hm[H_HAND + to] |= hm[H_FRISCH + 4 * f + seat] & pool & ~mine
    voids = st[S_VOIDS] if use_voids else 0
    return deal_pool(p, pool, out_hm, np.int64(H_HAND), voids, work, tab, fresh, sub) != NO_LAYOUT


@jit(inline="always")
def _separators(hm, rp, seat):
    """The cards that separate two of ``seat``'s cards into runs that can differ: those still out
    (unseen by the seat) and those on the current trick; not the seat's own cards nor the cards
    of earlier tricks."""
    return np.uint64(rp[R_DECK_MASK]) & ~(hm[H_PLAYED] | hm[H_HAND + seat])


@jit(inline="always")
def _candidates(legal, sep, cands):
    """The legal cards worth trying, ascending: the lowest of each run of cards with no card of
    ``sep`` between them (in one suit; ``sep``: :func:`_separators`). Returns how many."""
    n = 0
    x = legal
    prev = -1
    while x != ZERO:
        c = ctz(x)
        x &= x - ONE
        if prev >= 0 and SUIT_OF[prev] == SUIT_OF[c]:
            between = ((ONE << np.uint64(c)) - (ONE << np.uint64(prev + 1))) & SUIT_MASK[SUIT_OF[c]]
            if between & sep == ZERO:
                prev = c
                continue
        cands[n] = c
        n += 1
        prev = c
    return n


@jit(inline="always")
def _race(sc, mult, alive, totals, n_cands, m, z):
    """Drop the candidates clearly behind after ``m`` layouts: those whose score per layout
    trails the leader's (best total, ties to the lowest card) by a mean difference ``d`` with
    ``d > 0`` and ``d * sqrt(m) > z * sd`` (``sd``: the spread of the per-layout differences, on
    the same layouts; layout ``j`` counted ``mult[j]`` times). Returns how many candidates are
    left."""
    lead = -1
    for k in range(n_cands):
        if alive[k] and (lead < 0 or totals[k] > totals[lead]):
            lead = k
    weight = 0
    for j in range(m):
        weight += mult[j]
    left = 0
    for k in range(n_cands):
        if not alive[k] or k == lead:
            left += alive[k]
            continue
        mean = (totals[lead] - totals[k]) / weight
        ss = 0.0
        for j in range(m):
            d = (sc[lead, j] - sc[k, j]) - mean
            ss += mult[j] * d * d
        sd = np.sqrt(ss / (weight - 1))
        if mean > 0.0 and mean * np.sqrt(m) > z * sd:
            alive[k] = False
        else:
            left += 1
    return left


@jit(inline="always")
def _same_run(a, b, sep):
    """True when cards ``a`` and ``b`` are of one suit with no card of ``sep`` between them
    (:func:`_separators`): they cannot differ in play (the candidates keep the lower of such a
    run)."""
    if SUIT_OF[a] != SUIT_OF[b]:
        return False
    lo = a if a < b else b
    hi = b if a < b else a
    between = ((ONE << np.uint64(hi)) - (ONE << np.uint64(lo + 1))) & SUIT_MASK[SUIT_OF[a]]
    return between & sep == ZERO


@jit
def draw_pool(st, hm, rp, seat, smp, lay, draw, replay, out):
    """The layouts of one decision of ``seat`` into ``out`` (a :class:`Drawn`): ``lays[i, o]``
    seat ``o``'s hand, ``r0s[i]`` the state of ``smp.sub`` after it was drawn (the stream of a
    random base policy's rollouts on it) and ``mult[i]`` how many times it counts. ``smp``: the
    decision's :class:`~whist_sim.compiled.ground.sampler.Sampler`; ``lay``: a copy of ``hm``
    whose hands each layout is dealt into; ``draw``: a :class:`Draw`; ``replay``: the model and
    scratch of the reading (:class:`~whist_sim.compiled.search.inference.Replay`). Returns
    ``(ess, count)``: the effective sample size of the pool and the number of layouts.

    Without ``infer``: ``n_layouts`` draws of :func:`sample_layout`, each counted once
    (``ess = count = n_layouts``). With it: ``pool * n_layouts`` draws, each weighted
    ``eps ** k`` for the ``k`` decisions of the others that the model would have made otherwise
    (:func:`~whist_sim.compiled.search.inference.mismatches`); then ``n_picks`` picks in
    proportion (systematic, one more draw from ``sub``; ``picks``, ``mult`` hold at least that
    many), the layouts picked kept once each with their number of picks: ``count <= n_picks``
    distinct layouts."""
    p = rp[R_PLAYERS]
    sub, work, tab = smp
    n_layouts, infer, pool, eps, n_picks = draw
    lays, r0s, w, picks, mult = out
    m = n_layouts * pool if infer else n_layouts
    for i in range(m):
        if not sample_layout(st, hm, rp, seat, sub, work, tab, i == 0, lay, np.bool_(True)):
            sample_layout(st, hm, rp, seat, sub, work, tab, np.bool_(False), lay, np.bool_(False))
        for o in range(p):
            lays[i, o] = lay[H_HAND + o]
        r0s[i] = sub[0]
        if infer:
            w[i] = eps ** mismatches(st, hm, rp, seat, lay, replay.pol, replay.par, replay.st,
                                     replay.hm, replay.rng)
    if not infer:
        for i in range(n_layouts):
            mult[i] = 1
        return float(n_layouts), n_layouts
    ess = resample(w, m, n_picks, unit(sub), picks)
    count = 0
    for j in range(n_picks):  # picks ascend: row count is free once picks[j] >= count is read
        if j > 0 and picks[j] == picks[j - 1]:
            mult[count - 1] += 1
            continue
        for o in range(p):
            lays[count, o] = lays[picks[j], o]
        r0s[count] = r0s[picks[j]]
        mult[count] = 1
        count += 1
    return ess, count


@jit(inline="always")
def rollout_card(pol, par, st, hm, rp, seat, legal, rng):
    """``rollout`` card of ``seat`` from the mask ``legal`` (see the module doc)."""
    if popcount(legal) == 1:
        return ctz(legal)
    p = rp[R_PLAYERS]
    n_layouts = np.int64(par[1, seat, 0])
    base = np.int64(par[1, seat, 1])
    z = par[1, seat, 2]
    infer = par[1, seat, 3] != 0.0
    sep = _separators(hm, rp, seat)
    cands = np.empty(MAX_HAND, dtype=np.int64)  # a candidate per card at most
    n_cands = _candidates(legal, sep, cands)
    if n_cands == 1 or n_layouts < 1:
        return cands[0]
    sub = np.empty(1, dtype=np.uint64)
    sub[0] = decision_stream(rng[0], seat, ROLLOUT_DECISION + st[S_NPLAYS])
    rrng = np.empty(1, dtype=np.uint64)
    work = np.empty(SAMPLER_WORK, dtype=np.int64)
    tab = np.empty(SAMPLER_TAB, dtype=np.float64)
    lay = np.empty(HM_SIZE, dtype=np.uint64)
    rst = np.zeros(ST_SIZE, dtype=np.int64)  # zeroed: the scratch of the inference too
    rhm = np.zeros(HM_SIZE, dtype=np.uint64)
    rpol = np.empty((2, p), dtype=np.int64)
    rpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    for o in range(p):
        rpol[0, o] = 0
        rpol[1, o] = base
    totals = np.zeros(n_cands, dtype=np.int64)
    alive = np.ones(n_cands, dtype=np.bool_)
    n_picks = np.int64(par[1, seat, 7]) * n_layouts if infer else n_layouts
    sc = np.empty((n_cands, n_picks), dtype=np.int64)
    for i in range(HM_SIZE):
        lay[i] = hm[i]
    pool = np.int64(par[1, seat, 6]) if infer else 1
    lays = np.empty((n_layouts * pool, p), dtype=np.uint64)
    w = np.empty(n_layouts * pool, dtype=np.float64)
    picks = np.empty(n_picks, dtype=np.int64)
    mult = np.empty(n_picks, dtype=np.int64)
    r0s = np.empty(n_layouts * pool, dtype=np.uint64)
    mpol = np.empty((2, p), dtype=np.int64)
    mpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    if infer:
        model_rows(pol, par, p, np.int64(par[1, seat, 4]), mpol, mpar)
    _ess, count = draw_pool(st, hm, rp, seat, Sampler(sub, work, tab), lay,
                            Draw(n_layouts, infer, pool, par[1, seat, 5], n_picks),
                            Replay(mpol, mpar, rst, rhm, rrng), Drawn(lays, r0s, w, picks, mult))
    for i in range(count):
        for o in range(p):
            lay[H_HAND + o] = lays[i, o]
        r0 = r0s[i]
        for k in range(n_cands):
            if not alive[k]:
                continue
            for j in range(ST_SIZE):
                rst[j] = st[j]
            for j in range(HM_SIZE):
                rhm[j] = lay[j]
            rrng[0] = r0  # a random base policy sees the same draws for every candidate
            apply_card(rst, rhm, rp, seat, cands[k])
            run_base_at(rst, rhm, rp, rpol, rpar, rrng, np.int64(PH_DONE))
            v = rst[S_SCORE + seat]
            totals[k] += mult[i] * v
            sc[k, i] = v
        m = i + 1
        if z > 0.0 and m >= RACE_FIRST and m % RACE_EVERY == 0 and m < count:
            if _race(sc, mult, alive, totals, n_cands, m, z) == 1:
                break
    best = -1
    for k in range(n_cands):
        if alive[k] and (best < 0 or totals[k] > totals[best]):
            best = k
    # ties go to the base policy's own card (on the real state; a random base draws from a copy)
    rrng[0] = sub[0]
    own = base_card(rpol, rpar, st, hm, rp, seat, legal, rrng)
    for k in range(n_cands):
        if alive[k] and totals[k] == totals[best] and _same_run(cands[k], own, sep):
            return own
    return cands[best]
