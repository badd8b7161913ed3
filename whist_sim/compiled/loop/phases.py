"""The one deal loop of the compiled engine: the rules of a deal as a phase machine.

This module is the only text of the rules in the compiled engine (RULES §1-6, docs/ENGINE.md §3).
A deal is the state arrays of :mod:`whist_sim.compiled.ground.layout` (``st``, ``hm``), the rules
``rp``
and the random stream ``rng``; ``st[S_PHASE]`` says where it stands::

    begin_deal, deal_cards -> PH_AUCTION <-> PH_FRISCH -> PH_CONTRACTS -> PH_PLAY -> PH_SCORE
                                   \\-> PH_DONE (thrown in)                           -> PH_DONE

* **Legal choices** (:func:`legal_calls`, :func:`legal_contracts`, :func:`legal_cards`) are
  computed here and handed to the strategies, which choose within them.
* **Transitions** (:func:`apply_call`, :func:`apply_frisch`, :func:`apply_contract`,
  :func:`apply_card`, :func:`score`) move the state by one decision and advance the phase.
* **The loop** (the shared loop's C functions of :mod:`whist_sim.compiled.entry.deal`, which
  inline it, :func:`steps_inlined`; :func:`run_base`, the loop as a function of its own) asks
  the seat to act (``st[S_TURN]``) for its decision, applies it, and goes on until the phase
  ``until`` is reached. In an audited run (``AUDITED``, which the tests run every strategy
  through) it first checks the answer against the legal choices: an illegal one stops the loop
  and raises :class:`IllegalDecision`, with the seat and the answer in ``st[S_BAD_SEAT]`` /
  ``st[S_BAD_VALUE]``. The checks are compiled out of the other modes (they cost 5-10 % of the
  deal rate).

Because the state is complete, the loop starts from any point: a fresh deal, the middle of an
auction, fixed earlier contracts, the middle of a trick. Everything that plays a deal goes through
it: batch simulation, the advisor and the bid charts, tournaments, and the strategies that search.
A caller that wants to force a decision (a candidate contract, a card) applies it with the
``apply_*`` function and then runs the loop.

**One loop.** The loop is compiled once for the unaudited runs (``BASE``) and once for the
audited ones (``AUDITED``), each inlined into a C function that its callers call through
its address (:mod:`whist_sim.compiled.loop.shared`,
:mod:`whist_sim.compiled.entry.deal`). Its decision points reach the searching strategies through
the loop table (:mod:`whist_sim.compiled.ground.addresses`), each a C function compiled on its
own, and the searches play their sampled deals in the same loop, through its address
(:func:`~whist_sim.compiled.loop.shared.run_base_at`): no compiled function calls itself, and
the loop's code holds no search.

**Speed** (docs/ENGINE.md §3). The calls of an auction round and the cards of the play run as
inner loops that keep the seat, and in the play the trick so far, in registers: the state in
``st`` is still written before every decision, but not read back. When every seat plays the same
small policy (``random``, ``heuristic``) the unaudited loop plays in a copy compiled for that
policy alone (:func:`play_phase`).
The trick's winner is updated without a branch where no policy reads it (:func:`beats_mask`,
random play: who wins is unpredictable) and with a branch where one does (the next decision then
starts before the winner is known).
"""

from __future__ import annotations

import numpy as np
from numba.extending import overload

