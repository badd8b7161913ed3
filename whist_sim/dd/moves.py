"""Move generation and ordering of the double-dummy search (numba).

``_gen_moves`` writes the candidate cards of the player to move (one card of each run of touching
cards, canonical form, see ``canon``) in the order they are tried. The scores only speed the
search up (better moves first, earlier cut-offs): they never change an answer.
"""

from __future__ import annotations

import numba

from ._bits import INLINE, LINKED, ctz, high_bit, popcount
from .canon import NOT_TOPS, SUITM, U, _above, _beats, _hand, _suit, _winning_so_far


@numba.njit(**INLINE)
def _can_beat(hq, x, led, trump):
    """Could a player holding ``hq`` beat card ``x`` in a trick led in suit ``led``?"""
    xs = _suit(x)
    follow = hq & SUITM[led]
    if follow:
        if xs != led:
            return False  # x is a ruff; q must follow suit
        return high_bit(follow) > x
    if trump == 4:
        return False
    tr = hq & SUITM[trump]
    if tr == 0:
        return False
    if xs == trump:
        return high_bit(tr) > x
    return True


@numba.njit(**INLINE)
def _push_lead_bonus(h0, h1, h2, h3, c, good):
    """Move-ordering bonus (only a hint) for a lead by a seat that wants the single seat ``good``
    to win the trick (whist-min: the three pushing tricks on p): +3000 when p must win a lead of
    ``c``'s suit (p holds the suit and every other card of it is below p's lowest), -1500 when p
    is void in it (p discards).
    """
    if popcount(U(good)) != 1:
        return 0
    m = SUITM[_suit(c)]
    hg = _hand(h0, h1, h2, h3, ctz(U(good)))
    if hg & m == 0:
        return -1500
    if high_bit((h0 | h1 | h2 | h3) & ~hg & m) < ctz(hg & m):
        return 3000
    return 0


@numba.njit(**INLINE)
def _pair_lead_score(h0, h1, h2, h3, player, c, trump):
    """Ordering score of leading card ``c`` (canonical) for a seat playing with its partner
    (``player ^ 2``) against the other two (bridge); higher is tried first. Only the speed
    depends on it, never a result.

    Order (tuned on card plays of random deals): give the partner a ruff that no opponent void in
    the suit can overruff; lead low to the partner's top card; cash one's own top card (the trump
    ace a little earlier; in a suit contract only after the partner's ruff and near the partner's
    top under a ruff risk, and level with the low leads when an opponent could ruff the cash); then,
    when an opponent could ruff, lead to the partner's top anyway; then the other suits, low cards
    first, suits where the side holds more cards first, later when the fourth hand holds one of the
    suit's two top cards, sooner when the second hand holds the top card and the partner the next
    (bridge -2 to -4 % card plays), and much sooner when an opponent holds the top card and the
    side the next two (after one round the side holds the top; bridge -5 to -12 %); underleading
    one's own top card next to last; a suit both opponents are void in last of all.
    """
    s = _suit(c)
    r = c - 13 * s
    m = SUITM[s]
    hp = _hand(h0, h1, h2, h3, player)
    pt = _hand(h0, h1, h2, h3, player ^ 2)
    lho = _hand(h0, h1, h2, h3, (player + 1) & 3)
    rho = _hand(h0, h1, h2, h3, (player + 3) & 3)
    top = U(1) << U(13 * s + 12)
    ruffable = trump < 4 and s != trump
    tm = SUITM[trump] if trump < 4 else U(0)
    lho_ruff = ruffable and not lho & m and lho & tm
    rho_ruff = ruffable and not rho & m and rho & tm
    risk = lho_ruff or rho_ruff
    if not (lho | rho) & m:
        # both opponents are void in the suit: each may discard any card, so every trick of it
        # widens the proof by all their discards. Lead it last (a winner stays a winner): on one
        # deal, running such a suit early took over 1,000 times the plays (DDS has a term like
        # it); bridge -10 to -22 % card plays
        return 500 - r
    if hp & top:
        if r == 12:
            sc = 7500 if not risk else 5000
            if trump < 4:
                sc -= 2000  # in a suit contract: after a ruff for the partner (round 2)
            if s == trump:
                sc += 200
            return sc
        return 2000 - r  # underleading one's own top card
    if pt & top:
        return (8000 if not risk else 4500) - r
    if ruffable and not pt & m and pt & tm:
        # the partner ruffs: it stands unless an opponent void in s overruffs
        ptop = high_bit(pt & tm)
        over = (lho_ruff and high_bit(lho & tm) > ptop) or (rho_ruff and high_bit(rho & tm) > ptop)
        if not over:
            return 7800 - r
    sc = 3000 - r + 20 * popcount((hp | pt) & m & ~(U(1) << U(c)))
    if risk:
        sc -= 500
    # an opponent holds the top card here. A lead is at a trick boundary, where the live cards of
    # each suit hold its highest ranks (``canonical``): the next two cards are the two ranks below
    # the top (a bit nobody holds when the suit has fewer live cards)
    second = top >> U(1)
    third = top >> U(2)
    # later when the fourth hand holds one of the two top cards (he plays over whatever comes;
    # unless it is his only card of the suit), sooner when the second hand holds the top card and
    # the partner the next (unless the partner's card is his only one)
    if rho & (top | second):
        if popcount(rho & m) != 1:
            sc -= 800
    elif lho & top and pt & second and popcount(pt & m) != 1:
        sc += 1500
    if (hp | pt) & second and (hp | pt) & third:
        sc += 2000  # the side holds the 2nd and 3rd cards: the top after one round
    return sc


