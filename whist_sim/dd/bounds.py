"""Cheap sure bounds of the double-dummy search (numba): quick tricks, trump floors, cash-outs,
whist-min's forced and ducked tricks
(:mod:`whist_sim.dd.forced`).

Every helper reads a canonical position (``canon``) and answers about the tricks of the
remaining play, most as ``(tricks, relevance)`` or ``(yes, relevance)``: the relevance mask holds
the cards whose ranks the argument relies on, so that the search can store the answer for every
position that agrees on them. Seat sets (``side``, ``win``, ``mx``, ``opp_mask``) are bit masks of
seats. ``_bounds`` combines them into the search's ``(lo, lo_rel, hi, hi_rel)``. A bound must be
sure (never wrong, whoever plays how); it changes only how much the search has to do.
"""

from __future__ import annotations

import numba

from ._bits import INLINE, NJIT, ctz, high_bit, popcount
from .canon import SUIT_BITS, SUITM, U, _above, _hand, _suit, _top_run, _winning_so_far
from .forced import _min_duck, _min_floor, _min_zero


@numba.njit(**NJIT)
def _quick_tricks(h0, h1, h2, h3, leader, trump, opp_mask):
    """``(tricks, relevance)``: what the leader can cash at once from the top of his suits.

    ``opp_mask``: the seats (bit mask) whose winning a trick would not count for the leader. In a
    suit contract a side-suit winner counts only while every such seat holding a trump must follow.
    The relevance mask holds the cashed top cards.
    """
    h = _hand(h0, h1, h2, h3, leader)
    opp_trumps = False
    if trump < 4:
        for q in range(4):
            if (opp_mask >> q) & 1 and _hand(h0, h1, h2, h3, q) & SUITM[trump]:
                opp_trumps = True
    qt = 0
    rel = U(0)
    for s in range(4):
        run = _top_run((h >> U(13 * s)) & SUIT_BITS)
        if run == 0:
            continue
        if trump == 4 or s == trump or not opp_trumps:
            cnt = run
        else:
            cnt = run
            for q in range(4):
                hq = _hand(h0, h1, h2, h3, q)
                if (opp_mask >> q) & 1 and hq & SUITM[trump]:
                    ln = popcount(hq & SUITM[s])
                    if ln < cnt:
                        cnt = ln
        if cnt > 0:
            qt += cnt
            rel |= U(1) << U(13 * s + 13 - run)  # the lowest card of the run (closed up later)
    return qt, rel


@numba.njit(**INLINE)
def _seat_trump_floor(h0, h1, h2, h3, q, trump, opp_mask):
    """``(tricks, relevance)``: ``_trump_floor`` of the single seat ``q`` against the trumps of
    the seats ``opp_mask`` (tricks won by q's side, however anyone plays; see ``_trump_floor``)."""
    if trump >= 4:
        return 0, U(0)
    tm = SUITM[trump]
    opp = U(0)
    for o in range(4):
        if (opp_mask >> o) & 1:
            opp |= _hand(h0, h1, h2, h3, o) & tm
    m = _hand(h0, h1, h2, h3, q) & tm
    best = 0
    rel = U(0)
    k = 0
    while m:
        t = high_bit(m)
        m ^= U(1) << U(t)
        k += 1
        n = k - popcount(opp & _above(t))
        if n > best:
            best = n
            rel = U(1) << U(t)
    if opp == 0:
        rel = U(0)
    return best, rel


@numba.njit(**NJIT)
def _trump_floor(h0, h1, h2, h3, trump, side_mask):
    """``(tricks, relevance)``: tricks the seats ``side_mask`` must win with their trumps, however
    anyone plays (a bound for every objective: it needs nobody's cooperation).

    Trump-length argument: take one player q of the side and his ``k`` highest trumps, the lowest
    of them ``t``. Every card is played before the deal ends, one card of q per trick, so those
    trumps fall in ``k`` different tricks. A trick holding a trump is won by a trump at least as
    high; if the winner is not on the side, it is an opposing trump above ``t``, and each opposing
    card lies in one trick only. So the side wins at least ``k - (opposing trumps above t)`` of
    those tricks. The best q and ``k`` are taken ("trumps above every opposing trump" is the case
    with no opposing trump above ``t``). Two players' trumps may fall in the same trick,
    so the side's players are not added up.
    Relevance: the trump ``t`` (closed up later: the owners of every trump from ``t`` up fix q's
    ``k`` trumps and the opposing count above ``t``).
    """
    best = 0
    rel = U(0)
    for q in range(4):
        if (side_mask >> q) & 1:
            n, nrel = _seat_trump_floor(h0, h1, h2, h3, q, trump, 15 ^ side_mask)
            if n > best:
                best = n
                rel = nrel
    return best, rel