from ...core.rules import MAX_REDEALS
from ..ground._numba import jit
from ..ground.bits import SUIT_MASK, SUIT_OF, ZERO, bit, popcount
from ..ground.layout import (
    H_DEALT,
    H_FRISCH,
    H_HAND,
    H_PLAYED,
    H_START,
    H_TRICK,
    PH_AUCTION,
    PH_CONTRACTS,
    PH_DONE,
    PH_FRISCH,
    PH_ILLEGAL,
    PH_PLAY,
    PH_SCORE,
    R_BID_ORDER,
    R_CALLS_RUN,
    R_DIR,
    R_FIRST_MIN,
    R_FRISCH,
    R_HAND,
    R_LOW_STRAIN,
    R_MAX_FRISCH,
    R_MAXLEVEL,
    R_NTRICKS,
    R_ONE_RANDOM,
    R_PASS_FINAL,
    R_PLAYERS,
    R_RAISES,
    R_REDEAL,
    S_BAD_SEAT,
    S_BAD_VALUE,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_BIDSUM,
    S_CALLS,
    S_CONTRACT,
    S_DEAL,
    S_DEALER,
    S_DECLARER,
    S_FIRST,
    S_FLOOR,
    S_HIGH,
    S_HIGH_SEAT,
    S_LEADER,
    S_LED,
    S_LEVEL,
    S_MINLEVEL,
    S_NCALLS,
    S_NCHOSEN,
    S_NCONTRACTS,
    S_NFRISCH,
    S_NPASS,
    S_NPLAYS,
    S_OVER,
    S_PASSED,
    S_PHASE,
    S_PLAYS,
    S_POS,
    S_REDEALS,
    S_REMOVED,
    S_SCORE,
    S_THROWN,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
    S_TURN,
    S_VOIDS,
    call_floor,
    contract_score,
)
from ..ground.rng import GOLDEN, S32, mix64
from ..strategies.dispatch import (
    AUDITED_TYPE,
    OVERLOAD_OPTIONS,
    audits,
    choose_call,
    choose_card_of,
    choose_contract,
    choose_frisch,
    one_play_policy,
)
from ..strategies.registry import PLAY_HEURISTIC, PLAY_RANDOM


class IllegalDecision(Exception):
    """A strategy answered a decision with a choice the rules do not allow."""


# ---------------------------------------------------------------- the start of a deal


@jit
def begin_deal(st, hm, rp, deal, dealer):
    """Reset the state for deal index ``deal`` dealt by ``dealer``: the auction is next (§3.2).

    The hands are dealt afterwards (:func:`deal_cards`, or fixed hands written by the caller).
    """
    p = rp[R_PLAYERS]
    st[S_DEAL] = deal
    st[S_DEALER] = dealer
    st[S_FIRST] = (dealer + 1) % p
    st[S_MINLEVEL] = rp[R_FIRST_MIN]
    st[S_NFRISCH] = 0
    st[S_THROWN] = 0
    st[S_NCALLS] = 0
    st[S_DECLARER] = -1
    st[S_TRUMP] = -1
    st[S_LEVEL] = 0
    st[S_REMOVED] = -1
    st[S_BIDSUM] = -1
    st[S_OVER] = 0
    st[S_NCONTRACTS] = 0
    st[S_TRICK] = 0
    st[S_LEADER] = -1
    st[S_POS] = 0
    st[S_LED] = -1
    st[S_BEST_CARD] = -1
    st[S_BEST_SEAT] = -1
    st[S_NPLAYS] = 0
    st[S_BAD_SEAT] = -1
    st[S_BAD_VALUE] = -1
    st[S_VOIDS] = 0
    st[S_REDEALS] = 0
    for s in range(p):
        st[S_CONTRACT + s] = -1
        st[S_TRICKS + s] = 0
        st[S_SCORE + s] = 0
    hm[H_TRICK] = ZERO
    hm[H_PLAYED] = ZERO
    _new_round(st)


@jit
def deal_cards(st, hm, rp, deck, work, rng):
    """Shuffle ``deck`` (card codes, ascending) with Fisher-Yates into ``work`` and deal (§3.1).

    Seat ``s`` gets ``work[s*H:(s+1)*H]``; with the one_random deck ``work[51]`` is removed.
    """
    n = deck.shape[0]
    for j in range(n):
        work[j] = deck[j]
    state = rng[0]  # a local copy of the stream state: no store / reload per draw
    for j in range(n - 1, 0, -1):
        state += GOLDEN
        k = np.int64(((mix64(state) >> S32) * np.uint64(j + 1)) >> S32)  # rng.below(j + 1)
        t = work[j]
        work[j] = work[k]
        work[k] = t
    rng[0] = state
    p = rp[R_PLAYERS]
    h = rp[R_HAND]
    for s in range(p):
        m = ZERO
        for i in range(s * h, (s + 1) * h):
            m |= bit(work[i])
        hm[H_DEALT + s] = m
        hm[H_HAND + s] = m
    if rp[R_ONE_RANDOM] != 0:
        st[S_REMOVED] = work[n - 1]


