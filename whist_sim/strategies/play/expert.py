"""The compiled ``expert`` play policy (docs/ENGINE.md §6). It makes no random draws.

A rule-based player that counts the cards. It plays for the exact contract: while the contract
needs tricks it wins them as cheaply and as surely as it can (draws trumps with the length, cashes
masters before they can be ruffed, leads from a sequence or its longest suit); once it has its
tricks (or as a zero bidder) it sheds its most dangerous cards on tricks it cannot win, under-ruffs,
and leads cards that others can beat.

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

The exact keys are in :func:`expert_key`; docs/ENGINE.md §6 states them in prose, and the
reference engine's ``expert_policy`` computes the same keys.
"""

from __future__ import annotations

import numpy as np

from ...kernels._numba import jit
from ...kernels.bits import ALL_ONES, ONE, SUIT_MASK, SUIT_OF, ZERO, ctz, popcount
from ...kernels.layout import (
    H_HAND,
    H_PLAYED,
    H_TRICK,
    R_DECK_MASK,
    R_PLAYERS,
    S_BEST_CARD,
    S_CONTRACT,
    S_LED,
    S_POS,
    S_TRICKS,
    S_TRUMP,
    S_VOIDS,
)


@jit(inline="always")
def _above(card):
    """Mask of the cards of ``card``'s suit above it."""
    return (ALL_ONES << np.uint64(card + 1)) & SUIT_MASK[SUIT_OF[card]]


@jit(inline="always")
def _later_bits(voids, seat, p, pos, trump, trumps_out):
    """``(follow, ruff)`` suit bit sets for the players after ``seat`` in the trick.

    ``follow``: suits that some later player may still hold (not known void); ``ruff``: side
    suits in which some later player is known void while it may hold a trump (trumps are out and
    it has not shown a void in trumps).
    """
    follow = 0
    ruff = 0
    o = seat
    for _ in range(pos + 1, p):
        o = o + 1 if o + 1 < p else 0
        v = (voids >> (4 * o)) & 15
        follow |= ~v & 15
        if trump < 4 and trumps_out > 0 and (v >> trump) & 1 == 0:
            ruff |= v & ~(1 << trump)
    return follow, ruff


@jit(inline="always")
def expert_key(card, hand, out, pos, lead_suit, best, trump, trumps_out, follow, ruff, want):
    """The key of ``card`` (larger is better; see docs/ENGINE.md §6).

    ``hand``: the seat's hand; ``out``: the cards still out; ``pos``: the seat's position in the
    trick (0 leads); ``lead_suit`` / ``best``: the suit led and the card winning so far (-1 at the
    lead); ``trump``: 0..3, 4 = NT; ``trumps_out``: trumps still out; ``follow`` / ``ruff``: the
    suit bits of :func:`_later_bits`; ``want``: the contract needs tricks.
    """
    s = SUIT_OF[card]
    r = card - 13 * s
    is_trump = 1 if s == trump else 0
    higher = popcount(out & _above(card))
    my_len = popcount(hand & SUIT_MASK[s])
    # does the card win now, and surely?
    if pos == 0:
        wins = True
        led = s
    else:
        bs = SUIT_OF[best]
        wins = (s == bs and card > best) or (s == trump and bs != trump)
        led = lead_suit
    if not wins:
        sure = False
    elif s == led:  # following (or leading): beaten by a higher card of the suit, or a ruff
        sure = not ((higher > 0 and (follow >> s) & 1 == 1) or (ruff >> s) & 1 == 1)
    else:  # a ruff: over-ruffed by a later player void in the led suit with a higher trump
        sure = not (higher > 0 and (ruff >> led) & 1 == 1)
    danger = r + 13 * is_trump
    if want:
        if pos == 0:
            my_trumps = popcount(hand & SUIT_MASK[trump]) if trump < 4 else 0
            if is_trump == 1 and higher == 0 and 0 < trumps_out < my_trumps:
                return 5000 + r  # draw trumps with a master while holding the length
            if sure:
                suit_out = popcount(out & SUIT_MASK[s])
                return 4000 + 16 * suit_out + (13 - r)  # cash a master nobody can ruff
            if higher > 0 and r > 0 and ((hand >> np.uint64(card - 1)) & ONE) == ONE and (
                    r == 12 or ((hand >> np.uint64(card + 1)) & ONE) == ZERO):
                return 3000 + 16 * my_len + r  # the top of a sequence drives out higher cards
            if is_trump == 0:
                return 2000 + 16 * my_len - r  # low from the longest side suit
            return 1000 - r
        if sure:
            return 4000 - danger  # the cheapest sure winner
        if wins:
            return 3000 + danger  # the best chance: the highest card that wins now
        # cannot win: keep the winners and the trumps, throw a low card from a short suit
        master = 1 if higher == 0 else 0
        return 2000 - 16 * (danger + 13 * master) - my_len
    # the contract has its tricks (or is over): lose this trick, shed danger
    if pos == 0:
        if higher == 0:
            return 1000 - danger  # a master wins: the last resort
        return 2000 + 16 * higher - danger
    if not wins:
        return 4000 + 16 * danger + my_len  # a safe loser: the most dangerous one
    if not sure:
        return 3000 - danger  # may still be overtaken: the lowest
    return 2000 + danger  # it wins anyway: shed the most dangerous


@jit
def expert_card(st, hm, rp, seat, legal, rng):
    """``expert`` card of ``seat``: the legal card with the largest :func:`expert_key`.

    Not inlined into the deal loop (a call per card): inlined, its size slows the loop of every
    other policy by a tenth."""
    p = rp[R_PLAYERS]
    hand = hm[H_HAND + seat]
    out = np.uint64(rp[R_DECK_MASK]) & ~(hm[H_PLAYED] | hm[H_TRICK] | hand)
    pos = st[S_POS]
    trump = st[S_TRUMP]
    trumps_out = popcount(out & SUIT_MASK[trump]) if trump < 4 else 0
    follow, ruff = _later_bits(st[S_VOIDS], seat, p, pos, trump, trumps_out)
    lead_suit = st[S_LED]
    best = st[S_BEST_CARD]
    want = st[S_CONTRACT + seat] - st[S_TRICKS + seat] > 0
    voids = st[S_VOIDS]
    best_card = -1
    best_key = np.int64(-1)
    x = legal
    while x != ZERO:
        c = ctz(x)
        x &= x - ONE
        k = expert_key(c, hand, out, pos, lead_suit, best, trump, trumps_out, follow, ruff, want)
        k = (k << 45) | _suit_pattern(SUIT_OF[c], hand, out, voids, seat, p)
        if k > best_key:
            best_key = k
            best_card = c
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