@numba.njit(**INLINE)
def _stands(h0, h1, h2, h3, leader, k, w, led, trump, good):
    """Does card ``w`` (winning the trick so far) stand against every seat still to play after
    position ``k`` (0 = the leader) that is not in ``good``?"""
    for j in range(k + 1, 4):
        q = (leader + j) & 3
        if not (good >> q) & 1 and _can_beat(_hand(h0, h1, h2, h3, q), w, led, trump):
            return False
    return True


@numba.njit(**INLINE)
def _partner_covers(h0, h1, h2, h3, leader, t0, led, trump):
    """Second hand (pair): can the fourth hand (the mover's partner) beat the led card ``t0``
    with a card that the third hand (the leader's partner) cannot beat? Order only."""
    p4 = _hand(h0, h1, h2, h3, (leader + 3) & 3)
    p3 = _hand(h0, h1, h2, h3, (leader + 2) & 3)
    f = p4 & SUITM[led]
    if f:
        x = high_bit(f)
    elif trump < 4 and p4 & SUITM[trump]:
        x = high_bit(p4 & SUITM[trump])
    else:
        return False
    return _beats(x, t0, trump) and not _can_beat(p3, x, led, trump)


@numba.njit(**INLINE)
def _stop_lead_score(h0, h1, h2, h3, player, c, trump, good):
    """Ordering score of leading card ``c`` (canonical) for one of three seats that keep the lone
    seat ``15 ^ good`` from tricks (whist-max; whist-exact while p wants tricks); higher is tried
    first. Only the speed depends on it, never a result.

    The three need no tricks of their own, only to beat the lone seat. Tried first: a side suit he
    is void in and cannot ruff (he discards); then a suit where they hold two or more cards above
    his highest (safe, and a guard is left); then a side suit he can ruff (it shortens his trumps);
    then a suit where a single card of theirs is above his (that promotes his top card); then
    trumps when he has none (they only free his winners); last a lead he wins. Low cards first.
    (Tuned on card plays of whist-max full deals: 5-18 % fewer than the general order.)
    """
    s = _suit(c)
    r = c - 13 * s
    m = SUITM[s]
    q = ctz(U(15 ^ good))
    hq = _hand(h0, h1, h2, h3, q)
    f = hq & m
    if f == 0:
        if s == trump:
            return 3500 - r  # he has no trumps: drawing theirs only frees his winners
        if trump == 4 or hq & SUITM[trump] == 0:
            return 9500 - r
        return 6000 - r
    x = high_bit(f)
    above = (h0 | h1 | h2 | h3) & ~hq & m & ~((U(2) << U(x)) - U(1))
    if c < x and above & ~_hand(h0, h1, h2, h3, player) == 0:
        return 1000 - r  # no partner can beat his top card: he wins this lead
    if popcount(above) >= 2:
        return 8000 - r
    return 4000 - r