@numba.njit(**INLINE)
def _ruff_safe(h0, h1, h2, h3, s, trump, bad):
    """Rounds of suit ``s`` that every seat of ``bad`` holding a trump must follow (99: no limit).

    In no-trump, or in the trump suit itself, nobody can ruff. Otherwise a seat of ``bad`` with a
    trump could ruff once void in ``s``; until then it must follow suit (RULES §5), so it neither
    ruffs nor discards (its other suits keep their lengths).
    """
    if trump == 4 or s == trump:
        return 99
    safe = 99
    for q in range(4):
        hq = _hand(h0, h1, h2, h3, q)
        if (bad >> q) & 1 and hq & SUITM[trump]:
            ln = popcount(hq & SUITM[s])
            if ln < safe:
                safe = ln
    return safe


@numba.njit(**INLINE)
def _drop_high(x, n):
    """``x`` without its ``n`` highest set bits."""
    for _ in range(n):
        if x:
            x ^= U(1) << U(high_bit(x))
    return x


@numba.njit(**INLINE)
def _drop_low(x, n):
    """``x`` without its ``n`` lowest set bits."""
    for _ in range(n):
        x &= x - U(1)
    return x


@numba.njit(**INLINE)
def _cash_rounds(h0, h1, h2, h3, q, s, side, bad, safe, pre, pl):
    """``(rounds, card)``: how many rounds of suit ``s`` seat ``q`` (on lead) surely wins and keeps
    the lead with, leading its highest cards of ``s`` from the top while the other seats of
    ``side`` follow with their lowest; ``card`` = the last (lowest) card ``q`` cashes, or -1.

    Round ``j`` is won by ``q`` when its ``j``-th highest card of ``s`` is above every card of the
    seats ``bad`` in ``s`` and above the ``j``-th lowest card of each other seat of ``side`` (a
    seat out of ``s`` discards); at most ``safe`` rounds (``_ruff_safe``). Only the ranks at or
    above ``card`` decide this (a follower's ``j``-th lowest card is either below ``card`` in both
    positions of a pattern, or the same card), so ``card`` is the relevance of the count.
    ``pre`` > 0: count from after ``pre`` rounds of ``s`` already cashed this way by seat ``pl``
    (its ``pre`` highest cards and every other side seat's ``pre`` lowest are gone).
    """
    m = SUITM[s]
    opp = U(0)
    for o in range(4):
        if (bad >> o) & 1:
            opp |= _hand(h0, h1, h2, h3, o)
    bmax = high_bit(opp & m)
    lead = U(0)
    f0 = U(0)
    f1 = U(0)
    f2 = U(0)
    nf = 0
    for o in range(4):
        if not (side >> o) & 1:
            continue
        fm = _hand(h0, h1, h2, h3, o) & m
        if pre > 0:
            fm = _drop_high(fm, pre) if o == pl else _drop_low(fm, pre)
        if o == q:
            lead = fm
        elif nf == 0:
            f0 = fm
            nf = 1
        elif nf == 1:
            f1 = fm
            nf = 2
        else:
            f2 = fm
    k = 0
    card = -1
    while lead and k < safe:
        c = high_bit(lead)
        if c < bmax:
            break
        if (f0 and ctz(f0) > c) or (f1 and ctz(f1) > c) or (f2 and ctz(f2) > c):
            break
        lead ^= U(1) << U(c)
        f0 &= f0 - U(1)
        f1 &= f1 - U(1)
        f2 &= f2 - U(1)
        k += 1
        card = c
    return k, card


