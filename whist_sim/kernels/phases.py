"""The deal loop of the compiled engine, one function per phase (docs/ENGINE.md §3).

All phases work in place on the deal state (``st``, ``hm``; :mod:`whist_sim.kernels.layout`), the
rules array ``rp``, the random stream ``rng`` and the seating: ``pol`` (``int64[2, P]``: row 0 the
bidding strategy id of each seat, row 1 the play policy id) and ``par``
(``float64[2, P, N_PARAMS]``: the matching parameter rows). A full deal is::

    begin_deal -> deal_cards -> auction -> (unless thrown in) contracts -> play -> score

:func:`play_one` runs them all. Callers with other needs call the phases themselves: fixed hands
(write ``hm[H_DEALT + s]`` / ``hm[H_HAND + s]`` instead of :func:`deal_cards`), or counterfactual
contracts (snapshot ``st``, ``hm``, ``rng`` after :func:`auction`, set ``S_FORCE_SEAT`` /
``S_FORCE_VALUE``, then run contracts, play and score from each snapshot).
"""

from __future__ import annotations

import numpy as np

from ._numba import jit
from .bits import SUIT_MASK, SUIT_OF, ZERO, bit
from .layout import (
    H_DEALT,
    H_FRISCH,
    H_HAND,
    H_PLAYED,
    H_START,
    H_TRICK,
    R_DIR,
    R_FIRST_MIN,
    R_FRISCH,
    R_HAND,
    R_MADE_BONUS,
    R_MAX_FRISCH,
    R_MISS,
    R_NTRICKS,
    R_ONE_RANDOM,
    R_PLAYERS,
    R_RAISES,
    R_ZERO_FAIL_FIRST,
    R_ZERO_FAIL_REFUND,
    R_ZERO_OVER,
    R_ZERO_UNDER,
    S_BEST_CARD,
    S_BEST_SEAT,
    S_BIDSUM,
    S_CALLS,
    S_CONTRACT,
    S_DEAL,
    S_DEALER,
    S_DECLARER,
    S_FIRST,
    S_FORCE_SEAT,
    S_FORCE_VALUE,
    S_HIGH,
    S_HIGH_SEAT,
    S_LEADER,
    S_LED,
    S_LEVEL,
    S_MINLEVEL,
    S_NCALLS,
    S_NCONTRACTS,
    S_NFRISCH,
    S_NPLAYS,
    S_OVER,
    S_PASSED,
    S_PLAYS,
    S_POS,
    S_REMOVED,
    S_SCORE,
    S_THROWN,
    S_TRICK,
    S_TRICKS,
    S_TRUMP,
)
from .policies import choose_call, choose_card, choose_contract, choose_frisch
from .rng import GOLDEN, S32, mix64, stream_start_mixed


@jit
def begin_deal(st, hm, rp, deal, dealer):
    """Reset the per-deal fields of the state for deal index ``deal`` dealt by ``dealer``."""
    p = rp[R_PLAYERS]
    st[S_DEAL] = deal
    st[S_DEALER] = dealer
    st[S_FIRST] = (dealer + 1) % p
    st[S_HIGH] = 0
    st[S_HIGH_SEAT] = -1
    st[S_MINLEVEL] = rp[R_FIRST_MIN]
    st[S_PASSED] = 0
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
    st[S_FORCE_SEAT] = -1
    st[S_FORCE_VALUE] = -1
    for s in range(p):
        st[S_CONTRACT + s] = -1
        st[S_TRICKS + s] = 0
        st[S_SCORE + s] = 0
    hm[H_TRICK] = ZERO
    hm[H_PLAYED] = ZERO


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


@jit
def auction(st, hm, rp, pol, par, rng):
    """Trump auction rounds and Frisches (§3.2-3.3) until there is a declarer or a throw-in.

    Sets declarer, trump, level (or ``S_THROWN``), the calls, the Frisch passes, and the hands at
    the start of play (``H_START``).
    """
    p = rp[R_PLAYERS]
    first = st[S_FIRST]
    ncalls = st[S_NCALLS]
    while True:
        high = 0
        high_seat = -1
        passes = 0
        n_round = 0
        st[S_HIGH] = 0
        st[S_HIGH_SEAT] = -1
        st[S_PASSED] = 0
        seat = first
        while True:
            c = choose_call(pol, par, st, hm, rp, seat, rng)
            st[S_CALLS + ncalls] = c
            ncalls += 1
            st[S_NCALLS] = ncalls
            n_round += 1
            if c == 0:
                passes += 1
                st[S_PASSED] |= 1 << seat
                if high == 0:
                    if n_round == p:
                        break
                elif passes == p - 1:
                    break
            else:
                high = c
                high_seat = seat
                passes = 0
                st[S_HIGH] = c
                st[S_HIGH_SEAT] = seat
            seat += 1
            if seat == p:
                seat = 0
        if high > 0:
            st[S_DECLARER] = high_seat
            st[S_LEVEL] = high // 5
            st[S_TRUMP] = high % 5
            break
        nf = st[S_NFRISCH]
        if rp[R_FRISCH] == 0 or nf >= rp[R_MAX_FRISCH]:
            st[S_THROWN] = 1
            break
        frisch(st, hm, rp, pol, par, rng, nf)
        st[S_NFRISCH] = nf + 1
        if rp[R_RAISES] != 0:
            st[S_MINLEVEL] += 1
    for s in range(p):
        hm[H_START + s] = hm[H_HAND + s]


