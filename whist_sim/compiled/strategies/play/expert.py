"""The compiled ``expert`` play policy (docs/ENGINE.md §6). It makes no random draws.

A rule-based player that counts the cards. It plays for the exact contract: while the contract
needs tricks it wins them as cheaply and as surely as it can (draws trumps with the length, cashes
masters before they can be ruffed, leads from a sequence or its longest suit); once it has its
tricks (or as a zero bidder) it sheds its most dangerous cards on tricks it cannot win, under-ruffs,
and leads cards that others can beat; once its contract is lost it plays against the others'
(lets tricks go to a zero bidder on zero or a player who has its tricks, takes them from a player
who needs them).

Every legal card gets an integer *key* from suit-blind features only (trump or not, rank, lengths,
the cards still out, the voids shown); the card with the largest key is played. Cards of different
suits with equal keys are told apart by the suit's picture (:func:`_suit_pattern`); only two suits
the seat cannot tell apart at all fall back to the lowest card code. Features, all from what
the seat may know:

* ``out``: the cards still out (the deck, less the cards played, in the current trick, in hand);
* ``higher``: the cards of the card's suit still out above it (0: the card is a master);
* the voids shown in the play (``st[S_VOIDS]``, kept by the deal loop);
* ``sure``: the card wins the trick whatever the players after it hold, as far as the seat can
  tell (no one after it can follow with a higher card or ruff / over-ruff it);
* ``wins``: the card beats the trick's best card now (every card at the lead).

docs/ENGINE.md §6 states the keys; the reference engine's ``expert_key`` computes them card by
card. Here the keys are computed per suit (:func:`_suit_choice`): the same card, at 3x the speed.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...ground._numba import jit
from ...ground.bits import ALL_ONES, ONE, SUIT_MASK, SUIT_OF, ZERO, ctz, highest_bit, popcount
from ...ground.layout import (
    H_HAND,
    H_PLAYED,
    H_TRICK,
    R_DECK_MASK,
    R_NTRICKS,
    R_PLAYERS,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_CONTRACT,
    S_LED,
    S_NPLAYS,
    S_POS,
    S_TRICKS,
    S_TRUMP,
    S_VOIDS,
)


@jit(inline="always")
def _later_bits(voids, seat, p, pos, trump, trumps_out):
    """``(follow, ruff)`` suit bit sets for the players after ``seat`` in the trick.

    ``follow``: suits that some later player may still hold (not known void); ``ruff``: side
    suits in which some later player is known void while it may hold a trump (trumps are out and
    it has not shown a void in trumps). Branch-free over the seats: the voids (4 bits a seat) are
    rotated so that the next seat comes first, and the later seats' nibbles are folded."""
    k = p - 1 - pos  # players after the seat in this trick
    if k <= 0:
        return 0, 0
    if voids == 0:  # nobody has shown a void: the later players may follow anything
        return 15, 0
    w = 4 * p
    sh = 4 * (seat + 1)  # the next seat's nibble, rotated (no division in the hot path)
    if sh >= w:
        sh -= w
    rot = ((voids >> sh) | (voids << (w - sh))) & ((1 << w) - 1)
    km = (1 << (4 * k)) - 1
    later = rot & km
    x = later | (0xFFFF & ~km)  # the other nibbles all ones: neutral for the AND
    follow = ~(x & (x >> 4) & (x >> 8) & (x >> 12)) & 15
    ruff = 0
    if trump < 4 and trumps_out > 0:
        may_ruff = (~(later >> trump) & 0x1111 & km) * 15  # nibbles of seats not void in trumps
        c = later & may_ruff
        ruff = (c | (c >> 4) | (c >> 8) | (c >> 12)) & 15 & ~(1 << trump)
    return follow, ruff


@jit(inline="always")
def _wants(st, rp, seat, pos):
    """Does ``seat`` want the trick in progress (docs/ENGINE.md §6)?

    While its contract can still be made exactly (``0 <= need <= tricks left``) it wants a trick
    when it needs one. Once it is lost, it plays against the others when it follows: it lets the
    trick go to a zero bidder still on zero or to a player who has its tricks, and takes it from
    a player who needs it and can still make it; otherwise (and at the lead) it wants a trick
    only while it is short."""
    p = rp[R_PLAYERS]
    need = st[S_CONTRACT + seat] - st[S_TRICKS + seat]
    # cards left in the hands of the trick's start = p * tricks left (no division in the hot path)
    if pos == 0 or 0 <= need * p <= rp[R_NTRICKS] * p - st[S_NPLAYS] + pos:
        return need > 0
    left = rp[R_NTRICKS] - (st[S_NPLAYS] - pos) // p
    w = st[S_BEST_SEAT]
    cw = st[S_CONTRACT + w]
    nw = cw - st[S_TRICKS + w]
    if cw == 0:
        if nw == 0:
            return False  # break the zero
        return need > 0
    if nw <= 0:
        return False  # one more trick for a player who has its tricks
    if nw <= left:
        return True  # one trick less for a player who needs them
    return need > 0