@numba.njit(**NJIT)
def _side_quick_tricks(h0, h1, h2, h3, leader, trump, side, r):
    """``(tricks, relevance)``: tricks the seats ``side`` (the leader among them, all playing
    together; every other seat against them) surely take at once by cashing top cards, with at
    most one transfer of the lead to a partner (DDS-style quick tricks with an entry).

    The plan: (A) the leader cashes ``_cash_rounds`` in some suits, keeping the lead; (B) he leads
    his lowest card of a suit ``t`` where a partner ``Q`` wins round 1 of ``_cash_rounds`` (the
    entry; the leader's lowest card is then a follower's 1st lowest); (C) ``Q`` cashes
    ``_cash_rounds`` in ``t`` and in other suits not used in (A). Without (B), (A) in every suit
    is the leader's own quick tricks. [unblock] The leader may first cash his (A) rounds of ``t``
    and then lead his lowest card left in ``t`` (``_cash_rounds`` with ``pre``).

    Soundness: every counted round is won by a card above all opposing cards of its suit, led
    while no opponent holding a trump can be void in it (``_ruff_safe``), so no opponent wins it;
    the followers of ``side`` never overtake (the ``_cash_rounds`` condition). Followers keep what
    the plan needs: a seat void in the suit led discards its highest card of some suit (every
    lower card, and so each ``j``-th lowest, stays where it was); ``Q`` during (A) discards a
    card it does not need later: its highest in an (A) suit, any card of an unused suit, or in
    ``t`` / a (C) suit a card between the lowest ones it follows the leader's rounds with and the
    ones it cashes. Such a card exists while (A) + (C) <= r; if the plan counts more, the leader
    cashes fewer (A) rounds, so the result is capped at ``r``.
    Valid whenever the seats ``side`` cooperate and the seats outside it are the only ones whose
    tricks count the other way: lower bound with side = win (win within mx, leader in it), upper
    bound ``r - tricks`` with side = the seats outside win (none in mx, leader in it).
    Relevance: the lowest card cashed in each suit used (closed up later).
    """
    bad = 15 ^ side
    # per suit s: rounds in bits 8s..8s+3, the relevant card in bits 32+8s.. (no arrays: hot path)
    pa = 0
    total_a = 0
    rel_a = U(0)
    for s in range(4):
        safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
        k, c = _cash_rounds(h0, h1, h2, h3, leader, s, side, bad, safe, 0, 0)
        if k > 0:
            pa |= (k << (8 * s)) | (c << (32 + 8 * s))
            total_a += k
            rel_a |= U(1) << U(c)
    best = total_a
    best_rel = rel_a
    if best >= r:
        return r, best_rel
    lh = _hand(h0, h1, h2, h3, leader)
    for qq in range(4):
        if qq == leader or not (side >> qq) & 1:
            continue
        pc = 0
        for s in range(4):
            safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
            k, c = _cash_rounds(h0, h1, h2, h3, qq, s, side, bad, safe, 0, 0)
            if k > 0:
                pc |= (k << (8 * s)) | (c << (32 + 8 * s))
        # the rest: every suit by the better of (A) and (C); the entry suit t by (C)
        base = 0
        for s in range(4):
            base += max((pa >> (8 * s)) & 15, (pc >> (8 * s)) & 15)
        for t in range(4):
            lt = popcount(lh & SUITM[t])
            if lt == 0:
                continue
            at = (pa >> (8 * t)) & 15
            kt = (pc >> (8 * t)) & 15
            trel = U(1) << U((pc >> (32 + 8 * t)) & 63)
            if at > 0 and lt > at:
                # [unblock] the leader first cashes his ``at`` rounds of t, then leads his lowest
                # card left in t to Q's winners (same plan; t's cards in play are the rest)
                safe = _ruff_safe(h0, h1, h2, h3, t, trump, bad) - at
                k, c = _cash_rounds(h0, h1, h2, h3, qq, t, side, bad, safe, at, leader)
                if k > 0 and at + k > kt:
                    kt = at + k
                    trel = (U(1) << U(c)) | (U(1) << U((pa >> (32 + 8 * t)) & 63))
            if kt == 0:
                continue
            tot = base - max(at, (pc >> (8 * t)) & 15) + kt
            if tot > best:
                best = tot
                best_rel = trel
                for s in range(4):
                    if s == t:
                        continue
                    a = (pa >> (8 * s)) & 15
                    b = (pc >> (8 * s)) & 15
                    if b > a:
                        best_rel |= U(1) << U((pc >> (32 + 8 * s)) & 63)
                    elif a > 0:
                        best_rel |= U(1) << U((pa >> (32 + 8 * s)) & 63)
    if best > r:
        best = r
    return best, best_rel


