"""The compiled ``heuristic`` bidding strategy (docs/ENGINE.md §5). It makes no random draws.

Hand estimates are integers in quarter tricks (``est_q``); ``est = min((est_q + 2) // 4, N)``.
The bidding side caches ``est_q`` of all five strains per seat in the seat's bid scratch
(``st[S_SCRATCH + SCRATCH_PER_SEAT * seat + 0..4]``, with the best strain in ``+ 5``), keyed by
the hand in ``hm[H_SCRATCH + SCRATCH_PER_SEAT * seat]``: the estimate depends on the hand only,
and a hand is looked at by several auction calls and the contract.
"""

from __future__ import annotations

import numpy as np

from ...ground._numba import jit
from ...ground.bits import ZERO, bit, ctz, popcount
from ...ground.layout import (
    H_HAND,
    H_SCRATCH,
    R_DECK_ADJ_Q,
    R_LOW_STRAIN,
    R_MAXLEVEL,
    R_NTRICKS,
    R_PLAYERS,
    S_SCRATCH,
    S_TRUMP,
    SCRATCH_PER_SEAT,
    call_floor,
    every_strain_open,
    run_floor,
)

SUIT_BITS = np.uint64(0x1FFF)
#: the slot of the estimate cache after the five estimates (``st[base + CACHE_BEST]``,
#: :func:`cached_q`): the best strain (:func:`_best_strain`)
CACHE_BEST = 5
#: the strategies' default ``nt_hcp``: 0 = the deck's own minimum (:func:`nt_minimum`)
NT_HCP = 0
#: the NT rule's high-card minimum with four players: below it NT lost points against never
#: bidding NT in a 1,000,000-deal duplicate tournament (docs/STRATEGIES.md)
NT_HCP_FOUR = 20
#: the same with three players, where NT gains most at 14 (docs/STRATEGIES.md)
NT_HCP_THREE = 14
#: the most cards an NT hand may hold: hands of 17 cards (the one_random deck) all hold long
#: suits, and NT lost points there at every ``nt_hcp`` tried (docs/STRATEGIES.md)
NT_MAX_CARDS = 13
#: the longest suit an NT hand may hold (balanced: 4333, 4432, 5332 with four players)
NT_MAX_LENGTH = 5


# ---------------------------------------------------------------------------- estimates


def _suit_table() -> np.ndarray:
    """Per 13-bit suit pattern: length | honour q << 5 | trump extra q << 10 | NT extra q << 16 |
    ruff value q << 21 | stopper << 25 | high-card points << 26 (ENGINE.md §5), so that an
    estimate is four table look-ups. A stopper: the A, the K with two cards or more, the Q with
    three or more, or the J with four or more."""
    out = np.zeros(1 << 13, dtype=np.int32)
    for sb in range(1 << 13):
        n = sb.bit_count()
        h = 4 * (sb >> 12 & 1)
        if sb >> 11 & 1:
            h += 3 if n >= 2 else 1
        if sb >> 10 & 1 and n >= 3:
            h += 2
        tx = (1 if sb >> 9 & 1 and n >= 4 else 0) + (4 * (n - 3) if n > 3 else 0)
        ntx = 2 * (n - 4) if n > 4 else 0
        ruff = {0: 8, 1: 4, 2: 2}.get(n, 0)
        a, k, q, j = (sb >> 12 & 1, sb >> 11 & 1, sb >> 10 & 1, sb >> 9 & 1)
        stop = int(bool(a or (k and n >= 2) or (q and n >= 3) or (j and n >= 4)))
        hcp = 4 * a + 3 * k + 2 * q + j
        out[sb] = n | h << 5 | tx << 10 | ntx << 16 | ruff << 21 | stop << 25 | hcp << 26
    return out


SUIT_TABLE = _suit_table()


@jit(inline="always")
def _suit_parts(v):
    """(length, honour q, trump extra q, NT extra q, ruff value q) of a suit's table entry."""
    return v & 31, (v >> 5) & 31, (v >> 10) & 63, (v >> 16) & 31, (v >> 21) & 15


@jit(inline="always")
def _suit_code(hand, s):
    """The :data:`SUIT_TABLE` entry of suit ``s`` of ``hand``."""
    return np.int64(SUIT_TABLE[np.int64((hand >> np.uint64(13 * s)) & SUIT_BITS)])


