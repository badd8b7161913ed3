"""The double-dummy search (numba): one null-window or exact question from one position.

Conventions (docs/DD.md tells the whole story; positions in canonical form, see ``canon``):

* **Counting question** (mode 0): the seats ``win`` (bit mask) have their tricks counted, the seats
  ``mx`` try to make that count large and the others try to make it small. ``_search`` answers the
  null-window question "is the count at least ``target``?"; ``objectives.solve_count`` finds the
  value with a few such searches (MTD(f)). Bridge: ``win = mx = {s, s+2}``; whist-max of p:
  ``win = mx = {p}``; whist-min of p: ``win = {p}``, ``mx`` = the other three.
* **Exact question** (mode 1): "can seat p make exactly ``need`` more tricks when the other three
  play together against it?" An AND/OR search: the question is not monotone in ``need``.
* ``stats`` (int64, slots ``ST_*``) carries the counters, the node limit and the table's
  generation between the Python layer and the kernels; a row over its limit is ``UNSOLVED``.

The search is iterative (an explicit stack of card plays, one row per depth of the workspace), so
no numba function calls itself.
"""

from __future__ import annotations

import numba
import numpy as np

from ._bits import INLINE, NJIT, ctz, popcount
from .bounds import _bounds, _quick_tricks, _trick_then_cash, _trump_floor
from .canon import (
    U,
    _bit,
    _close_up,
    _extend_runs,
    _hand,
    _is_wild,
    _legal,
    _len_sig,
    _note_wild,
    _sig_after,
    _sort4,
    _squeeze_trick,
    _suit,
    _trick,
    _unsqueeze_one,
)
from .moves import _gen_moves
from .table import _tt_lookup, _tt_prefetch, _tt_store, new_table

MAX_DEPTH = 56  # card plays in a deal (52) plus slack: rows of the workspace
MOVE_SLOTS = 16  # a hand has at most 13 distinct moves

# workspace columns (int64)
C_K = 0  # position in the trick of the player to move (0 = leader)
C_LD = 1  # leader of the current trick
C_TG = 2  # target (mode 0) or need (mode 1) counted from the start of the current trick
C_N = 3  # number of candidate moves
C_I = 4  # index of the move being searched
C_PLAYS = 5  # card plays counter (stats[ST_PLAYS]) when a searched trick-boundary node was entered
C_R = 6  # tricks remaining at a trick boundary
C_CARD = 7  # card played at this depth
C_PHASE = 8  # move phase of a probed node: 0 plain, 1 probing, 2 deferred moves
C_DEFER = 9  # moves of a probed node whose probe ran out of plays (bit i: move i)
C_ACC = 10  # mode 0, fail-soft: the best bound of the moves searched so far that did not cut
# killer move (leads only): the lead that most recently cut at this depth, by leader, when it was
# not the first lead tried (four columns, ``C_KILL + leader``); -1 for none. Reset at the start of
# every search.
C_KILL = 11
N_COLS = 15

# stats slots
ST_NODES = 0  # trick-boundary nodes searched (after the cheap cut-offs)
ST_TT_HITS = 1  # trick-boundary nodes answered by a transposition table
ST_GEN = 2  # current generation of the transposition tables (see ``table.new_table``)
ST_PLAYS = 3  # card plays tried
ST_FLAGS = 4  # input, bit 0: store proofs for exact positions only (no rank patterns; for tests);
# bit 1: no probing of p's leads in whist-max (``PROBE_PLAYS``; for tests)
ST_LIMIT = 5  # input: most card plays per row (0 = no limit); a row over it is left unsolved
ST_STOP = 6  # the value of ST_PLAYS at which the current row's search gives up (0 = never)
ST_BOUND = 7  # output of a mode-0 search: the bound it proved (fail-soft, see ``_search``)
N_STATS = 8

UNSOLVED = -1  # result of a row whose search ran over ``stats[ST_LIMIT]`` card plays

MODE_COUNT = 0
MODE_EXACT = 1