@numba.njit(**NJIT)
def _wins_this_trick(h0, h1, h2, h3, leader, trump, x):
    """``(yes, relevance)``: do the seats ``x`` (not the leader; playing together) surely win the
    trick the leader is about to lead, whatever the others do (DDS's "later tricks", simplest case)?

    Yes when every suit the leader holds is covered: its top card (canonical rank 12) belongs to
    ``x`` and no seat outside ``x`` can ruff it (no-trump, the trump suit, or every such seat has
    a card of the suit or no trump: it must follow or cannot trump), or a seat of ``x`` is void in
    it and holds the top trump (its ruff cannot be beaten). The holder plays that card and the
    other seats of ``x`` do not overtake. Relevance: the top cards relied on; the rest is lengths.
    """
    lh = _hand(h0, h1, h2, h3, leader)
    rel = U(0)
    top_tr = U(0)
    if trump < 4:
        top_tr = U(1) << U(13 * trump + 12)
    for s in range(4):
        m = SUITM[s]
        if not lh & m:
            continue
        top = U(1) << U(13 * s + 12)
        ok = False
        for q in range(4):
            if (x >> q) & 1 and _hand(h0, h1, h2, h3, q) & top:
                ok = True
        if ok and trump < 4 and s != trump:
            for q in range(4):
                hq = _hand(h0, h1, h2, h3, q)
                if not (x >> q) & 1 and not hq & m and hq & SUITM[trump]:
                    ok = False
        if ok:
            rel |= top
            continue
        if trump < 4 and s != trump:
            for q in range(4):
                hq = _hand(h0, h1, h2, h3, q)
                if (x >> q) & 1 and not hq & m and hq & top_tr:
                    ok = True
        if not ok:
            return False, U(0)
        rel |= top_tr
    return True, rel


@numba.njit(**INLINE)
def _ruff_threat(h0, h1, h2, h3, s, trump, skip):
    """Is some seat other than ``skip`` void in suit ``s`` (not trumps) and holding trumps?"""
    if trump < 4 and s != trump:
        for q in range(4):
            hq = _hand(h0, h1, h2, h3, q)
            if q != skip and hq & SUITM[s] == 0 and hq & SUITM[trump]:
                return True
    return False


@numba.njit(**NJIT)
def _win_then_cash(h0, h1, h2, h3, p, leader, trump):
    """``(tricks, relevance)``: a floor on p's tricks (p playing for tricks against the other
    three) when another seat leads: p holds the top card of every suit the leader holds.

    Soundness: whatever suit s is led, p follows with its top card, which wins unless somebody
    void in s ruffs; that is excluded (s is trumps, or no other seat void in s holds trumps). Then
    p leads with his quick tricks (``_quick_tricks`` against the three) at least one fewer than
    now: his top run in s is at most one shorter, the other runs are not shorter (cards only
    leave), the others' trump holders all followed s (none is void in s) so their lengths in the
    other suits are unchanged and in s one shorter, and the set of trump holders only shrinks. So
    p makes at least 1 + (quick tricks - 1) = his quick tricks as counted now.
    Relevance: the top card of each suit the leader holds (p's), and the quick tricks' cards.
    """
    hp = _hand(h0, h1, h2, h3, p)
    hl = _hand(h0, h1, h2, h3, leader)
    rel = U(0)
    for s in range(4):
        if hl & SUITM[s] == 0:
            continue
        top = U(1) << U(13 * s + 12)
        if hp & top == 0:
            return 0, U(0)
        if _ruff_threat(h0, h1, h2, h3, s, trump, p):
            return 0, U(0)
        rel |= top
    qt, qrel = _quick_tricks(h0, h1, h2, h3, p, trump, 15 ^ (1 << p))
    return qt, rel | qrel