@jit(inline="always")
def redeal_due(st, rp):
    """True when the deal was thrown in by four passes after the last Frisch and the rules say
    the same dealer deals again (``after_third_frisch=redeal``, RULES §3), at most
    ``MAX_REDEALS`` times (a guard against strategies that never bid: then it stays thrown in)."""
    return (rp[R_REDEAL] != 0 and st[S_THROWN] != 0 and st[S_NFRISCH] >= rp[R_MAX_FRISCH]
            and st[S_REDEALS] < MAX_REDEALS)


@jit
def redeal(st, hm, rp, deck, work, rng):
    """Cancel the round and deal again (RULES §3, ``after_third_frisch=redeal``): the same dealer
    and deal index, the next shuffle of the deal's random stream; ``S_REDEALS`` counts it."""
    n = st[S_REDEALS] + 1
    begin_deal(st, hm, rp, st[S_DEAL], st[S_DEALER])
    st[S_REDEALS] = n
    deal_cards(st, hm, rp, deck, work, rng)


@jit
def begin_contracts(st, hm, rp, deal, declarer, trump, level):
    """Reset the state for a deal that starts at the contract phase (§3.4).

    The auction is taken as over: ``declarer`` won it in strain ``trump`` at ``level`` (the dealer
    is set to the declarer's right, so the declarer was the first caller). The hands are written
    afterwards (``H_DEALT``, ``H_HAND`` and ``H_START`` of every seat).
    """
    p = rp[R_PLAYERS]
    begin_deal(st, hm, rp, deal, (declarer + p - 1) % p)
    _won(st, declarer, 5 * level + trump)


# ---------------------------------------------------------------- auction and Frisch (§3.2-3.3)


@jit(inline="always")
def _new_round(st):
    """A new auction round, called first by the first caller."""
    st[S_PHASE] = PH_AUCTION
    st[S_HIGH] = 0
    st[S_HIGH_SEAT] = -1
    st[S_PASSED] = 0
    st[S_NPASS] = 0
    st[S_TURN] = st[S_FIRST]


@jit(inline="always")
def _won(st, declarer, call):
    """The auction is won by ``declarer`` with ``call``: the contracts are next, declarer first."""
    st[S_DECLARER] = declarer
    st[S_LEVEL] = call // 5
    st[S_TRUMP] = call % 5
    st[S_PHASE] = PH_CONTRACTS
    st[S_NCONTRACTS] = 0
    st[S_BIDSUM] = 0
    st[S_TURN] = declarer