# [probe] whist-max: when p is on lead with at least PROBE_MIN_TRICKS tricks to go, every lead is
# first searched with a budget of PROBE_PLAYS card plays; a lead proved good ends the node at
# once, a lead proved bad is done, and only the leads whose probe ran out are then searched in
# full, in their order. A costly proof of p's often hangs on one lead among many that the move
# ordering cannot pick out and a cheap probe often can (hard whist-max full deals, two sets of 20
# deals x 4 seats at 10,000,000 plays: 52.7 M -> 40.8 M and 76.8 M -> 68.3 M card plays). Only
# p's leads in whist-max are probed.
PROBE_MIN_TRICKS = 6
PROBE_PLAYS = 300


@numba.njit(**INLINE)
def _meta(leader, mx, flip, mode):
    return U(leader) | (U(mx) << U(2)) | (U(flip) << U(6)) | (U(mode) << U(7))


@numba.njit(**INLINE)
def _bound_cut(h0, h1, h2, h3, ld, trump, win, mx, r, tg):
    """The cheap bounds (``_bounds``) at a trick-boundary node of a count search that still needs
    ``tg`` tricks: ``(resolved, val, bnd, rel)``, the answer and its proof when a bound settles the
    question."""
    blo, blo_rel, bhi, bhi_rel = _bounds(h0, h1, h2, h3, ld, trump, win, mx, r, tg, tg - 1)
    if blo >= tg:
        return True, True, blo, _close_up(blo_rel, h0, h1, h2, h3)
    if bhi < tg:
        return True, False, bhi, _close_up(bhi_rel, h0, h1, h2, h3)
    return False, False, 0, U(0)