@numba.njit(**INLINE)
def _first_trump_trick(h0, h1, h2, h3, p, leader, trump):
    """``(yes, relevance)``: must p (playing for tricks against the other three) take at least
    one trick with his trumps? A sharper form, for one trick, of ``_trump_floor`` that counts
    where the higher trumps sit.

    Take p's ``k`` highest trumps (the lowest of them ``c``), the ``g = n - k`` trumps he holds
    below them (his guards), and the opposing trumps above ``c``: ``mr`` of them held by p's
    right-hand opponent ``(p + 3) % 4``, ``mo`` by the two others. Claim: if p is not on lead or
    holds a card outside trumps, and ``k > max(mo, mo + mr - g)``, p wins a trick.
    Soundness, while p has won no trick: he never leads again (at the first trick he leads
    outside trumps), so his right-hand opponent plays before him in every trick. p plays a trump
    only when he must (trumps led, or only trumps left; void in a side suit he discards outside
    trumps): his lowest trump if a trump above his highest is already in the trick, else his
    highest. Each of his ``k`` trumps that loses is beaten by a distinct opposing trump above
    ``c`` in its trick: one played after p (never the right-hand opponent's, so at most ``mo``
    of these), or one played before p when he had no guard left to play instead. Each guard he
    plays uses up another opposing trump above ``c`` the same way. So if none of the right-hand
    opponent's trumps beats one of the ``k``, at most ``mo`` of them lose; if one does, p's
    ``g`` guards are gone and at most ``mo + mr - g`` of them lose. Every card is played before
    the deal ends, so one of the ``k`` wins. With ``mr = 0`` this is the one-trick case of
    ``_trump_floor``; with ``mo = 0`` and ``k = 1``: every higher trump sits on p's right and he
    holds as many guards as there are such trumps.
    Relevance: ``c`` (closed up: the owners of every trump from ``c`` upward); the trump lengths
    and the leader are in every table key.
    """
    if trump >= 4 or p == leader and _hand(h0, h1, h2, h3, p) & ~SUITM[trump] == 0:
        return False, U(0)
    tm = SUITM[trump]
    tp = _hand(h0, h1, h2, h3, p) & tm
    rho = _hand(h0, h1, h2, h3, (p + 3) & 3) & tm
    others = (h0 | h1 | h2 | h3) & tm & ~tp & ~rho
    n = popcount(tp)
    m = tp
    k = 0
    while m:
        c = high_bit(m)
        m ^= U(1) << U(c)
        k += 1
        mo = popcount(others & _above(c))
        mr = popcount(rho & _above(c))
        if k > mo and k > mo + mr - (n - k):
            return True, U(1) << U(c)
    return False, U(0)


@numba.njit(**INLINE)
def _boss_outlasts(h0, h1, h2, h3, p, leader, trump):
    """``(n, relevance)``: a lower bound on the tricks of p (playing for tricks against the
    other three) when the three are on lead and hold no trumps: ``n`` is 0 (no bound) or p's
    trumps plus winners of side suits that the three cannot avoid leading.

    Let ``B`` be the side suits in which p holds the top card and the three hold a card, ``W``
    his winners in them (his cards above every card of theirs in the suit), and ``L`` the most
    tricks the three can lead in the other suits: a suit ``t`` can be led at most as often as
    the longest of their holdings in it (each trick led in ``t`` takes a card of ``t`` from each
    of them still holding one, the leader included, and a discard only shortens it). Claim: if
    none of the three holds a trump and ``L + |B| <= r``, p takes his trumps and
    ``w = min(W, r - L)`` tricks more.
    Soundness: every trump of p wins whenever he plays it (nobody else holds one, so nobody can
    lead one either), and he plays them all before the deal ends. p keeps ``w`` of his winners
    (the top card of each suit of ``B`` and others of ``W``) until he is on lead or the three
    lead a suit of ``B`` (then he plays its top card, which wins and puts him on lead); on lead
    he cashes the winners he kept, each a trick, because nobody holds a higher card of its suit
    or a trump. Void in a suit led he discards another card, or ruffs (and is on lead). He would
    have to throw a kept winner only with nothing but those ``w`` cards left, so at trick
    ``r - w + 1`` or later, never having been on lead: the three would have led that many
    tricks, none in ``B``, which ``L + w <= r`` forbids.
    Relevance: the kept winners, from the top of each suit of ``B`` (their owner and ranks);
    every suit length, so the trump lengths too, is in every table key.
    """
    hp = _hand(h0, h1, h2, h3, p)
    live = h0 | h1 | h2 | h3
    if leader == p or trump < 4 and live & ~hp & SUITM[trump]:
        return 0, U(0)
    r = popcount(hp)
    lead_room = 0
    n_boss = 0
    wins = U(0)  # p's winners in the suits of B
    for s in range(4):
        longest = 0
        for q in range(4):
            if q != p:
                longest = max(longest, popcount(_hand(h0, h1, h2, h3, q) & SUITM[s]))
        if longest == 0:
            continue
        m = live & SUITM[s]
        c = high_bit(m)
        if (hp >> U(c)) & U(1):
            n_boss += 1
            wins |= hp & m & _above(high_bit(m & ~hp))
        else:
            lead_room += longest
    if n_boss == 0 or lead_room + n_boss > r:
        return 0, U(0)
    # p keeps w_s winners of each suit of B, at least one: at most r - L in all
    keep = min(popcount(wins), r - lead_room)
    extra = keep - n_boss  # winners kept beyond each suit's top card
    rel = U(0)
    for s in range(4):
        run = wins & SUITM[s]
        while run:
            c = high_bit(run)
            run ^= U(1) << U(c)
            rel |= U(1) << U(c)
            if run == 0 or extra == 0:
                break
            extra -= 1
    n = keep
    if trump < 4:
        n += popcount(hp & SUITM[trump])
    return n, rel