@numba.njit(**LINKED)
def _gen_moves(h0, h1, h2, h3, k, leader, t0, t1, t2, trump, good, best_card, kill_card, WM, d,
               scores):
    """Write the ordered candidate cards of the player to move into ``WM[d]``; return their
    number. (The workspace array and the depth are passed, not the view ``WM[d]``: a view costs
    reference counting on every node; the helper is inlined into the search by LLVM.)

    Only one card of each run of touching cards is listed (equivalent ranks). ``t0..t2``: the
    cards already played to this trick (``k`` of them). ``good``: the seats the mover would like
    to see win this trick. ``best_card``: a card to try first (from the transposition table) or
    -1. ``kill_card``: the killer move, the lead that most recently cut at this depth with the
    same leader after the first lead tried had failed (-1 for none; only leads have one), tried
    before ``best_card``. The order only affects speed, never a result.
    """
    player = (leader + k) & 3
    h = _hand(h0, h1, h2, h3, player)
    led = -1
    if k == 0:
        legal = h
    else:
        led = _suit(t0)
        legal = h & SUITM[led]
        if legal == 0:
            legal = h
    reps = legal & ~((legal >> U(1)) & NOT_TOPS)  # the top card of every run
    mover_good = (good >> player) & 1
    w = -1
    w_good = 0
    if k > 0:
        w, wi = _winning_so_far(k, t0, t1, t2, trump)
        w_good = (good >> ((leader + wi) & 3)) & 1
    # [ord] whist objectives (one seat against three): a partner's winning card that the lone
    # opponent still to play can beat is no sure winner; the mover then plays as if the trick
    # were lost so far (a card that surely wins, else the highest that beats, else the lowest).
    # Order only: the set of moves searched is unchanged.
    threat = (w_good == 1 and popcount(U(good)) == 3
              and not _stands(h0, h1, h2, h3, leader, k, w, led, trump, good))
    # bridge (the mover and his partner against the other two): own orderings, marked [pair]
    pair = popcount(U(good)) == 2
    n = 0
    m = reps
    while m:
        c = ctz(m)
        m &= m - U(1)
        s = _suit(c)
        r = c - 13 * s
        if c == kill_card:
            sc = 110000
        elif c == best_card:
            sc = 100000
        elif k == 0 and pair:
            sc = _pair_lead_score(h0, h1, h2, h3, player, c, trump)  # [pair] leads
        elif k == 0 and mover_good and popcount(U(good)) == 3:
            sc = _stop_lead_score(h0, h1, h2, h3, player, c, trump, good)  # [stop] leads
        elif k == 0:
            top_bit = U(1) << U(13 * s + 12)
            top_owner = -1
            for q in range(4):
                if _hand(h0, h1, h2, h3, q) & top_bit:
                    top_owner = q
            top_good = top_owner >= 0 and (good >> top_owner) & 1
            # can a seat we do not want to win ruff this suit?
            ruff_risk = False
            if trump < 4 and s != trump:
                for q in range(4):
                    if q != player and not (good >> q) & 1:
                        hq = _hand(h0, h1, h2, h3, q)
                        if hq & SUITM[s] == 0 and hq & SUITM[trump]:
                            ruff_risk = True
            if mover_good:
                # the lone seat wanting tricks (bridge pairs and the three have their own orders
                # above): cash a top card, else lead low, from a suit where he has more cards
                if top_owner == player and r == 12:
                    sc = 9000 if not ruff_risk else 5000
                    if s == trump:
                        sc += 200
                else:
                    sc = 3000 - r + 20 * popcount(h & SUITM[s] & ~(U(1) << U(c)))
                    if ruff_risk:
                        sc -= 500
            else:
                # the mover wants someone else to take the trick: lead low, into their winners
                sc = 5000 - 2 * r
                if top_good:
                    sc += 1000
                sc += _push_lead_bonus(h0, h1, h2, h3, c, good)
        else:
            b = _beats(c, w, trump)
            last = k == 3
            # would the card stand against the players still to play who should not win?
            sure = b
            if b and not last:
                for j in range(k + 1, 4):
                    q = (leader + j) & 3
                    if not (good >> q) & 1 and _can_beat(_hand(h0, h1, h2, h3, q), c, led, trump):
                        sure = False
            if (pair and k == 2 and w_good
                    and not _stands(h0, h1, h2, h3, leader, k, w, led, trump, good)):
                # [pair] third hand: the partner's card would be beaten by the fourth hand, so
                # play as if the trick were lost so far (win cheaply if sure, else high, else low)
                if sure:
                    sc = 9000 - r
                elif b:
                    sc = 5000 + r
                else:
                    sc = 4000 - r
            elif pair and k == 1 and not sure and _partner_covers(
                    h0, h1, h2, h3, leader, t0, led, trump):
                # [pair] second hand: the partner (fourth hand) can win over anything the third
                # hand plays, so play low (do not waste a card that cannot win surely)
                sc = 6000 - r - (2000 if b else 0)
            elif mover_good:
                if w_good and not threat:
                    # a partner is winning: play low, do not overtake
                    sc = 6000 - r - (2000 if b else 0)
                elif (not b and not w_good and popcount(U(good)) == 3 and k < 3
                      and not _stands(h0, h1, h2, h3, leader, k, w, led, trump, 15 ^ good)):
                    sc = 9500 - r  # a partner still to play beats the lone seat's card: duck
                elif sure:
                    sc = 9000 - r  # the cheapest card that surely wins
                elif b and popcount(U(good)) == 1:
                    # the lone seat (whist-max; whist-exact while he wants tricks) tries the
                    # cheapest card that beats the trick so far but may be beaten after him
                    # (the highest first, as the three do, took about 10 % more whist-max plays)
                    sc = 5000 - r
                elif b and pair and k == 1:
                    sc = 5000 - r  # [pair] second hand: the cheapest beater first
                elif b:
                    sc = 5000 + r  # try to win: highest first
                else:
                    sc = 4000 - r
                    if s != led and popcount(U(good)) == 1:
                        # the lone seat's discards: keep his trumps (ruffs may come), throw
                        # first from a suit where the others hold as many cards above his
                        # highest as he holds (about -2 % whist-max plays)
                        if s == trump:
                            sc -= 100
                        else:
                            mine = h & SUITM[s]
                            theirs = (h0 | h1 | h2 | h3) & SUITM[s] & ~mine
                            if popcount(theirs & _above(high_bit(mine))) >= popcount(mine):
                                sc += 20
            else:
                if not b:
                    sc = 8000 + r  # dump the highest card that does not win
                else:
                    sc = 3000 - r
        if pair and k > 0 and s != led and s != trump and c != best_card:
            # [pair] a discard: from the mover's longest suit first (then the lowest card)
            sc += 13 * popcount(h & SUITM[s])
        j = n
        while j > 0 and scores[j - 1] < sc:
            scores[j] = scores[j - 1]
            WM[d, j] = WM[d, j - 1]
            j -= 1
        scores[j] = sc
        WM[d, j] = c
        n += 1
    return n