@jit(inline="always")
def _nt_suits(v0, v1, v2, v3, no_clubs, nt_hcp):
    """:func:`nt_hand` from the table entries of the four suits; without a branch on the cards
    (whether a hand is an NT hand is unpredictable; its suits are read for the estimate anyway).
    """
    v0 = np.int64(0) if no_clubs else v0  # a deck without clubs: the suit does not count
    n0 = v0 & 31
    n1 = v1 & 31
    n2 = v2 & 31
    n3 = v3 & 31
    # a suit that qualifies: 2..NT_MAX_LENGTH cards and a stopper (clubs when out of the deck)
    ok0 = no_clubs | ((n0 >= 2) & (n0 <= NT_MAX_LENGTH) & ((v0 >> 25) & 1 == 1))
    ok1 = (n1 >= 2) & (n1 <= NT_MAX_LENGTH) & ((v1 >> 25) & 1 == 1)
    ok2 = (n2 >= 2) & (n2 <= NT_MAX_LENGTH) & ((v2 >> 25) & 1 == 1)
    ok3 = (n3 >= 2) & (n3 <= NT_MAX_LENGTH) & ((v3 >> 25) & 1 == 1)
    doubletons = (np.int64(n0 == 2) + np.int64(n1 == 2) + np.int64(n2 == 2)
                  + np.int64(n3 == 2))
    hcp = ((v0 >> 26) & 15) + ((v1 >> 26) & 15) + ((v2 >> 26) & 15) + ((v3 >> 26) & 15)
    cards = n0 + n1 + n2 + n3
    return (ok0 & ok1 & ok2 & ok3 & (doubletons <= 1) & (hcp >= nt_hcp)
            & (cards <= NT_MAX_CARDS) & (nt_hcp >= 0))


@jit(inline="always")
def nt_hand(hand, low_suit, nt_hcp):
    """1 if ``hand`` is an NT hand (ENGINE.md §5): in every suit of the deck (suits
    ``low_suit..3``) two to ``NT_MAX_LENGTH`` cards and a stopper, at most one doubleton, at least
    ``nt_hcp`` high-card points (A=4, K=3, Q=2, J=1), and at most ``NT_MAX_CARDS`` cards (the
    ``one_random`` deck's 17-card hands never); always 0 when ``nt_hcp < 0`` (no NT rule). Blind
    to the names of the suits. (A deck without clubs has none in any hand.)"""
    return np.int64(_nt_suits(_suit_code(hand, 0), _suit_code(hand, 1), _suit_code(hand, 2),
                              _suit_code(hand, 3), low_suit != 0, nt_hcp))


@jit(inline="always")
def nt_minimum(nt_hcp, players):
    """The NT rule's high-card minimum for a deal of ``players``: ``nt_hcp``, or when it is 0
    the deck's default (:data:`NT_HCP_FOUR` with four players, :data:`NT_HCP_THREE` with three);
    negative (no NT rule) stays negative."""
    if nt_hcp != 0:
        return nt_hcp
    return NT_HCP_FOUR if players == 4 else NT_HCP_THREE


@jit(inline="always")
def nt_rule(par, seat, j):
    """The NT rule of the seat's bidding row: ``nt_hcp`` (``par[0, seat, j + 1]``) when its
    ``nt`` switch (``par[0, seat, j]``) is on, else -1 (no NT rule)."""
    if par[0, seat, j] == 0.0:
        return np.int64(-1)
    return np.int64(par[0, seat, j + 1])


@jit(forceinline=True)
def _est_q(hand, no_clubs, adj, nt_hcp):
    """``est_q`` of the five strains; ``no_clubs``: clubs give no ruffing value and need no
    stopper (a deck without clubs); ``adj``: quarter tricks added to every strain; ``nt_hcp``:
    the NT rule's high-card minimum (:func:`nt_hand`; negative: no NT rule)."""
    v0 = _suit_code(hand, 0)
    v1 = _suit_code(hand, 1)
    v2 = _suit_code(hand, 2)
    v3 = _suit_code(hand, 3)
    n0, h0, t0, x0, r0 = _suit_parts(v0)
    n1, h1, t1, x1, r1 = _suit_parts(v1)
    n2, h2, t2, x2, r2 = _suit_parts(v2)
    n3, h3, t3, x3, r3 = _suit_parts(v3)
    if no_clubs:
        r0 = 0
    hon = h0 + h1 + h2 + h3 + adj
    rsum = r0 + r1 + r2 + r3
    q0 = hon + t0 + _ruff(n0, rsum - r0)
    q1 = hon + t1 + _ruff(n1, rsum - r1)
    q2 = hon + t2 + _ruff(n2, rsum - r2)
    q3 = hon + t3 + _ruff(n3, rsum - r3)
    q4 = hon + x0 + x1 + x2 + x3
    if nt_hcp >= 0 and _nt_suits(v0, v1, v2, v3, no_clubs, nt_hcp):  # a branch on the rule
        q4 = max(q4, q0, q1, q2, q3)
    return q0, q1, q2, q3, q4


@jit
def est_q_all(hand, nt_hcp=NT_HCP):
    """``est_q(hand, t)`` for t = C, D, H, S, NT (a 5-tuple of quarter tricks), ENGINE.md §5,
    for the four-player deck; ``nt_hcp``: the NT rule's high-card minimum (0: the deck's,
    :func:`nt_minimum`; negative: none)."""
    return _est_q(hand, False, 0, nt_minimum(nt_hcp, 4))