@numba.njit(**NJIT)
def _cash_then_floor(h0, h1, h2, h3, leader, trump, side):
    """``(tricks, relevance)``: the seats ``side`` (the leader among them, playing together; the
    others against them) surely take the leader's side-suit quick tricks AND then the trump floor
    of one of their seats. Suit contracts only (0 otherwise).

    The plan: the leader cashes ``_cash_rounds`` in every suit but trumps (his own winners, the
    other seats of ``side`` following low), then anything goes.
    Soundness: every cashed round is won by the leader (``_cash_rounds``: above every opposing
    card, led while each opponent holding a trump must follow, ``_ruff_safe``; the partners do not
    overtake), so he keeps the lead and the rounds add up over the suits. A partner void in the
    suit led discards the highest card of a non-trump suit (it has one: a partner with fewer
    non-trump cards than rounds makes the bound give up), which keeps every ``j``-th lowest card
    the plan relies on. After the cashing: the opponents holding trumps only followed suit, so
    the opposing trumps are the same cards; a seat ``q`` of ``side`` that played only non-trump
    cards (the leader, or a partner with at least as many non-trump cards as rounds) keeps all its
    trumps. So ``q``'s trump floor (``_seat_trump_floor``: a bound however anyone plays) is the
    same in the position after the cashing, and the side takes rounds + floor tricks. (That is at
    most the tricks left: q's trumps fall in tricks after the cashing, one per trick.)
    Relevance: the lowest card cashed in each suit and the floor's trump (closed up later).
    """
    if trump >= 4:
        return 0, U(0)
    bad = 15 ^ side
    cnt = 0
    rel = U(0)
    for s in range(4):
        if s == trump:
            continue
        safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
        k, c = _cash_rounds(h0, h1, h2, h3, leader, s, side, bad, safe, 0, 0)
        if k > 0:
            cnt += k
            rel |= U(1) << U(c)
    best = -1
    frel = U(0)
    for q in range(4):
        if not (side >> q) & 1:
            continue
        hq = _hand(h0, h1, h2, h3, q)
        nontrump = popcount(hq & ~SUITM[trump])
        if q != leader and nontrump < cnt:
            if cnt > 0:
                return 0, U(0)  # this partner might have to ruff a cashed winner: give up
            continue
        f, fr = _seat_trump_floor(h0, h1, h2, h3, q, trump, bad)
        if f > best:
            best = f
            frel = fr
    return cnt + best, rel | frel


@numba.njit(**NJIT)
def _seat_cash_floor(h0, h1, h2, h3, w, trump):
    """Seat ``w``'s own cash-then-floor count against the other three (``_cash_then_floor`` with
    side {w}; in no-trump its quick tricks), and its relevance."""
    if trump >= 4:
        return _quick_tricks(h0, h1, h2, h3, w, trump, 15 ^ (1 << w))
    return _cash_then_floor(h0, h1, h2, h3, w, trump, 1 << w)


@numba.njit(**INLINE)
def _cash_floor_cap(h0, h1, h2, h3, w, trump):
    """Most tricks ``_seat_cash_floor`` of seat ``w`` can count (a cheap gate): in every suit but
    trumps w's cards above every card the other seats hold in it (the cashing plans and the quick
    tricks count no others), plus w's trumps (the floor is at most his trump count)."""
    hw = _hand(h0, h1, h2, h3, w)
    others = (h0 | h1 | h2 | h3) & ~hw
    n = 0
    for s in range(4):
        m = SUITM[s]
        if s == trump:
            n += popcount(hw & m)
        else:
            n += popcount(hw & m & _above(high_bit(others & m)))
    return n