@jit
def frisch(st, hm, rp, pol, par, rng, f):
    """Frisch number ``f`` (0-based, §3.3): choose in calling order, then move all cards at once."""
    p = rp[R_PLAYERS]
    first = st[S_FIRST]
    for k in range(p):
        seat = (first + k) % p
        passed = choose_frisch(pol, par, st, hm, rp, seat, rng)
        hm[H_FRISCH + 4 * f + seat] = passed
    for s in range(p):
        hm[H_HAND + s] &= ~hm[H_FRISCH + 4 * f + s]
    off = rp[R_DIR + f]
    for s in range(p):
        hm[H_HAND + (s + off) % p] |= hm[H_FRISCH + 4 * f + s]


@jit
def contracts(st, hm, rp, pol, par, rng):
    """Contract bidding (§3.4): declarer first, clockwise; the last bidder is hooked."""
    p = rp[R_PLAYERS]
    n = rp[R_NTRICKS]
    decl = st[S_DECLARER]
    total = 0
    for pos in range(p):
        seat = (decl + pos) % p
        lo = st[S_LEVEL] if pos == 0 else 0
        forbidden = n - total if pos == p - 1 else -1
        st[S_NCONTRACTS] = pos
        if seat == st[S_FORCE_SEAT]:
            c = st[S_FORCE_VALUE]
        else:
            c = choose_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)
        st[S_CONTRACT + seat] = c
        total += c
    st[S_NCONTRACTS] = p
    st[S_BIDSUM] = total
    st[S_OVER] = 1 if total > n else 0


@jit(inline="always")
def _play_card(st, hm, rp, pol, par, rng, seat, pos, led, best, best_seat, nplays):
    """One card of the current trick: fill the trick fields, ask the policy, update the hand."""
    st[S_POS] = pos
    st[S_LED] = led
    st[S_BEST_CARD] = best
    st[S_BEST_SEAT] = best_seat
    hand = hm[H_HAND + seat]
    if pos == 0:
        legal = hand
    else:
        follow = hand & SUIT_MASK[led]
        legal = follow if follow != ZERO else hand
    c = choose_card(pol, par, st, hm, rp, seat, legal, rng)
    cb = bit(c)
    hm[H_HAND + seat] = hand ^ cb
    hm[H_TRICK] |= cb
    st[S_PLAYS + nplays] = c
    st[S_NPLAYS] = nplays + 1
    return c


@jit
def play(st, hm, rp, pol, par, rng):
    """The tricks (§3.5): declarer leads first, each trick's winner leads the next."""
    p = rp[R_PLAYERS]
    n = rp[R_NTRICKS]
    trump = st[S_TRUMP]
    leader = st[S_DECLARER]
    nplays = st[S_NPLAYS]
    for t in range(n):
        st[S_TRICK] = t
        st[S_LEADER] = leader
        c = _play_card(st, hm, rp, pol, par, rng, leader, 0, -1, -1, -1, nplays)
        nplays += 1
        led = SUIT_OF[c]
        best = c
        best_seat = leader
        seat = leader
        for pos in range(1, p):
            seat = seat + 1 if seat + 1 < p else 0
            c = _play_card(st, hm, rp, pol, par, rng, seat, pos, led, best, best_seat, nplays)
            nplays += 1
            cs = SUIT_OF[c]
            bs = SUIT_OF[best]
            beats = ((cs == bs) & (c > best)) | ((cs == trump) & (bs != trump))
            best = c if beats else best
            best_seat = seat if beats else best_seat
        st[S_TRICKS + best_seat] += 1
        hm[H_PLAYED] |= hm[H_TRICK]
        hm[H_TRICK] = ZERO
        leader = best_seat


@jit
def score(st, hm, rp):
    """Scores of the deal (§3.6, RULES §6) into ``S_SCORE + seat``."""
    p = rp[R_PLAYERS]
    over = st[S_OVER] != 0
    for s in range(p):
        b = st[S_CONTRACT + s]
        t = st[S_TRICKS + s]
        if b > 0:
            if t == b:
                v = t * t + rp[R_MADE_BONUS]
            else:
                d = t - b if t > b else b - t
                v = -rp[R_MISS] * d
        elif t == 0:
            v = rp[R_ZERO_OVER] if over else rp[R_ZERO_UNDER]
        else:
            v = rp[R_ZERO_FAIL_FIRST] + rp[R_ZERO_FAIL_REFUND] * (t - 1)
        st[S_SCORE + s] = v


@jit
def play_one(seed_mix, deal, st, hm, rp, deck, work, pol, par, rng):
    """Play deal ``deal`` of the run whose seed mixes to ``seed_mix`` (dealer ``deal % P``)."""
    rng[0] = stream_start_mixed(seed_mix, np.uint64(deal))
    begin_deal(st, hm, rp, deal, deal % rp[R_PLAYERS])
    deal_cards(st, hm, rp, deck, work, rng)
    auction(st, hm, rp, pol, par, rng)
    if st[S_THROWN] == 0:
        contracts(st, hm, rp, pol, par, rng)
        play(st, hm, rp, pol, par, rng)
        score(st, hm, rp)