@jit(inline="always")
def deck_adjust_q(rp):
    """Quarter tricks the deck of the rules adds to every estimate (ENGINE.md §5): its share
    ``4 * (N - 13) // P`` of the tricks it has more (or fewer) than the four-player deal
    (``rp[R_DECK_ADJ_Q]``, computed once by ``rules_array``: no division per estimate)."""
    return rp[R_DECK_ADJ_Q]


@jit
def est_q_deck(hand, rp, nt_hcp=NT_HCP):
    """``est_q`` of the five strains for the deck of the rules ``rp`` (ENGINE.md §5): a deck
    without clubs (``no_suit``) gives no ruffing value for the void in clubs every hand has, and
    every strain gets :func:`deck_adjust_q`; ``nt_hcp``: the NT rule's high-card minimum
    (0: the deck's, :func:`nt_minimum`; negative: none). The four-player deck: :func:`est_q_all`."""
    return _est_q(hand, rp[R_LOW_STRAIN] != 0, deck_adjust_q(rp),
                  nt_minimum(nt_hcp, rp[R_PLAYERS]))


@jit(inline="always")
def _strain_q(q, strain):
    """The entry ``strain`` (4 = NT) of a five-strain estimate tuple."""
    if strain == 0:
        return q[0]
    if strain == 1:
        return q[1]
    if strain == 2:
        return q[2]
    if strain == 3:
        return q[3]
    return q[4]


@jit
def est_q_in(hand, strain, rp, nt_hcp=NT_HCP):
    """:func:`est_q_deck` of one strain (4 = NT)."""
    return _strain_q(est_q_deck(hand, rp, nt_hcp), strain)


@jit(inline="always")
def _ruff(trumps, value):
    if trumps < 1:
        return 0
    cap = 4 * (trumps - 1)
    return value if value < cap else cap


@jit
def est_q(hand, strain, nt_hcp=NT_HCP):
    """Quarter-trick estimate of ``hand`` with ``strain`` as trump (4 = NT)."""
    return _strain_q(est_q_all(hand, nt_hcp), strain)


@jit(inline="always")
def est_from_q(q, n_tricks):
    """Tricks from quarter tricks: ``min((q + 2) // 4, n_tricks)``."""
    e = (q + 2) // 4
    return e if e < n_tricks else n_tricks


@jit(forceinline=True)
def cached_q(st, hm, rp, seat, nt_hcp):
    """Fill the seat's estimate cache for its current hand; return the cache's base slot
    (``st[base + t]``: :func:`est_q_deck` of strain ``t``). The cache key is the hand (bits
    0..51) with ``nt_hcp + 1`` in its top byte, so that a seat read with another NT rule (a
    montecarlo rollout's heuristic) does not take a stale estimate. The shaded strategies
    (``cautious``, ``aggressive``) read the same estimates through it."""
    base = S_SCRATCH + SCRATCH_PER_SEAT * seat
    hand = hm[H_HAND + seat]
    key = H_SCRATCH + SCRATCH_PER_SEAT * seat
    tagged = hand | (np.uint64(nt_hcp + 1) << np.uint64(56))
    if hm[key] != tagged:
        q = est_q_deck(hand, rp, nt_hcp)
        st[base] = q[0]
        st[base + 1] = q[1]
        st[base + 2] = q[2]
        st[base + 3] = q[3]
        st[base + 4] = q[4]
        st[base + CACHE_BEST] = _best_strain(q, rp[R_NTRICKS])
        hm[key] = tagged
    return base


@jit(inline="always")
def argmax_strain(est):
    """``(strain, estimate)``: the strain with the largest ``est`` (a 5-tuple, strains C, D, H,
    S, NT), ties to the higher strain. Written with selects, not branches: which strain is best
    is unpredictable."""
    best = 0
    best_est = est[0]
    for t in range(1, 5):
        e = est[t]
        up = e >= best_est
        best = t if up else best
        best_est = e if up else best_est
    return best, best_est


@jit(forceinline=True)
def _best_strain(q, n_tricks):
    """The strain with the largest estimate in tricks (ties: the higher strain), from the five
    quarter-trick estimates ``q``."""
    return argmax_strain((est_from_q(q[0], n_tricks), est_from_q(q[1], n_tricks),
                          est_from_q(q[2], n_tricks), est_from_q(q[3], n_tricks),
                          est_from_q(q[4], n_tricks)))[0]


# ---------------------------------------------------------------------------- bidding