@jit(inline="always")
def legal_calls(st, rp, seat):
    """``(lo, hi)``: the lowest and highest bid code ``seat`` may bid (no bid when ``hi < lo``);
    ``seat`` may always pass. The lowest legal level in strain ``t`` (``max_level + 1`` when
    none) is :func:`~whist_sim.compiled.ground.layout.call_floor` of ``(lo, hi)``: a bid ``(n, t)``
    is legal exactly when ``call_floor(st, rp, lo, hi, t) <= n <= max_level``. When the legal bids
    are not one run of codes, this writes the levels to ``st[S_FLOOR + t]`` for it to read.

    A bid must beat the highest bid of the round (RULES §2): with ``bid_order=number`` a larger
    ``n``, or the same ``n`` in a higher strain (then every code in ``lo..hi`` is legal); with
    ``bid_order=suit`` a higher strain at any level, or the same strain with a larger ``n``. It
    must be at least the minimum level; clubs are no bid without clubs in the deck (RULES §8);
    with ``pass_is_final`` a seat that passed in this round may only pass.
    """
    top = rp[R_MAXLEVEL]
    none = top + 1
    minl = st[S_MINLEVEL]
    high = st[S_HIGH]
    closed = rp[R_PASS_FINAL] != 0 and (st[S_PASSED] >> seat) & 1
    if rp[R_CALLS_RUN] != 0:  # bid_order=number, every strain: the legal bids are one run
        lo = high + 1
        if lo < 5 * minl:
            lo = 5 * minl
        hi = -1 if closed else 5 * top + 4
        return lo, hi  # the levels: call_floor computes them from lo
    by_suit = rp[R_BID_ORDER] != 0
    lo = 5 * none + 5
    hi = -1
    for t in range(5):
        if closed or t < rp[R_LOW_STRAIN]:
            f = none
        elif high == 0:
            f = minl
        elif by_suit:
            hs = high % 5
            if t > hs:
                f = minl
            elif t == hs:
                f = high // 5 + 1
            else:
                f = none
        else:
            f = (high - t + 5) // 5  # the smallest n with 5 * n + t > high
        if f < minl:
            f = minl
        if f > top:
            f = none
        st[S_FLOOR + t] = f
        if f <= top:
            c = 5 * f + t
            if c < lo:
                lo = c
            hi = 5 * top + t
    return lo, hi