@numba.njit(**NJIT)
def _search(mode, root, leader, target, trump, win, mx, p, ws, table, stats):
    """One null-window search from the canonical position ``root`` (``uint64[4]``).

    Mode 0: can the seats ``mx`` make the seats ``win`` take at least ``target`` tricks?
    Mode 1: can seat ``p`` make exactly ``target`` tricks against the other three?
    Returns 1 (yes), 0 (no) or ``UNSOLVED`` when the card plays reach ``stats[ST_STOP]``.
    ``ws``: the workspace (``new_workspace``); ``table``: the transposition table.

    Mode 0 is *fail-soft*: every resolved node also yields a bound on the count (from the start of
    its trick) that its proof shows, which may go beyond the question: a "yes" proves at least
    ``bnd >= target``, a "no" at most ``bnd < target``. A node whose moves all fail takes the best
    of their bounds, a cut takes its cutting move's, and the table stores the bound proved. The
    root's bound is left in ``stats[ST_BOUND]``; ``solve_count`` uses it to skip searches.

    Every resolved node also yields a *relevance* mask: the cards whose ranks the answer depends on
    (see docs/DD.md); a trick-boundary node stores its answer for every position that agrees with
    it on those cards and on the suit lengths.
    """
    WH, WI, WM, SC, WR, WK = ws
    for i in range(MAX_DEPTH):
        for j in range(4):
            WI[i, C_KILL + j] = -1  # killers start afresh: each search's plays depend on it alone
    gen = U(stats[ST_GEN])
    full_keys = stats[ST_FLAGS] & 1
    me = 1 << p
    if mode == MODE_EXACT:
        win = me
        mx = me
    flip = np.int64(win != mx)
    # [table first] whist-max looks a trick-boundary position up in the table before it computes
    # the cheap bounds: most positions its costly searches reach (the children of the three's
    # all-move nodes) are answered by the table (about -10 % time; the other objectives gain
    # nothing from it, whist-min's card plays rise)
    table_first = mode == MODE_COUNT and win == mx and popcount(U(win)) == 1
    # the card plays counter and the stop value, in registers (written back on return)
    plays = stats[ST_PLAYS]
    stop = stats[ST_STOP]
    if stop == 0:
        stop = np.int64(0x7FFFFFFFFFFFFFFF)  # no limit
    # [probe] whist-max: p's leads are probed (see PROBE_PLAYS)
    probing = (mode == MODE_COUNT and win == mx and popcount(U(win)) == 1
               and not stats[ST_FLAGS] & 2)
    probe_d = -1  # the node whose moves are being probed (-1: none)
    probe_stop = 0  # the value of ``plays`` at which the current probe gives up
    deferring = False
    d = 0
    for q in range(4):
        WH[0, q] = root[q]
    WI[0, C_K] = 0
    WI[0, C_LD] = leader
    WI[0, C_TG] = target
    WK[0, 0] = _len_sig(root[0], root[1], root[2], root[3])
    val = False
    bnd = 0
    rel = U(0)
    idx = 0
    while True:
        # ---------------------------------------------------------------- enter the node at d
        h0 = WH[d, 0]
        h1 = WH[d, 1]
        h2 = WH[d, 2]
        h3 = WH[d, 3]
        k = WI[d, C_K]
        ld = WI[d, C_LD]
        tg = WI[d, C_TG]
        resolved = False
        best = -1
        if probe_d >= 0 and plays >= probe_stop:
            # the probe ran out of card plays: back to the probed node, the move is deferred
            d = probe_d + 1
            resolved = True
            deferring = True
        elif k == 0:
            r = popcount(_hand(h0, h1, h2, h3, ld))
            WI[d, C_R] = r
            rel = U(0)
            if mode == MODE_COUNT:
                if tg <= 0:
                    resolved = True
                    val = True
                    bnd = 0
                elif tg > r:
                    resolved = True
                    val = False
                    bnd = r
            elif tg < 0 or tg > r:
                resolved = True
                val = False
            elif r == 0:
                resolved = True
                val = True
            if not resolved and r == 1:
                c0 = ctz(_hand(h0, h1, h2, h3, ld))
                c1 = ctz(_hand(h0, h1, h2, h3, (ld + 1) & 3))
                c2 = ctz(_hand(h0, h1, h2, h3, (ld + 2) & 3))
                c3 = ctz(_hand(h0, h1, h2, h3, (ld + 3) & 3))
                wi, rel = _trick(c0, c1, c2, c3, trump)
                got = (win >> ((ld + wi) & 3)) & 1
                resolved = True
                val = got >= tg if mode == MODE_COUNT else got == tg
                bnd = got
            if not resolved:
                sig = WK[d, 0]  # the suit lengths, kept up to date by the plays (``_sig_after``)
                olo = h1 | h3
                ohi = h2 | h3
            if not resolved and mode == MODE_COUNT:
                meta = _meta(ld, mx, flip, MODE_COUNT)
                WK[d, 0] = sig
                WK[d, 1] = meta
                if not table_first:
                    # the cheap bounds first, while the table's buckets load: a cut by them saves
                    # a table lookup (each cut is sound on its own, so the order changes only
                    # which proof and relevance is used)
                    _tt_prefetch(table, gen, sig, meta, olo, ohi)
                    resolved, val, bnd, rel = _bound_cut(h0, h1, h2, h3, ld, trump, win, mx, r, tg)
                if not resolved:
                    _, _, _, _, lo, lo_rel, hi, hi_rel, best = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, tg, tg, 0
                    )
                    if lo >= tg:
                        resolved = True
                        val = True
                        bnd = lo
                        rel = lo_rel
                        stats[ST_TT_HITS] += 1
                    elif hi < tg:
                        resolved = True
                        val = False
                        bnd = hi
                        rel = hi_rel
                        stats[ST_TT_HITS] += 1
                    elif table_first:
                        resolved, val, bnd, rel = _bound_cut(h0, h1, h2, h3, ld, trump, win, mx, r,
                                                             tg)
            elif not resolved:
                # exact: sure tricks either way
                f, frel = _trump_floor(h0, h1, h2, h3, trump, me)
                if tg < f:
                    resolved = True
                    val = False
                    rel = _close_up(frel, h0, h1, h2, h3)
                if not resolved:
                    f, frel = _trump_floor(h0, h1, h2, h3, trump, 15 ^ me)
                    if tg > r - f:
                        resolved = True
                        val = False
                        rel = _close_up(frel, h0, h1, h2, h3)
                if not resolved and ld == p:
                    qt, qrel = _quick_tricks(h0, h1, h2, h3, ld, trump, 15 ^ me)
                    if qt == r:
                        # every card of p wins whatever he leads: he takes them all
                        resolved = True
                        val = tg == r
                        rel = _close_up(qrel, h0, h1, h2, h3)
                if not resolved:
                    # bounds known from the whist-max / whist-min searches of this position
                    meta = _meta(ld, me, 0, MODE_COUNT)
                    _, _, _, _, lo, lo_rel, hi, hi_rel, _ = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, 99, tg, 0
                    )
                    if tg > hi:
                        resolved = True
                        val = False
                        rel = hi_rel
                if not resolved:
                    meta = _meta(ld, 15 ^ me, 1, MODE_COUNT)
                    _, _, _, _, lo, lo_rel, hi, hi_rel, _ = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, tg + 1, -99, 0
                    )
                    if tg < lo:
                        resolved = True
                        val = False
                        rel = lo_rel
                if not resolved:
                    meta = _meta(ld, me, 0, MODE_EXACT)
                    WK[d, 0] = sig
                    WK[d, 1] = meta
                    a_or, a_rel, b_or, b_rel, _, _, _, _, _ = _tt_lookup(
                        table, gen, sig, meta, olo, ohi, 99, -99, 1 << tg
                    )
                    if (a_or >> tg) & 1:
                        resolved = True
                        val = True
                        rel = a_rel
                        stats[ST_TT_HITS] += 1
                    elif (b_or >> tg) & 1:
                        resolved = True
                        val = False
                        rel = b_rel
                        stats[ST_TT_HITS] += 1
            if not resolved:
                stats[ST_NODES] += 1
                WI[d, C_PLAYS] = plays
        elif mode == MODE_COUNT:
            # [trick then cash] inside a trick: a cooperating side surely wins it, then cashes
            # (see ``_trick_then_cash``); ``tg`` counts from the start of this trick
            t0 = WI[d - k, C_CARD]
            t1 = WI[d - k + 1, C_CARD] if k > 1 else -1
            t2 = WI[d - k + 2, C_CARD] if k > 2 else -1
            if not win & ~mx:
                n, nrel = _trick_then_cash(h0, h1, h2, h3, k, ld, t0, t1, t2, trump, win, tg)
                if n >= tg:
                    resolved = True
                    val = True
                    bnd = n
                    rel = _close_up(nrel, h0, h1, h2, h3)
            if not resolved and not mx & ~win:
                n, nrel = _trick_then_cash(h0, h1, h2, h3, k, ld, t0, t1, t2, trump, 15 ^ win,
                                           WI[d - k, C_R] - tg + 1)
                if WI[d - k, C_R] - n < tg:
                    resolved = True
                    val = False
                    bnd = WI[d - k, C_R] - n
                    rel = _close_up(nrel, h0, h1, h2, h3)
        if not resolved:
            player = (ld + k) & 3
            if mode == MODE_COUNT:
                good = win if (mx >> player) & 1 else 15 ^ win
            else:
                # if p still wants tricks he tries to win this one and the others try to stop
                # him; if he wants none, the roles turn round
                p_wants = tg > 0
                if player == p:
                    good = me if p_wants else 15 ^ me
                else:
                    good = 15 ^ me if p_wants else me
            t0 = WI[d - k, C_CARD] if k > 0 else -1
            t1 = WI[d - k + 1, C_CARD] if k > 1 else -1
            t2 = WI[d - k + 2, C_CARD] if k > 2 else -1
            kill = WI[d, C_KILL + ld] if k == 0 else -1
            n = _gen_moves(h0, h1, h2, h3, k, ld, t0, t1, t2, trump, good, best, kill, WM, d, SC)
            WI[d, C_N] = n
            WI[d, C_I] = 0
            WR[d] = U(0)
            WK[d, 2] = U(0)  # wildcard thresholds of the moves searched here (``_note_wild``)
            WI[d, C_PHASE] = 0
            WI[d, C_ACC] = -1 if (mx >> player) & 1 else 99
            if (probing and probe_d < 0 and k == 0 and n >= 2 and (mx >> ld) & 1
                    and WI[d, C_R] >= PROBE_MIN_TRICKS):
                WI[d, C_PHASE] = 1
                WI[d, C_DEFER] = 0
                probe_d = d
                probe_stop = plays + PROBE_PLAYS
            idx = 0
        else:
            # ------------------------------------------------------------ return (val, rel) upwards
            found = False
            while not found:
                if d == 0:
                    stats[ST_PLAYS] = plays
                    stats[ST_BOUND] = bnd
                    return 1 if val else 0
                d -= 1
                k = WI[d, C_K]
                ld = WI[d, C_LD]
                n = WI[d, C_N]
                player = (ld + k) & 3
                maxi = (mx >> player) & 1 == 1
                step = False  # go on with the next move of this node
                if deferring:
                    # [probe] the probe of this move ran out of card plays: search it later
                    deferring = False
                    WI[d, C_DEFER] |= np.int64(1) << WI[d, C_I]
                    step = True
                else:
                    if k == 3:
                        # the child is the next trick's position: map its relevance back to this
                        # trick's ranks and add the rank that won this trick, if one did
                        c0 = WI[d - 3, C_CARD]
                        c1 = WI[d - 2, C_CARD]
                        c2 = WI[d - 1, C_CARD]
                        c3 = WI[d, C_CARD]
                        a0, a1, a2, a3 = _sort4(c0, c1, c2, c3)
                        rel = _unsqueeze_one(rel, a3)
                        rel = _unsqueeze_one(rel, a2)
                        rel = _unsqueeze_one(rel, a1)
                        rel = _unsqueeze_one(rel, a0)
                        twi, trel = _trick(c0, c1, c2, c3, trump)
                        rel |= trel
                        # the child's bound counts from the next trick: add this trick
                        bnd += (win >> ((ld + twi) & 3)) & 1
                    if val == maxi:
                        cut = WM[d, WI[d, C_I]]
                        if WI[d, C_I] > 0:
                            # [killer] (read at leads only): a refutation the order missed; a
                            # first move that cut leaves the killer as it was (bridge -6 to -9 %
                            # plays against replacing it at every cut)
                            WI[d, C_KILL + ld] = cut
                        if WI[d, C_PHASE] == 1:
                            probe_d = -1  # [probe] a probe proved the cut: probing is over
                    else:
                        WR[d] |= rel
                        WK[d, 2] = _note_wild(WK[d, 2], WM[d, WI[d, C_I]], rel)
                        # fail-soft: the node's bound is the best of its moves' bounds (a
                        # wildcard sibling skipped later shares the proof, and so the bound, of
                        # the move that made it wild)
                        if maxi:
                            if bnd > WI[d, C_ACC]:
                                WI[d, C_ACC] = bnd
                        elif bnd < WI[d, C_ACC]:
                            WI[d, C_ACC] = bnd
                        step = True
                if step:
                    # the next move: a move that fails like a sibling already searched is skipped
                    # (no search needed); a probed node first tries every move with a budget of
                    # card plays, then searches the deferred ones in full
                    ph = WI[d, C_PHASE]
                    idx = WI[d, C_I] + 1
                    if ph != 2:
                        while idx < n and _is_wild(WK[d, 2], WM[d, idx]):
                            idx += 1
                        if ph == 1:
                            if idx < n:
                                probe_stop = plays + PROBE_PLAYS
                            else:
                                # every move probed: the deferred ones now, in full
                                probe_d = -1
                                ph = 2
                                WI[d, C_PHASE] = 2
                                idx = 0
                    if ph == 2:
                        while idx < n and (not (WI[d, C_DEFER] >> idx) & 1
                                           or _is_wild(WK[d, 2], WM[d, idx])):
                            idx += 1
                    if idx < n:
                        WI[d, C_I] = idx
                        found = True
                        break
                    cut = -1
                    val = not maxi
                    bnd = WI[d, C_ACC]
                    # every move was needed: the answer also relies on the merged equal ranks
                    led = _suit(WI[d - k, C_CARD]) if k > 0 else -1
                    rel = _close_up(WR[d], WH[d, 0], WH[d, 1], WH[d, 2], WH[d, 3])
                    rel = _extend_runs(rel, _legal(WH[d, player], led))
                if k == 0:
                    # a trick-boundary node resolved by search: store what it proved
                    h0 = WH[d, 0]
                    h1 = WH[d, 1]
                    h2 = WH[d, 2]
                    h3 = WH[d, 3]
                    if full_keys:
                        rel = h0 | h1 | h2 | h3
                    else:
                        rel = _close_up(rel, h0, h1, h2, h3)
                    if mode == MODE_EXACT:
                        stg = WI[d, C_TG]
                    else:
                        # fail-soft: store the bound proved, which may be stronger than the
                        # question asked (``_tt_store`` records "at least stg" / "below stg")
                        stg = bnd if val else bnd + 1
                    _tt_store(table, gen, WK[d, 0], WK[d, 1], h1 | h3, h2 | h3,
                              rel, WI[d, C_R], plays - WI[d, C_PLAYS],
                              mode == MODE_EXACT, val, stg, cut)
            h0 = WH[d, 0]
            h1 = WH[d, 1]
            h2 = WH[d, 2]
            h3 = WH[d, 3]
            k = WI[d, C_K]
            ld = WI[d, C_LD]
            tg = WI[d, C_TG]
        # ---------------------------------------------------------------- play move idx at d
        player = (ld + k) & 3
        c = WM[d, idx]
        WI[d, C_CARD] = c
        plays += 1
        if plays >= stop:  # (a search started at or past the stop gives up at its first play)
            stats[ST_PLAYS] = plays
            return UNSOLVED
        b = _bit(c)
        if player == 0:
            h0 ^= b
        elif player == 1:
            h1 ^= b
        elif player == 2:
            h2 ^= b
        else:
            h3 ^= b
        if k == 3:
            c0 = WI[d - 3, C_CARD]
            c1 = WI[d - 2, C_CARD]
            c2 = WI[d - 1, C_CARD]
            wi, _ = _trick(c0, c1, c2, c, trump)
            wseat = (ld + wi) & 3
            h0, h1, h2, h3 = _squeeze_trick(h0, h1, h2, h3, c0, c1, c2, c)
            WK[d + 1, 0] = _sig_after(WK[d - 3, 0], ld, c0, c1, c2, c)
            WI[d + 1, C_K] = 0
            WI[d + 1, C_LD] = wseat
            WI[d + 1, C_TG] = tg - ((win >> wseat) & 1)
        else:
            WI[d + 1, C_K] = k + 1
            WI[d + 1, C_LD] = ld
            WI[d + 1, C_TG] = tg
        WH[d + 1, 0] = h0
        WH[d + 1, 1] = h1
        WH[d + 1, 2] = h2
        WH[d + 1, 3] = h3
        d += 1


@numba.njit(**NJIT)
def new_workspace():
    """The search's workspace: one row per depth (see ``_search``), allocated once per batch."""
    return (
        np.zeros((MAX_DEPTH, 4), np.uint64),  # hands by depth
        np.zeros((MAX_DEPTH, N_COLS), np.int64),  # integer columns by depth
        np.zeros((MAX_DEPTH, MOVE_SLOTS), np.int64),  # ordered candidate moves by depth
        np.zeros(MOVE_SLOTS, np.int64),  # move scores (scratch)
        np.zeros(MAX_DEPTH, np.uint64),  # relevance gathered by depth
        np.zeros((MAX_DEPTH, 3), np.uint64),  # table key (lengths, meta), wildcard thresholds
    )


def new_tables(tt_bits: int = 20):
    """One thread's search state: its transposition table (``table.new_table``, ``2**tt_bits``
    entries) and its stats array (slots ``ST_*``)."""
    return new_table(tt_bits), np.zeros(N_STATS, np.int64)
