"""The whist and bridge objectives of the double-dummy solver (numba drivers).

``solve_rows`` solves a batch of positions (real cards; it makes them canonical) for one objective
(``OBJ_*``): bridge, whist-max and whist-min by a few null-window searches (``solve_count``,
MTD(f)), whist-exact by whist-max, whist-min and then one exact AND/OR search per trick count
between them (``solve_exact``). Results count tricks of the remaining play; ``UNSOLVED`` marks a
row whose searches ran over the node limit (``stats[ST_LIMIT]`` card plays).
"""

from __future__ import annotations

import numba
import numpy as np

from ._bits import INLINE, NJIT, popcount
from .bounds import _bounds
from .canon import SUITM, U, canonical
from .search import (
    MODE_COUNT,
    MODE_EXACT,
    ST_BOUND,
    ST_GEN,
    ST_LIMIT,
    ST_PLAYS,
    ST_STOP,
    UNSOLVED,
    _search,
    new_workspace,
)
from .table import GEN_BITS

# [climb then cap] whist-max's null-window searches climb from the lower bound with this share
# (per cent) of a row's node limit and spend the rest on "no" searches from the top
# (:func:`_climb_then_cap`; shares of 35 to 90 % measured, 50 % as good as any).
CLIMB_SHARE_PCT = 50
# Whist-min's climb keeps most of a row's plays: its lower bound is the one the report and the
# advisor use most (a zero bid is hopeless once whist-min >= 1; whist-min > whist-max), while the
# first "no" searches from the top are cheap and lower its weak static upper bound by 2-3 tricks
# (40 random full deals at 1,000,000 plays, mean lo / hi of the unsolved: 3.90 / 10.82 climbing
# only, 3.83 / 8.35 at 85 %, 3.65 / 8.12 at 50 %)
MIN_CLIMB_SHARE_PCT = 85
# Whist-exact under a node limit: whist-max gets at most this share of a row's plays, so that a
# row whose whist-max runs over it still has plays to prove whist-min above whist-max's proved
# upper bound (then nothing is makeable exactly; 60 random full deals at 1,000,000 plays: 54
# decided instead of 52, with fewer plays)
EXACT_MAX_SHARE_PCT = 90


@numba.njit(**NJIT)
def _ask(hands, leader, t, trump, win, mx, lo, hi, ws, table, stats):
    """One null-window search of :func:`solve_count`, "at least ``t``?": ``(got, lo, hi)``, the
    answer (``UNSOLVED`` when it ran out of card plays) and the bounds narrowed by it. Fail-soft:
    the search may prove more than the question asked (``stats[ST_BOUND]``)."""
    got = _search(np.int64(MODE_COUNT), hands, leader, t, trump, win, mx, np.int64(0), ws, table,
                  stats)
    if got == UNSOLVED:
        return got, lo, hi
    if got:
        return got, max(t, stats[ST_BOUND]), hi
    return got, lo, min(t - 1, stats[ST_BOUND])