class Situation(NamedTuple):
    """What every suit's key reads at one decision of ``expert``: the seat's ``hand``, the cards
    ``out`` it cannot see (uint64 masks), its position ``pos`` in the trick, the led suit
    ``lead_suit``, the trick's ``best`` card so far, ``trump`` (4: no trump), the trumps out
    ``trumps_out``, the later players' ``follow`` / ``ruff`` bits (:func:`_later_bits`) and
    whether it wants the trick, ``want`` (:func:`_wants`)."""

    hand: np.uint64
    out: np.uint64
    pos: np.int64
    lead_suit: np.int64
    best: np.int64
    trump: np.int64
    trumps_out: np.int64
    follow: np.int64
    ruff: np.int64
    want: bool


@jit(forceinline=True)
def _suit_choice(s, m, sit):
    """``(card, key)``: the card of the legal cards ``m`` of suit ``s`` with the largest key
    (docs/ENGINE.md §6; the reference engine's ``expert_key`` states each key card by card), in
    the :class:`Situation` ``sit``.

    The keys fall in disjoint bands (5000s, 4000s, ...), and inside a band a key moves with the
    rank alone, one way. So the best card of a suit is the lowest or the highest card of its best
    non-empty band, found with bit operations, and only its key is computed."""
    hand, out, pos, lead_suit, best, trump, trumps_out, follow, ruff, want = sit
    o = out & SUIT_MASK[s]
    if o == ZERO:
        masters = m
    else:
        masters = m & (ALL_ONES << np.uint64(highest_bit(o) + 1))
    f = (follow >> s) & 1 == 1
    rf = (ruff >> s) & 1 == 1
    t13 = 13 if s == trump else 0
    base = 13 * s
    if pos == 0:
        if not want:  # the lowest: the most cards out above it, the least danger
            c = ctz(m)
            if m == masters:
                return c, 1000 - (c - base + t13)  # a master wins: the last resort
            higher = popcount(o & (ALL_ONES << np.uint64(c + 1)))
            return c, 2000 + 16 * higher - (c - base + t13)
        sure = ZERO if rf else (masters if f else m)
        if sure != ZERO:
            if t13 != 0 and masters != ZERO:
                if 0 < trumps_out < popcount(hand & SUIT_MASK[s]):
                    c = highest_bit(masters)
                    return c, 5000 + c - base  # draw trumps with a master
            c = ctz(sure)
            return c, 4000 + 16 * popcount(o) + 13 - (c - base)  # cash a sure winner
        hs = hand & SUIT_MASK[s]
        n_s = popcount(hs)
        if t13 == 0 and n_s <= 2 and trumps_out > 0 and popcount(hand & SUIT_MASK[trump]) > 0:
            c = ctz(m)  # shorten a short side suit while it holds trumps: ruff it later
            return c, 3500 - 16 * n_s - (c - base)
        tops = m & ~masters & (hs << ONE) & ~(hs >> ONE)  # tops of a sequence, not masters
        if tops != ZERO:
            c = highest_bit(tops)
            return c, 3000 + 16 * n_s + c - base
        c = ctz(m)
        if t13 == 0:
            return c, 2000 + 16 * n_s - (c - base)  # low from the longest side suit
        return c, 1000 - (c - base)
    bs = SUIT_OF[best]
    if s == bs:
        wins = m & (ALL_ONES << np.uint64(best + 1))
    elif t13 != 0:
        wins = m
    else:
        wins = ZERO
    if wins == ZERO:
        sure = ZERO
    elif s == lead_suit:
        sure = ZERO if rf else (wins & masters if f else wins)
    else:  # a ruff: over-ruffed only by a higher trump of a later player void in the led suit
        sure = wins & masters if (ruff >> lead_suit) & 1 == 1 else wins
    lose = m & ~wins
    if want:
        if sure != ZERO:
            c = ctz(sure)
            return c, 4000 - (c - base + t13)  # the cheapest sure winner
        if wins != ZERO:
            c = highest_bit(wins)
            if lose == ZERO or o == ZERO or c > highest_bit(o):
                return c, 3000 + (c - base + t13)  # the best chance
            # a higher card is still out: keep the winner, play low (second hand low)
        my_len = popcount(hand & SUIT_MASK[s])
        if lose & ~masters != ZERO:  # a low card, keeping the masters
            c = ctz(lose & ~masters)
            return c, 2000 - 16 * (c - base + t13) - my_len
        c = ctz(lose)
        return c, 2000 - 16 * (c - base + t13 + 13) - my_len
    if lose != ZERO:  # the most dangerous safe loser
        c = highest_bit(lose)
        return c, 4000 + 16 * (c - base + t13) + popcount(hand & SUIT_MASK[s])
    if wins & ~sure != ZERO:  # may still be overtaken: the lowest
        c = ctz(wins & ~sure)
        return c, 3000 - (c - base + t13)
    c = highest_bit(sure)  # it wins anyway: shed the most dangerous
    return c, 2000 + (c - base + t13)