@numba.njit(**NJIT)
def _trick_then_cash(h0, h1, h2, h3, k, leader, t0, t1, t2, trump, x, need):
    """``(tricks, relevance)``: inside a trick (``k`` >= 1 cards ``t0..`` on the table), a floor
    on the tricks of the seats ``x`` (playing together) from the start of this trick: some seat w
    of ``x`` surely wins it with the highest card of the suit led s (held by w, still to play, or
    already on the table and winning), and then takes w's ``_seat_cash_floor`` as counted now.

    Conditions: the trick is not ruffed so far, and no seat still to play but w is void in s and
    holds a trump (``_ruff_threat`` for those seats); then nobody can beat w's card.
    Soundness (the others of ``x`` count as opponents in w's count, which only weakens it: w's plan
    wins against every play of the other three): w's card is the highest of s, and nobody can
    trump it (the trick is not ruffed so far; a seat still to play that could ruff would be void
    in s with a trump, excluded), so w wins the trick and leads next. The seats still to play that
    hold trumps follow s, so every trump holder's lengths in the other suits and the opposing
    trumps are as now (the seats that played already are counted as they are now; the set of
    trump holders only shrinks). Then ``_cash_then_floor`` (side = {w}) applies: (a) s a side
    suit: w's run in s and the trump holders' lengths in s drop by at most one, so the cash count
    drops by at most one; w's trumps and the opposing ones are unchanged, so is the floor. (b) s
    the trump suit and w plays its top trump now: the side-suit counts are unchanged; for each
    ``k`` the ``k - 1`` highest trumps w has left have the same lowest one ``t`` and no more
    opposing trumps above it, so the floor drops by at most one. (No-trump: ``_quick_tricks``, as
    (a).) So w's side takes at least 1 + (count - 1) tricks from the start of this trick.
    Relevance: w's winning card (closed up: every card of s above it) and the count's.
    ``need``: the count the caller needs; when ``_cash_floor_cap`` shows w cannot count that many,
    the count is not computed (0 is returned: the answer to the caller is the same).
    """
    s = _suit(t0)
    w_card, wi = _winning_so_far(k, t0, t1, t2, trump)
    if _suit(w_card) != s:
        return 0, U(0)
    hb = high_bit((h0 | h1 | h2 | h3) & SUITM[s])
    if hb > w_card:
        w = -1
        for j in range(k, 4):
            q = (leader + j) & 3
            if _hand(h0, h1, h2, h3, q) & (U(1) << U(hb)):
                w = q
        if w < 0 or not (x >> w) & 1:
            return 0, U(0)
        rel = U(1) << U(hb)
    else:
        w = (leader + wi) & 3
        if not (x >> w) & 1:
            return 0, U(0)
        rel = U(1) << U(w_card)
    if trump < 4 and s != trump:
        for j in range(k, 4):
            q = (leader + j) & 3
            hq = _hand(h0, h1, h2, h3, q)
            if q != w and hq & SUITM[s] == 0 and hq & SUITM[trump]:
                return 0, U(0)
    if _cash_floor_cap(h0, h1, h2, h3, w, trump) < need:
        return 0, U(0)
    n, nrel = _seat_cash_floor(h0, h1, h2, h3, w, trump)
    return n, rel | nrel


@numba.njit(**INLINE)
def _most_trumps(h0, h1, h2, h3, trump, side):
    """Trumps held by the longest trump holder of the seats ``side`` (``trump`` < 4)."""
    n = 0
    for q in range(4):
        if (side >> q) & 1:
            x = popcount(_hand(h0, h1, h2, h3, q) & SUITM[trump])
            if x > n:
                n = x
    return n


@numba.njit(**INLINE)
def _cash_cap(h0, h1, h2, h3, leader, trump, side):
    """Most rounds that cashing top cards can win for the seats ``side`` (``leader`` among them):
    no plan of ``_quick_tricks`` or ``_side_quick_tricks`` counts more, so when this cannot
    decide a question neither can they (a cheap gate, ``_bounds``).

    Each round those plans count in a suit is won by a card of the leader or of the one partner
    they use that is above every card of the other seats in that suit, at most ``_ruff_safe``
    rounds: so per suit at most min(safe, the leader's such cards + the most any partner has).
    """
    bad = 15 ^ side
    opp = U(0)
    for q in range(4):
        if (bad >> q) & 1:
            opp |= _hand(h0, h1, h2, h3, q)
    hl = _hand(h0, h1, h2, h3, leader)
    n = 0
    for s in range(4):
        m = SUITM[s]
        o = opp & m
        above = m
        if o:
            above &= ~((U(2) << U(high_bit(o))) - U(1))
        c = popcount(hl & above)
        best_q = 0
        for q in range(4):
            if q != leader and (side >> q) & 1:
                x = popcount(_hand(h0, h1, h2, h3, q) & above)
                if x > best_q:
                    best_q = x
        c += best_q
        if c > 0:
            safe = _ruff_safe(h0, h1, h2, h3, s, trump, bad)
            if c > safe:
                c = safe
        n += c
    return n