@numba.njit(**NJIT)
def _climb_then_cap(hands, leader, trump, win, mx, share, lo, hi, ws, table, stats):
    """The whist objectives' driver for :func:`solve_count` (seat bit ``win``, maximised by
    the seats ``mx``; ``lo``/``hi`` the static bounds; ``share``: the climb's per cent of a node
    limit): ``(value, lo, hi)`` as there. Described for whist-max (``CLIMB_SHARE_PCT``); whist-min
    climbs the same way with ``MIN_CLIMB_SHARE_PCT``.

    First it climbs: "at least lo + 1?", and so on up. The "yes" searches below the value are
    cheap and leave in the table much of what the last two (the costly "yes" at the value and
    "no" above it) need, so on random deals it takes fewer card plays than starting in the middle
    of the bounds. But a climb stopped by the node limit proves only a lower bound, and the
    report's comparisons of contracts with whist-max mostly need the upper one. So under a node
    limit the climb gets ``CLIMB_SHARE_PCT`` % of the row's plays; a row it leaves unsolved spends
    the rest on "at least hi?" searches from the top, which each lower ``hi`` when they fail (and
    end at the climb's stopped question, resumed with the table's help, once ``hi = lo + 1``).
    Without a node limit it only climbs.
    """
    row_stop = stats[ST_STOP]
    if row_stop != 0:
        left = row_stop - stats[ST_PLAYS]
        stats[ST_STOP] = stats[ST_PLAYS] + max(1, left * share // 100)
    while lo < hi:
        got, lo, hi = _ask(hands, leader, lo + 1, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            break
    stats[ST_STOP] = row_stop
    if row_stop != 0 and stats[ST_PLAYS] >= row_stop:
        return UNSOLVED, lo, hi  # no card plays left (a limit of 1: the climb took it)
    while lo < hi:
        got, lo, hi = _ask(hands, leader, hi, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            return UNSOLVED, lo, hi
    return lo, lo, hi


@numba.njit(**INLINE)
def _pair_first_target(h0, h1, h2, h3, leader, trump, win, lo, hi):
    """Bridge's first MTD target for a full deal (13 tricks left): an estimate of the pair
    ``win``'s tricks, a little high. Only the speed depends on it, never a result.

    A search far from the value costs card plays (on random deals, starting at the true value
    would save about 10-13 % of bridge's plays against starting in the middle of the static
    bounds ``lo..hi``), and a first guess one too high costs about the same as the exact value,
    one too low much more. The estimate is a least-squares fit of the tricks on 500 random deals
    (seed 100, not the deals the speed was measured on): the pair's high-card points (A 4, K 3,
    Q 2, J 1), its trumps minus the opponents', whether it leads, no-trump, the static bounds,
    its short side suits (0-2 cards in the shorter hand, in a suit contract) and its longest
    combined suit; residual 1.1 tricks. Rounded up by half a trick it saves 1-5 % of the card
    plays on four other sets of random deals.
    """
    a = (win & 1) == 0  # the pair is seats 1 and 3
    ha = h1 if a else h0
    hb = h3 if a else h2
    hcp = 0
    longest = 0
    short = 0
    for s in range(4):
        ma = ha & SUITM[s]
        mb = hb & SUITM[s]
        both = ma | mb
        top = 13 * s + 12
        hcp += (4 * ((both >> U(top)) & U(1)) + 3 * ((both >> U(top - 1)) & U(1))
                + 2 * ((both >> U(top - 2)) & U(1)) + ((both >> U(top - 3)) & U(1)))
        la = popcount(ma)
        lb = popcount(mb)
        longest = max(longest, la + lb)
        if trump < 4 and s != trump:
            short += max(0, 2 - min(la, lb))
    est = -1.66 + 0.34 * hcp + 0.23 * lo + 0.23 * hi - 0.12 * longest
    if trump < 4:
        ours = popcount((ha | hb) & SUITM[trump])
        est += 0.44 * (2 * ours - 13) + 0.29 * short
    else:
        est += 0.08
    if (win >> leader) & 1:
        est -= 0.50
    return np.int64(np.floor(est + 0.5))


@numba.njit(**NJIT)
def solve_count(hands, leader, trump, win, mx, ws, table, stats):
    """Tricks of the seats ``win`` from the canonical position ``hands`` when the seats ``mx``
    maximise them and the others minimise them; MTD(f)-style null-window searches sharing the
    table.

    Returns ``(value, lo, hi)``: ``value`` is ``UNSOLVED`` when a search runs out of card plays
    (``stats[ST_STOP]``); ``lo <= value <= hi`` are the bounds proved so far (equal when solved).
    """
    r = popcount(hands[leader])
    if r == 0:
        return 0, 0, 0
    lo, _, hi, _ = _bounds(hands[0], hands[1], hands[2], hands[3], leader, trump, win, mx, r,
                           np.int64(0), r)
    if win == mx and popcount(U(win)) == 1:
        # whist-max: climb, then cap from the top with what a node limit leaves
        return _climb_then_cap(hands, leader, trump, win, mx, np.int64(CLIMB_SHARE_PCT), lo, hi,
                               ws, table, stats)
    if mx == 15 ^ win and popcount(U(win)) == 1:
        # whist-min: proving "at least t" is cheap (the pushing side shows one way), proving
        # "fewer than t" the costly part (every way of pushing must fail). Climbing from below
        # needs just one costly search, and a search stopped by a node limit still leaves a
        # useful lower bound; most of a limit goes to the climb, the rest caps from the top
        return _climb_then_cap(hands, leader, trump, win, mx, np.int64(MIN_CLIMB_SHARE_PCT), lo,
                               hi, ws, table, stats)
    # bridge (the only objective left here) starts at an estimate on a full deal, else in the
    # middle (climbing took +9 % card plays on random deals)
    guess = (lo + hi + 1) // 2
    if r == 13:
        guess = _pair_first_target(hands[0], hands[1], hands[2], hands[3], leader, trump, win,
                                   lo, hi)
    while lo < hi:
        t = guess
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        got, lo, hi = _ask(hands, leader, t, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            return UNSOLVED, lo, hi
        guess = lo + 1 if got else hi
    return lo, lo, hi


@numba.njit(**NJIT)
def _min_past(hands, leader, trump, me, cap, ws, table, stats):
    """Whist-min of seat bit ``me``, climbed from below only as far as whist-exact needs:
    ``(got, lo, hi)``.

    ``got`` = 1 when decided: either ``lo == hi`` (the value) or ``lo > cap`` (whist-min is
    proved above ``cap``, the value itself left open); ``UNSOLVED`` when a search runs out of card
    plays first. The climb is :func:`solve_count`'s for whist-min, stopped early: its costly
    searches are the last two, at and just above the value (docs/DD.md), and whist-exact with
    ``cap`` = whist-max needs neither when whist-min > whist-max (then p can make no number of
    tricks exactly), which is the common case on full deals.
    """
    r = popcount(hands[leader])
    if r == 0:
        return 1, 0, 0
    win = me
    mx = 15 ^ me
    lo, _, hi, _ = _bounds(hands[0], hands[1], hands[2], hands[3], leader, trump, win, mx, r,
                           np.int64(0), r)
    while lo < hi and lo <= cap:
        got, lo, hi = _ask(hands, leader, lo + 1, trump, win, mx, lo, hi, ws, table, stats)
        if got == UNSOLVED:
            return UNSOLVED, lo, hi
    return 1, lo, hi


@numba.njit(**NJIT)
def solve_exact(hands, leader, trump, p, lo, hi, out, ws, table, stats):
    """Fill ``out[k]`` (int8): 1 if seat ``p`` can make exactly ``k`` tricks from here, else 0
    (``UNSOLVED`` for every ``k`` when a search runs out of card plays).

    ``lo``/``hi`` are p's whist-min and whist-max; outside them the answer is always 0.
    """
    for k in range(out.shape[0]):
        out[k] = 0
    for k in range(lo, hi + 1):
        got = _search(np.int64(MODE_EXACT), hands, leader, k, trump, 1 << p, 1 << p, p, ws, table,
                      stats)
        if got == UNSOLVED:
            for j in range(out.shape[0]):
                out[j] = UNSOLVED
            return
        out[k] = got


OBJ_BRIDGE = 0
OBJ_WHIST_MAX = 1
OBJ_WHIST_MIN = 2
OBJ_WHIST_EXACT = 3


@numba.njit(**NJIT)
def solve_rows(hands, trump, leader, seat, objective, out, out_lo, out_hi, out_exact, table, stats):
    """Solve every row of ``hands`` (``uint64[n, 4]``, real cards) for one objective.

    ``out[i]``: the tricks (int8) for bridge / whist-max / whist-min; for whist-exact ``out`` gets
    whist-max and ``out_exact[i, k]`` (int8) whether seat ``seat[i]`` can make exactly ``k`` tricks
    (decided, all 0, even with whist-max unsolved when whist-min is proved above its bounds).
    With ``stats[ST_LIMIT] > 0`` a row whose searches need more card plays than that is left
    ``UNSOLVED`` (``out[i]`` and, for whist-exact, every ``out_exact[i, k]``). ``out_lo[i]`` /
    ``out_hi[i]``: the bounds proved on the tricks (equal to ``out[i]`` for a solved row; for
    whist-exact, the bounds on whist-max).
    Consecutive rows with the same hands and trump share the transposition table (a table of
    strains x leaders, or the four seats of one deal, costs much less than independent solves).
    """
    n = hands.shape[0]
    ws = new_workspace()
    for i in range(n):
        same = (
            i > 0
            and trump[i] == trump[i - 1]
            and hands[i, 0] == hands[i - 1, 0]
            and hands[i, 1] == hands[i - 1, 1]
            and hands[i, 2] == hands[i - 1, 2]
            and hands[i, 3] == hands[i - 1, 3]
        )
        if not same:
            stats[ST_GEN] += 1
            if stats[ST_GEN] & ((1 << GEN_BITS) - 1) == 0:
                # the keys' generation bits wrap: empty the table for real (once in 65,535 groups)
                table[:] = U(0)
                stats[ST_GEN] += 1
        stats[ST_STOP] = stats[ST_PLAYS] + stats[ST_LIMIT] if stats[ST_LIMIT] > 0 else 0
        canon = canonical(hands[i])
        ld = np.int64(leader[i])
        tr = np.int64(trump[i])
        s = np.int64(seat[i])
        me = np.int64(1) << s
        if objective == OBJ_BRIDGE:
            team = me | (np.int64(1) << ((s + 2) & 3))
            v, lo, hi = solve_count(canon, ld, tr, team, team, ws, table, stats)
        elif objective == OBJ_WHIST_MAX:
            v, lo, hi = solve_count(canon, ld, tr, me, me, ws, table, stats)
        elif objective == OBJ_WHIST_MIN:
            v, lo, hi = solve_count(canon, ld, tr, me, 15 ^ me, ws, table, stats)
        else:
            row_stop = stats[ST_STOP]
            if row_stop != 0:
                stats[ST_STOP] = stats[ST_PLAYS] + max(
                    1, (row_stop - stats[ST_PLAYS]) * EXACT_MAX_SHARE_PCT // 100)
            v, lo, hi = solve_count(canon, ld, tr, me, me, ws, table, stats)
            stats[ST_STOP] = row_stop
            # whist-min only as far as needed: once proved above whist-max's upper bound hi,
            # nothing is made exactly (decided even when whist-max itself is not)
            got, mn, _ = _min_past(canon, ld, tr, me, hi, ws, table, stats)
            if got != UNSOLVED and mn > hi:
                for k in range(out_exact.shape[1]):
                    out_exact[i, k] = 0
            elif got == UNSOLVED or v == UNSOLVED:
                v = UNSOLVED
                for k in range(out_exact.shape[1]):
                    out_exact[i, k] = UNSOLVED
            else:
                # mn: whist-min (at most v here)
                solve_exact(canon, ld, tr, s, mn, v, out_exact[i], ws, table, stats)
                if out_exact[i, 0] == UNSOLVED:
                    v = UNSOLVED
        out[i] = v
        out_lo[i] = lo
        out_hi[i] = hi