@jit
def expert_card(st, hm, rp, seat, legal, rng):
    """``expert`` card of ``seat``: the legal card with the largest key, then the largest
    :func:`_suit_pattern`, then the lowest card code.

    Not inlined into the deal loop (a call per card): inlined, its size slows the loop of every
    other policy by a tenth. A single legal card is played at once, a single legal suit needs no
    key; otherwise one key per suit (:func:`_suit_choice`), and the suit pictures only when two
    suits' keys tie. Two keys beat every other suit's, so their card is played without the
    others' keys (the same card, sooner): drawing trumps at the lead (5000s against at most
    4221) and a ruff that can win the trick while the seat wants it (3000s and 4000s against
    side cards' at most 2000)."""
    if legal & (legal - ONE) == ZERO:
        return ctz(legal)
    p = rp[R_PLAYERS]
    hand = hm[H_HAND + seat]
    out = np.uint64(rp[R_DECK_MASK]) & ~(hm[H_PLAYED] | hm[H_TRICK] | hand)
    pos = st[S_POS]
    trump = st[S_TRUMP]
    trumps_out = popcount(out & SUIT_MASK[trump]) if trump < 4 else 0
    voids = st[S_VOIDS]
    follow, ruff = _later_bits(voids, seat, p, pos, trump, trumps_out)
    lead_suit = st[S_LED]
    best = st[S_BEST_CARD]
    want = _wants(st, rp, seat, pos)
    sit = Situation(hand, out, pos, lead_suit, best, trump, trumps_out, follow, ruff, want)
    ls = SUIT_OF[ctz(legal)]
    if legal & ~SUIT_MASK[ls] == ZERO:  # one suit (following, mostly): its best card
        return _suit_choice(ls, legal, sit)[0]
    if pos == 0 and want and trumps_out > 0:  # drawing trumps (key 5000+) beats every other key
        held = popcount(hand & SUIT_MASK[trump])
        if trumps_out < held:
            top = legal & SUIT_MASK[trump] & (
                ALL_ONES << np.uint64(highest_bit(out & SUIT_MASK[trump]) + 1))
            if top != ZERO:
                return highest_bit(top)
    if pos > 0 and want and trump < 4 and legal & SUIT_MASK[lead_suit] == ZERO:
        tm = legal & SUIT_MASK[trump]  # void in the led suit: a ruff that can win (key 3000+)
        if tm != ZERO:  # beats every side card (keys up to 2000)
            c, k = _suit_choice(trump, tm, sit)
            if k >= 3000:
                return c
    best_card = -1
    best_key = -1
    best_pat = np.int64(-1)  # the best card's suit picture, once computed
    for s in range(4):
        m = legal & SUIT_MASK[s]
        if m == ZERO:
            continue
        c, k = _suit_choice(s, m, sit)
        if k > best_key:
            best_key = k
            best_card = c
            best_pat = -1
        elif k == best_key:
            if best_pat < 0:
                best_pat = _suit_pattern(SUIT_OF[best_card], hand, out, voids, seat, p)
            pat = _suit_pattern(s, hand, out, voids, seat, p)
            if pat > best_pat:
                best_card = c
                best_pat = pat
    return best_card


@jit(inline="always")
def _suit_pattern(s, hand, out, voids, seat, p):
    """Tie-break of two keys (cards of different suits): the suit's picture as the seat sees it,
    ``mine << 19 | out << 6 | voids``: its own ranks, the ranks still out (13 bits each), and
    which of the seats after it have shown a void there (bit ``k - 1`` for the ``k``-th seat
    on). Equal only for two suits the seat cannot tell apart."""
    mine = np.int64((hand >> np.uint64(13 * s)) & np.uint64(0x1FFF))
    outs = np.int64((out >> np.uint64(13 * s)) & np.uint64(0x1FFF))
    v = 0
    o = seat
    for k in range(1, p):
        o = o + 1 if o + 1 < p else 0
        v |= ((voids >> (4 * o + s)) & 1) << (k - 1)
    return (mine << 19) | (outs << 6) | v


# ---------------------------------------------------------------- its decision (the registry's)


@jit(inline="always")
def expert_decide_card(st, hm, rp, seat, legal, rng, par):
    """:func:`expert_card` as the registry's ``card`` (the signature of the decision points,
    whist_sim.core.registry.Decisions; numba inlines it into the generated dispatch)."""
    return expert_card(st, hm, rp, seat, legal, rng)