@numba.njit(**NJIT)
def _bounds(h0, h1, h2, h3, leader, trump, win, mx, r, want_lo, want_hi):
    """Cheap sure bounds ``(lo, lo_rel, hi, hi_rel)`` on the tricks of the seats ``win``.

    The leader's quick tricks count only when he wants them (a maximiser in ``win``, or a
    minimiser outside it). ``*_rel``: the cards each bound relies on.
    The search only asks whether ``lo >= want_lo`` or ``hi <= want_hi``: a quick-tricks or
    trump-floor bound that surely cannot get there (``_cash_cap``, ``_most_trumps``) is not
    computed. That changes no such answer
    nor the relevance it comes with (the skipped bound would not have been the deciding one);
    ``want_lo = 0, want_hi = r`` computes every bound.
    """
    lo = 0
    lo_rel = U(0)
    hi = r
    hi_rel = U(0)
    if trump < 4:
        # a side's trump floor is at most the trumps of its longest holder
        if _most_trumps(h0, h1, h2, h3, trump, win) >= want_lo:
            lo, lo_rel = _trump_floor(h0, h1, h2, h3, trump, win)
        if r - _most_trumps(h0, h1, h2, h3, trump, 15 ^ win) <= want_hi:
            f, hi_rel = _trump_floor(h0, h1, h2, h3, trump, 15 ^ win)
            hi = r - f
    in_win = (win >> leader) & 1
    in_mx = (mx >> leader) & 1
    if in_win and in_mx and _cash_cap(h0, h1, h2, h3, leader, trump, win) >= max(want_lo, lo + 1):
        if win & ~mx:
            qt, qrel = _quick_tricks(h0, h1, h2, h3, leader, trump, 15 ^ win)
        else:
            # [side quick tricks] the seats win all cooperate (win within mx)
            qt, qrel = _side_quick_tricks(h0, h1, h2, h3, leader, trump, win, r)
        if qt > lo:
            lo = qt
            lo_rel = qrel
    elif (not in_win and not in_mx
          and r - _cash_cap(h0, h1, h2, h3, leader, trump, 15 ^ win) <= min(want_hi, hi - 1)):
        if mx & ~win:
            qt, qrel = _quick_tricks(h0, h1, h2, h3, leader, trump, win)
        else:
            # [side quick tricks] the seats outside win all cooperate (mx within win)
            qt, qrel = _side_quick_tricks(h0, h1, h2, h3, leader, trump, 15 ^ win, r)
        if r - qt < hi:
            hi = r - qt
            hi_rel = qrel
    # [later tricks] the cooperating side not on lead surely takes this trick: for the seats win
    # (all in mx) a lower bound of 1, for the others (none in mx) an upper bound of r - 1
    if lo < 1 and not in_win and not win & ~mx:
        yes, wrel = _wins_this_trick(h0, h1, h2, h3, leader, trump, win)
        if yes:
            lo = 1
            lo_rel = wrel
    if hi > r - 1 and in_win and not mx & ~win:
        yes, wrel = _wins_this_trick(h0, h1, h2, h3, leader, trump, 15 ^ win)
        if yes:
            hi = r - 1
            hi_rel = wrel
    if mx == win and popcount(U(win)) == 1:
        # whist-max with another seat on lead: p wins the first trick, then cashes (see helper)
        p = ctz(U(win))
        if leader != p:
            n, nrel = _win_then_cash(h0, h1, h2, h3, p, leader, trump)
            if n > lo:
                lo = n
                lo_rel = nrel
        if lo < 1 and want_lo <= 1:
            # p's trumps must win a trick, counting where the higher ones sit (see helper)
            yes, trel = _first_trump_trick(h0, h1, h2, h3, p, leader, trump)
            if yes:
                lo = 1
                lo_rel = trel
        if leader != p:
            # p's trumps and the winners of suits the three must lead before the end (see
            # helper)
            n, brel = _boss_outlasts(h0, h1, h2, h3, p, leader, trump)
            if n > lo:
                lo = n
                lo_rel = brel
    if mx == 15 ^ win and popcount(U(win)) == 1:
        # [whist-min] p's tricks forced by the current trick / p's sure loser (see the helpers)
        p = ctz(U(win))
        n, nrel = _min_floor(h0, h1, h2, h3, p, leader, trump)
        if n > lo:
            lo = n
            lo_rel = nrel
        if hi > 0:
            # p ducks every trick from here (see the helper)
            yes, zrel = _min_zero(h0, h1, h2, h3, p, leader, trump)
            if yes:
                hi = 0
                hi_rel = zrel
        if hi > r - 1:
            yes, drel = _min_duck(h0, h1, h2, h3, p, leader, trump)
            if yes:
                hi = r - 1
                hi_rel = drel
    return lo, lo_rel, hi, hi_rel