@jit(inline="always")
def call_is_legal(st, rp, call, lo, hi):
    """True when ``call`` is a pass or a legal bid (after :func:`legal_calls` of the seat)."""
    return call == 0 or (lo <= call <= hi and call // 5 >= call_floor(st, rp, lo, hi, call % 5))


@jit(inline="always")
def apply_call(st, hm, rp, seat, call):
    """``seat`` (whose turn it is) calls ``call`` (legal); ends the round when it is over.

    A round ends when a bid is followed by ``P - 1`` passes (the contracts are next), or with ``P``
    passes and no bid (a Frisch is next, or the deal is thrown in). Returns True when the round
    ended (else the next seat calls: the loop keeps it in a register).
    """
    p = rp[R_PLAYERS]
    n = st[S_NCALLS]
    st[S_CALLS + n] = call
    st[S_NCALLS] = n + 1
    if call == 0:
        passes = st[S_NPASS] + 1
        st[S_NPASS] = passes
        st[S_PASSED] |= 1 << seat
        if st[S_HIGH] == 0:  # every call of the round was a pass
            if passes == p:
                _no_bid(st, hm, rp)
                return True
        elif passes == p - 1:
            for s in range(p):
                hm[H_START + s] = hm[H_HAND + s]
            _won(st, st[S_HIGH_SEAT], st[S_HIGH])
            return True
    else:
        st[S_HIGH] = call
        st[S_HIGH_SEAT] = seat
        st[S_NPASS] = 0
    st[S_TURN] = seat + 1 if seat + 1 < p else 0
    return False


@jit(inline="always")
def _no_bid(st, hm, rp):
    """A round of passes: Frisch number ``S_NFRISCH`` is next, or the deal is thrown in."""
    if rp[R_FRISCH] == 0 or st[S_NFRISCH] >= rp[R_MAX_FRISCH]:
        st[S_THROWN] = 1
        st[S_PHASE] = PH_DONE
        for s in range(rp[R_PLAYERS]):
            hm[H_START + s] = hm[H_HAND + s]
        return
    st[S_PHASE] = PH_FRISCH
    st[S_NCHOSEN] = 0
    st[S_TURN] = st[S_FIRST]


@jit(inline="always")
def legal_frisch(hm, seat, cards):
    """True when ``cards`` are three cards of ``seat``'s hand."""
    return popcount(cards) == 3 and (cards & ~hm[H_HAND + seat]) == ZERO


@jit(inline="always")
def apply_frisch(st, hm, rp, seat, cards):
    """``seat`` chooses the three ``cards`` it passes (§3.3).

    Seats choose in calling order from their own hands; after the last choice every seat's cards
    move at once (to the seat ``direction_offset(f)`` places on), the minimum level rises if
    ``frisch_raises_minimum``, and a new auction round starts.
    """
    p = rp[R_PLAYERS]
    f = st[S_NFRISCH]
    hm[H_FRISCH + 4 * f + seat] = cards
    k = st[S_NCHOSEN] + 1
    st[S_NCHOSEN] = k
    if k < p:
        st[S_TURN] = seat + 1 if seat + 1 < p else 0
        return
    for s in range(p):
        hm[H_HAND + s] &= ~hm[H_FRISCH + 4 * f + s]
    off = rp[R_DIR + f]
    for s in range(p):
        hm[H_HAND + (s + off) % p] |= hm[H_FRISCH + 4 * f + s]
    st[S_NFRISCH] = f + 1
    if rp[R_RAISES] != 0:
        st[S_MINLEVEL] += 1
    _new_round(st)


# ---------------------------------------------------------------- contracts (§3.4)


@jit(inline="always")
def legal_contracts(st, rp):
    """``(lo, forbidden)`` for the bidder to act: contracts ``lo..N`` except ``forbidden``.

    The declarer (first bidder) bids at least the auction level, the others at least 0; the last
    bidder may not make the sum ``N`` (``forbidden = N - sum of the others``, else ``-1``).
    """
    pos = st[S_NCONTRACTS]
    lo = st[S_LEVEL] if pos == 0 else 0
    forbidden = rp[R_NTRICKS] - st[S_BIDSUM] if pos == rp[R_PLAYERS] - 1 else -1
    return lo, forbidden


@jit(inline="always")
def apply_contract(st, rp, seat, contract):
    """``seat`` (whose turn it is) bids ``contract`` (legal); after the last, the play starts."""
    p = rp[R_PLAYERS]
    st[S_CONTRACT + seat] = contract
    total = st[S_BIDSUM] + contract
    st[S_BIDSUM] = total
    pos = st[S_NCONTRACTS] + 1
    st[S_NCONTRACTS] = pos
    if pos < p:
        st[S_TURN] = seat + 1 if seat + 1 < p else 0
        return
    st[S_OVER] = 1 if total > rp[R_NTRICKS] else 0
    st[S_PHASE] = PH_PLAY
    st[S_TRICK] = 0
    st[S_LEADER] = st[S_DECLARER]
    st[S_POS] = 0
    st[S_LED] = -1
    st[S_BEST_CARD] = -1
    st[S_BEST_SEAT] = -1
    st[S_TURN] = st[S_DECLARER]


@jit(inline="always")
def restart_contracts(st, rp):
    """Take back every contract bid so far: the contract phase starts again, declarer first."""
    for s in range(rp[R_PLAYERS]):
        st[S_CONTRACT + s] = -1
    st[S_PHASE] = PH_CONTRACTS
    st[S_NCONTRACTS] = 0
    st[S_BIDSUM] = 0
    st[S_TURN] = st[S_DECLARER]


# ---------------------------------------------------------------- play (§3.5) and score (§3.6)


@jit(inline="always")
def legal_cards(st, hm, seat):
    """Mask of the cards ``seat`` may play: the led suit if it holds any, else the whole hand."""
    hand = hm[H_HAND + seat]
    if st[S_POS] == 0:
        return hand
    return _following(hand, st[S_LED])


@jit(inline="always")
def _following(hand, led):
    """The cards of ``hand`` that may follow to a trick led in suit ``led``: that suit if the
    hand holds any, else the whole hand (RULES §5)."""
    follow = hand & SUIT_MASK[led]
    return follow if follow != ZERO else hand


@jit(inline="always")
def _put(st, hm, seat, card, hand):
    """``seat``, holding ``hand``, puts ``card`` on the trick: out of the hand, into the trick
    and the record of plays."""
    cb = bit(card)
    hm[H_HAND + seat] = hand ^ cb
    hm[H_TRICK] |= cb
    n = st[S_NPLAYS]
    st[S_PLAYS + n] = card
    st[S_NPLAYS] = n + 1


@jit(inline="always")
def _show_void(st, seat, card, led):
    """A card off the led suit shows the seat void in it (public from now on). Branch-free: a
    failure to follow is unpredictable."""
    st[S_VOIDS] |= np.int64(SUIT_OF[card] != led) << (4 * seat + led)


@jit(inline="always")
def beats(card, best, trump):
    """True when ``card`` beats ``best``, the card winning the trick so far: a higher card of
    its suit, or a trump on a card that is not a trump (RULES §5)."""
    cs = SUIT_OF[card]
    bs = SUIT_OF[best]
    return ((cs == bs) & (card > best)) | ((cs == trump) & (bs != trump))


@jit(inline="always")
def beats_mask(card, best, trump):
    """:func:`beats` as a mask: -1 when ``card`` beats ``best``, else 0, from sign bits (no
    comparison the compiler could turn into a branch: who wins a trick is unpredictable)."""
    cs = np.int64(SUIT_OF[card])
    bs = np.int64(SUIT_OF[best])
    same = (cs ^ bs) - 1  # negative exactly when the suits are equal
    higher = best - card  # negative exactly when card is higher
    ruff = (cs ^ trump) - 1  # negative exactly when card is a trump
    not_trump = ~((bs ^ trump) - 1)  # negative exactly when best is not a trump
    return ((same & higher) | (ruff & not_trump)) >> 63


@jit(inline="always")
def _show_trick(st, seat, pos, led, best, best_seat):
    """The trick so far as ``seat``, to play at position ``pos``, sees it."""
    st[S_POS] = pos
    st[S_LED] = led
    st[S_BEST_CARD] = best
    st[S_BEST_SEAT] = best_seat
    st[S_TURN] = seat


@jit(inline="always")
def _trick_won(st, hm, rp, winner):
    """The trick is full: ``winner`` takes it and leads the next. Returns True after the last
    trick (the deal is scored next)."""
    st[S_TRICKS + winner] += 1
    hm[H_PLAYED] |= hm[H_TRICK]
    hm[H_TRICK] = ZERO
    t = st[S_TRICK] + 1
    st[S_TRICK] = t
    st[S_LEADER] = winner
    _show_trick(st, winner, 0, -1, -1, -1)
    if t == rp[R_NTRICKS]:
        st[S_PHASE] = PH_SCORE
        return True
    return False


@jit(inline="always")
def apply_card(st, hm, rp, seat, card):
    """``seat`` (whose turn it is) plays ``card`` (legal); completes the trick when it is full.

    The trick is won by the highest trump, else the highest card of the led suit
    (:func:`beats`); its winner leads the next. After the last trick the deal is scored next.
    Returns the seat to play next.
    """
    p = rp[R_PLAYERS]
    pos = st[S_POS]
    _put(st, hm, seat, card, hm[H_HAND + seat])
    if pos == 0:
        led = SUIT_OF[card]
        best = card
        best_seat = seat
    else:
        led = st[S_LED]
        best = st[S_BEST_CARD]
        best_seat = st[S_BEST_SEAT]
        _show_void(st, seat, card, led)
        if beats(card, best, st[S_TRUMP]):
            best = card
            best_seat = seat
    if pos < p - 1:
        nxt = seat + 1 if seat + 1 < p else 0
        _show_trick(st, nxt, pos + 1, led, best, best_seat)
        return nxt
    _trick_won(st, hm, rp, best_seat)
    return best_seat


@jit(inline="always")
def score(st, rp):
    """Scores of the deal (RULES §6) into ``S_SCORE + seat``; the deal is done."""
    p = rp[R_PLAYERS]
    over = st[S_OVER] != 0
    for s in range(p):
        st[S_SCORE + s] = contract_score(st[S_CONTRACT + s], st[S_TRICKS + s], over, rp)
    st[S_PHASE] = PH_DONE


# ---------------------------------------------------------------- the loop


@jit(inline="always")
def _illegal(st, seat, value):
    """Record an illegal answer and end the loop (it raises after the loop, out of the hot path:
    a raise inside the loop costs about a tenth of the deal rate)."""
    st[S_BAD_SEAT] = seat
    st[S_BAD_VALUE] = value
    st[S_PHASE] = PH_ILLEGAL


@jit(inline="always")
def _play(mode, only, st, hm, rp, pol, par, rng, seat):
    """The cards of the play from the seat to act to the last trick (the loop's play phase).

    The transitions of :func:`apply_card` from the same parts, with the trick so far (position,
    suit led, winning card and seat) kept in registers rather than reloaded from ``st``, and
    the lead apart from the other cards, so that a policy inlined at each of the two calls is
    compiled knowing which it plays. ``only``: a constant, the play policy of every seat
    (:func:`~whist_sim.compiled.strategies.dispatch.choose_card_of`), or -1 for any seating.

    In the general copy ``st`` shows every decision the same state as :func:`apply_card` would.
    The copies' policies read the trick from the registers they are passed, so a copy does not
    write the trick so far (position, suit led, winning card and seat, turn) before each card:
    the completed trick resets those slots, and the play ends in the same state as the general
    copy's (tested from every point of the play).
    """
    p = rp[R_PLAYERS]
    trump = st[S_TRUMP]
    pos = st[S_POS]
    led = st[S_LED]
    best = st[S_BEST_CARD]
    best_seat = st[S_BEST_SEAT]
    while True:  # tricks
        if pos == 0:  # the lead
            hand = hm[H_HAND + seat]
            c = choose_card_of(mode, only, pol, par, st, hm, rp, seat, rng,
                               (hand, hand, np.int64(0), np.int64(-1), np.int64(-1), trump))
            if audits(mode, st) and (np.uint64(c) > np.uint64(51) or (hand & bit(c)) == ZERO):
                _illegal(st, seat, c)
                return
            _put(st, hm, seat, c, hand)
            led = SUIT_OF[c]
            best = c
            best_seat = seat
            pos = 1
            seat = seat + 1 if seat + 1 < p else 0
            if only < 0:
                _show_trick(st, seat, 1, led, best, best_seat)
        while True:  # the other cards of the trick
            hand = hm[H_HAND + seat]
            legal = _following(hand, led)
            c = choose_card_of(mode, only, pol, par, st, hm, rp, seat, rng,
                               (legal, hand, pos, led, best, trump))
            if audits(mode, st) and (np.uint64(c) > np.uint64(51) or (legal & bit(c)) == ZERO):
                _illegal(st, seat, c)
                return
            _put(st, hm, seat, c, hand)
            _show_void(st, seat, c, led)
            if only == PLAY_RANDOM:  # no data dependence on the winner: no branch on it
                m = beats_mask(c, best, trump)
                best ^= (best ^ c) & m
                best_seat ^= (best_seat ^ seat) & m
            elif beats(c, best, trump):  # a policy reads the winner: a predicted branch lets
                best = c  # the next decision start before the winner is known
                best_seat = seat
            if pos == p - 1:
                break
            pos += 1
            seat = seat + 1 if seat + 1 < p else 0
            if only < 0:
                _show_trick(st, seat, pos, led, best, best_seat)
        if _trick_won(st, hm, rp, best_seat):
            return
        seat = best_seat
        pos = 0


def play_phase(mode, st, hm, rp, pol, par, rng, seat):
    """The play phase of the loop (compiled only): :func:`_play` in a copy for the policy that
    every seat plays, when it has one (``random``, ``heuristic``), else in the general copy. The
    audited loop (``AUDITED``, the tests') plays the general copy alone, which checks every card.
    An overload, so that the audited loop does not compile the copies: numba inlines ``_play``
    at every call site, and each costs compile time.
    """
    raise NotImplementedError("compiled only")


@overload(play_phase, jit_options=OVERLOAD_OPTIONS)
def _play_phase(mode, st, hm, rp, pol, par, rng, seat):
    if mode == AUDITED_TYPE:
        def general(mode, st, hm, rp, pol, par, rng, seat):
            _play(mode, -1, st, hm, rp, pol, par, rng, seat)
        return general

    def copies(mode, st, hm, rp, pol, par, rng, seat):
        only = one_play_policy(pol, rp)
        if only == PLAY_RANDOM:
            _play(mode, PLAY_RANDOM, st, hm, rp, pol, par, rng, seat)
        elif only == PLAY_HEURISTIC:
            _play(mode, PLAY_HEURISTIC, st, hm, rp, pol, par, rng, seat)
        else:
            _play(mode, -1, st, hm, rp, pol, par, rng, seat)
    return copies


def _steps(mode, st, hm, rp, pol, par, rng, until):
    """Play the deal from its current phase until ``st[S_PHASE] >= until`` (PH_DONE: to the end).

    ``mode``: :data:`~whist_sim.compiled.strategies.dispatch.BASE`, ``FULL`` or ``AUDITED`` (which
    strategies can decide, and whether their answers are checked). ``pol`` (``int64[2, P]``: row
    0 the bidding strategy id of each seat, row 1 the play policy id) and ``par``
    (``float64[2, P, N_PARAMS]``) are the seating. A strategy's illegal answer (the audited mode)
    stops the loop with ``st[S_PHASE] == PH_ILLEGAL``; the callers raise (:func:`run_base`), or
    their callers (the loop shared through its address, :mod:`whist_sim.compiled.entry.deal`)."""
    n_tricks = rp[R_NTRICKS]
    p = rp[R_PLAYERS]
    while st[S_PHASE] < until:
        phase = st[S_PHASE]
        seat = st[S_TURN]
        if phase == PH_PLAY:
            play_phase(mode, st, hm, rp, pol, par, rng, seat)
        elif phase == PH_AUCTION:
            while True:  # the calls of one round
                lo, hi = legal_calls(st, rp, seat)
                c = choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng)
                if audits(mode, st) and not call_is_legal(st, rp, c, lo, hi):
                    _illegal(st, seat, c)
                    break
                if apply_call(st, hm, rp, seat, c):
                    break
                seat = seat + 1 if seat + 1 < p else 0
        elif phase == PH_FRISCH:
            cards = choose_frisch(mode, pol, par, st, hm, rp, seat, rng)
            if audits(mode, st) and not legal_frisch(hm, seat, cards):
                _illegal(st, seat, np.int64(cards))
                break
            apply_frisch(st, hm, rp, seat, cards)
        elif phase == PH_CONTRACTS:
            lo, forbidden = legal_contracts(st, rp)
            c = choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng)
            if audits(mode, st) and (c < lo or c > n_tricks or c == forbidden):
                _illegal(st, seat, c)
                break
            apply_contract(st, rp, seat, c)
        elif phase == PH_SCORE:
            score(st, rp)
        else:
            break


#: the loop as a function of its own, for :func:`run_base` (compiled only when that is called:
#: the engine's callers reach the loop through its C function's address)
steps_base = jit(_steps)
#: the loop inlined into its caller: the shared loop's C functions
#: (:mod:`whist_sim.compiled.entry.deal`), so that its code is generated once, in theirs
steps_inlined = jit(inline="always")(_steps)


def _run_base(mode, st, hm, rp, pol, par, rng, until):
    """:func:`_steps` in the base loop (``mode`` ``BASE``); raises :class:`IllegalDecision` when
    the loop stopped on an illegal answer."""
    steps_base(mode, st, hm, rp, pol, par, rng, until)
    if st[S_PHASE] == PH_ILLEGAL:
        raise IllegalDecision("a strategy gave an illegal answer")


#: the loop called directly rather than through its address (``BASE``: the strategies that do not
#: search)
run_base = jit(_run_base)
