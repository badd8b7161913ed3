"""The value of every card of one decision, by search: the teacher of the ``learned`` play policy.

:func:`card_values` plays each candidate card (the lowest of each run, as ``rollout`` tries them,
:func:`~whist_sim.compiled.search.rollout._candidates`) on the same layouts of the unseen cards
(drawn and weighted as ``rollout`` with ``infer``: the calls and contracts so far, each seat read
with its own bidding strategy) and finishes the deal with the play policy ``finisher`` at every
seat (``expert`` or ``learned``: a policy that does not search); a candidate's
value is the seat's total score over the layouts. No racing: every candidate plays every layout,
so the values of the candidates are comparable. ``scripts/train_play.py`` fits the ``learned``
weights to these values (docs/PLAY_MODEL.md).

The stream of a decision is its own (``decision_stream`` of the deal stream's state, the seat and
:data:`VALUES_DECISION` + cards played): the values depend only on the state, never on the order
in which decisions are valued. The rollouts run in the loop, by its address
(``st[S_LOOP_TABLE]`` must hold a loop table, ``entry.deal.loop_address``). It allocates its
scratch: not for the deal loop.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..ground._numba import jit
from ..ground.layout import (
    H_HAND,
    HM_SIZE,
    MAX_CALLS,
    N_PARAMS,
    PH_DONE,
    R_PLAYERS,
    S_NPLAYS,
    S_SCORE,
    SAMPLER_TAB,
    SAMPLER_WORK,
    ST_SIZE,
)
from ..ground.rng import decision_stream
from ..ground.sampler import Sampler
from ..loop.phases import apply_card
from ..loop.shared import run_base_at
from .inference import Replay, model_rows
from .rollout import Draw, Drawn, _candidates, _separators, draw_pool

VALUES_DECISION = MAX_CALLS + 96  # + cards played: decision index (apart from rollout's)
POOL = 4  # layouts drawn per layout valued (rollout's default)
PICKS = 2  # layouts picked per layout valued (rollout's default)
EPS = 0.6  # weight of a layout per call the model would have made otherwise (rollout's default)


class Valuing(NamedTuple):
    """How :func:`card_values` values a decision and where it writes: ``n_layouts`` (int64; the
    values are summed over ``2 * n_layouts`` picks), the play policy id ``finisher`` (int64)
    that finishes every deal at every seat, and the outputs ``cands`` / ``totals`` (int64, at
    least 13 long): the candidate cards and their total scores."""

    n_layouts: np.int64
    finisher: np.int64
    cands: np.ndarray
    totals: np.ndarray


@jit(_nrt=True, cache=False)
def card_values(pol, par, st, hm, rp, seat, legal, rng, valuing):
    """Value the candidates of ``seat``'s card decision (the module doc) as ``valuing`` (a
    :class:`Valuing`) says: writes the candidate cards to ``valuing.cands`` and their total
    scores over ``2 * n_layouts`` picks of layouts to ``valuing.totals`` (points, summed over the
    picks); returns the number of candidates."""
    n_layouts, finisher, cands, totals = valuing
    p = rp[R_PLAYERS]
    n_cands = _candidates(legal, _separators(hm, rp, seat), cands)
    sub = np.empty(1, dtype=np.uint64)
    sub[0] = decision_stream(rng[0], seat, VALUES_DECISION + st[S_NPLAYS])
    rrng = np.empty(1, dtype=np.uint64)
    work = np.empty(SAMPLER_WORK, dtype=np.int64)
    tab = np.empty(SAMPLER_TAB, dtype=np.float64)
    lay = np.empty(HM_SIZE, dtype=np.uint64)
    rst = np.zeros(ST_SIZE, dtype=np.int64)
    rhm = np.zeros(HM_SIZE, dtype=np.uint64)
    rpol = np.empty((2, p), dtype=np.int64)
    rpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    for o in range(p):
        rpol[0, o] = 0
        rpol[1, o] = finisher
    for k in range(n_cands):
        totals[k] = 0
    n_picks = PICKS * n_layouts
    for i in range(HM_SIZE):
        lay[i] = hm[i]
    lays = np.empty((n_layouts * POOL, p), dtype=np.uint64)
    w = np.empty(n_layouts * POOL, dtype=np.float64)
    picks = np.empty(n_picks, dtype=np.int64)
    mult = np.empty(n_picks, dtype=np.int64)
    r0s = np.empty(n_layouts * POOL, dtype=np.uint64)
    mpol = np.empty((2, p), dtype=np.int64)
    mpar = np.zeros((2, p, N_PARAMS), dtype=np.float64)
    model_rows(pol, par, p, np.int64(-1), mpol, mpar)
    infer = np.bool_(True)  # variables, not literals: one compiled copy of draw_pool
    pool = np.int64(POOL)
    eps = np.float64(EPS)
    _ess, count = draw_pool(st, hm, rp, seat, Sampler(sub, work, tab), lay,
                            Draw(n_layouts, infer, pool, eps, n_picks),
                            Replay(mpol, mpar, rst, rhm, rrng), Drawn(lays, r0s, w, picks, mult))
    for i in range(count):
        for o in range(p):
            lay[H_HAND + o] = lays[i, o]
        for k in range(n_cands):
            for j in range(ST_SIZE):
                rst[j] = st[j]
            for j in range(HM_SIZE):
                rhm[j] = lay[j]
            rrng[0] = r0s[i]
            apply_card(rst, rhm, rp, seat, cands[k])
            run_base_at(rst, rhm, rp, rpol, rpar, rrng, np.int64(PH_DONE))
            totals[k] += mult[i] * rst[S_SCORE + seat]
    return n_cands
