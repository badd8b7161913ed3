"""The compiled ``heuristic`` play policy (docs/ENGINE.md §5). It makes no random draws.

Card order for "highest" / "lowest" is ``rank * 4 + suit``. Winning "now" means beating the card
that wins the current trick so far (``st[S_BEST_CARD]``). The player wants tricks while its
contract needs more (``contract - tricks > 0``).
"""

from __future__ import annotations

import numpy as np

from ...ground._numba import jit
from ...ground.bits import ALL_ONES, SUIT_MASK, SUIT_OF, ZERO, clz, ctz, highest_bit
from ...ground.layout import (
    H_HAND,
    R_PLAYERS,
    S_BEST_CARD,
    S_CONTRACT,
    S_LED,
    S_POS,
    S_TRICKS,
    S_TRUMP,
)

SUIT_BITS = np.uint64(0x1FFF)
SENTINEL = np.uint64(1 << 13)  # ctz of an empty suit becomes 13: its key sorts after every card


@jit(inline="always")
def lowest_card(m):
    """Card of ``m`` (non-empty) with the smallest ``rank * 4 + suit`` (branch-free)."""
    k0 = ctz((m & SUIT_BITS) | SENTINEL) * 4
    k1 = ctz(((m >> np.uint64(13)) & SUIT_BITS) | SENTINEL) * 4 + 1
    k2 = ctz(((m >> np.uint64(26)) & SUIT_BITS) | SENTINEL) * 4 + 2
    k3 = ctz(((m >> np.uint64(39)) & SUIT_BITS) | SENTINEL) * 4 + 3
    k = min(min(k0, k1), min(k2, k3))
    return 13 * (k & 3) + (k >> 2)


@jit(inline="always")
def highest_card(m):
    """Card of ``m`` (non-empty) with the largest ``rank * 4 + suit`` (branch-free)."""
    # an empty suit has clz 64, so its key 4 * (63 - 64) + s is negative
    k0 = (63 - clz(m & SUIT_BITS)) * 4
    k1 = (63 - clz((m >> np.uint64(13)) & SUIT_BITS)) * 4 + 1
    k2 = (63 - clz((m >> np.uint64(26)) & SUIT_BITS)) * 4 + 2
    k3 = (63 - clz((m >> np.uint64(39)) & SUIT_BITS)) * 4 + 3
    k = max(max(k0, k1), max(k2, k3))
    return 13 * (k & 3) + (k >> 2)


@jit(inline="always")
def winning_now(m, best_card, trump):
    """The cards of ``m`` that would beat ``best_card`` (trump suit ``trump``, 4 = NT)."""
    bs = SUIT_OF[best_card]
    above = (ALL_ONES << np.uint64(best_card + 1)) & SUIT_MASK[bs]
    w = m & above
    if trump < 4 and bs != trump:
        w |= m & SUIT_MASK[trump]
    return w


@jit
def heuristic_card(st, hm, rp, seat, legal, rng):
    """Play: win cheaply while the contract needs tricks, else duck (ENGINE.md §5, Play).

    The trick so far as ``st`` shows it; the rule itself is :func:`heuristic_play`.
    """
    return heuristic_play(st, rp, seat, hm[H_HAND + seat], st[S_POS], st[S_LED],
                          st[S_BEST_CARD], st[S_TRUMP])


@jit(forceinline=True)
def heuristic_play(st, rp, seat, hand, pos, led, best, trump):
    """The card of ``seat`` holding ``hand``, to play at position ``pos`` of a trick led in suit
    ``led`` and won so far by card ``best`` (``led``, ``best``: -1 at the lead), trump ``trump``
    (4 = NT). The deal loop's play calls it with the trick from its registers. Compiled once and
    inlined by LLVM (``forceinline``) at each call: inlined by numba, its body was copied and
    typed again at every site of the loop.

    Written with selects rather than branches where the choice depends on the cards: a
    mispredicted branch costs more than computing both candidates.
    """
    wants = st[S_CONTRACT + seat] - st[S_TRICKS + seat] > 0
    if pos == 0:
        hi = highest_card(hand)
        lo = lowest_card(hand)
        return hi if wants else lo
    last = pos == rp[R_PLAYERS] - 1
    led_cards = hand & SUIT_MASK[led]
    if led_cards != ZERO:
        # following suit: one suit, so rank order is bit order
        w = winning_now(led_cards, best, trump)
        nw = led_cards & ~w
        has_w = w != ZERO
        has_nw = nw != ZERO
        target_w = w if has_w else led_cards
        target_n = nw if has_nw else led_cards
        target = target_w if wants else target_n
        high_w = has_w and not last
        high_n = has_nw or last
        high = high_w if wants else high_n
        top = highest_bit(target)
        bottom = ctz(target)
        return top if high else bottom
    # void in the led suit
    tm = SUIT_MASK[trump] if trump < 4 else ZERO
    trumps = hand & tm
    other = hand & ~tm
    tw = winning_now(trumps, best, trump) & tm
    if wants:
        if tw != ZERO:
            return ctz(tw)
        if other != ZERO:
            return lowest_card(other)
        return ctz(trumps)
    if other != ZERO:
        return highest_card(other)
    tnw = trumps & ~tw
    if tnw != ZERO:
        return highest_bit(tnw)
    return ctz(trumps)


# ---------------------------------------------------------------- its decision (the registry's)


@jit(inline="always")
def heuristic_decide_card(st, hm, rp, seat, legal, rng, par):
    """:func:`heuristic_card` as the registry's ``card`` (the signature of the decision points,
    whist_sim.core.registry.Decisions; numba inlines it into the generated dispatch)."""
    return heuristic_card(st, hm, rp, seat, legal, rng)