@jit
def best_bid(st, hm, rp, seat, lo, hi, nt_hcp):
    """``(base, best, n)``: the seat's estimate cache slot (:func:`cached_q`), the strain with
    the largest estimate in tricks among the strains with a legal bid now (ties: the higher
    strain; -1 when no strain has one) and its lowest legal level ``n`` (``call_floor`` of
    ``lo..hi``). When every strain has a legal bid (most calls) the best strain is the cache's.
    The heuristic and the shaded strategies bid this strain at this level or pass."""
    base = cached_q(st, hm, rp, seat, nt_hcp)
    if every_strain_open(rp, lo, hi):
        best = st[base + CACHE_BEST]
        return base, best, run_floor(lo, best)
    n_tricks = rp[R_NTRICKS]
    top = rp[R_MAXLEVEL]
    best = -1
    best_est = -1
    for t in range(5):
        if call_floor(st, rp, lo, hi, t) <= top:
            e = est_from_q(st[base + t], n_tricks)
            if e >= best_est:
                best_est = e
                best = t
    n = call_floor(st, rp, lo, hi, best) if best >= 0 else top + 1
    return base, best, n


@jit
def heuristic_call(st, hm, rp, seat, lo, hi, nt_hcp):
    """Auction: bid the best strain at its lowest legal level if the estimate reaches it.

    The best strain is the one with the largest estimate among the strains with a legal bid now
    (ties: the higher strain); its lowest legal level is ``call_floor`` of ``lo..hi``
    (:func:`best_bid`). ``nt_hcp``: the NT rule's high-card minimum (:func:`nt_hand`; negative:
    the rule is off).
    """
    base, best, n = best_bid(st, hm, rp, seat, lo, hi, nt_hcp)
    if best >= 0 and n <= est_from_q(st[base + best], rp[R_NTRICKS]):
        return 5 * n + best
    return 0


@jit(inline="always")
def three_lowest(hand, length_major):
    """The three cards of ``hand`` with the smallest key ``rank * 64 + suit_length * 4 + suit``,
    or with ``length_major`` the key ``suit_length * 64 + rank * 4 + suit`` (suit lengths of
    ``hand``); returned as a ``uint64`` mask. Used by the Frisch choices of several strategies."""
    k1 = k2 = k3 = 1 << 30
    for s in range(4):
        sb = (hand >> np.uint64(13 * s)) & SUIT_BITS
        n = popcount(sb)
        for _ in range(3):  # the key grows with the rank inside a suit: 3 lowest cards suffice
            if sb == ZERO:
                break
            r = ctz(sb)
            sb &= sb - np.uint64(1)
            key = n * 64 + r * 4 + s if length_major else r * 64 + n * 4 + s
            if key < k3:
                if key < k2:
                    k3 = k2
                    if key < k1:
                        k2 = k1
                        k1 = key
                    else:
                        k2 = key
                else:
                    k3 = key
    out = ZERO
    for key in (k1, k2, k3):
        rank = (key >> 2) & 15 if length_major else key >> 6
        out |= bit(13 * (key & 3) + rank)
    return out


@jit
def heuristic_frisch(st, hm, rp, seat, rng):
    """Frisch: the three cards with the smallest ``rank * 64 + suit_length * 4 + suit``."""
    return three_lowest(hm[H_HAND + seat], False)


@jit
def heuristic_contract(st, hm, rp, seat, lo, forbidden, nt_hcp):
    """Contract: the estimate in trumps (0 for a weak non-declarer), off a forbidden number;
    ``nt_hcp`` as in :func:`heuristic_call`."""
    n_tricks = rp[R_NTRICKS]
    base = cached_q(st, hm, rp, seat, nt_hcp)
    q = st[base + st[S_TRUMP]]
    want = est_from_q(q, n_tricks)
    if lo == 0 and q < 4:
        want = 0
    if want < lo:
        want = lo
    if want == forbidden:
        if q >= 4 * want and want + 1 <= n_tricks:
            want += 1
        elif want - 1 < lo:
            want += 1
        else:
            want -= 1
    return want


# ---------------------------------------------------------------- its decisions (the registry's)
# In the signatures of the decision points (whist_sim.core.registry.Decisions); numba inlines
# them into the generated dispatch, so they cost nothing.


@jit(inline="always")
def heuristic_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """:func:`heuristic_call` with the seat's NT rule (its parameters from 0) as the
    registry's ``call``."""
    return heuristic_call(st, hm, rp, seat, lo, hi, nt_rule(par, seat, 0))


@jit(inline="always")
def heuristic_decide_frisch(st, hm, rp, seat, rng, par):
    """:func:`heuristic_frisch` as the registry's ``frisch`` (shared by most strategies of the
    heuristic's family)."""
    return heuristic_frisch(st, hm, rp, seat, rng)


@jit(inline="always")
def heuristic_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """:func:`heuristic_contract` with the seat's NT rule as the registry's ``contract``."""
    return heuristic_contract(st, hm, rp, seat, lo, forbidden, nt_rule(par, seat, 0))
