"""The policies of docs/ENGINE.md §4-8 (random, heuristic, expert, planner, learned), readable.

A policy is any callable ``policy(state: DealState, rng: DealRng) -> action`` returning a legal
action for ``state.to_move`` (see :mod:`whist_sim.engine.state` for the action encodings). All seats
of a deal share the deal's one random stream, so a policy must draw from ``rng`` exactly as its
specification says, or the compiled engine will no longer reproduce the reference engine.

* ``random``: uniform over the legal actions, one draw per decision (three for a Frisch pass).
* ``heuristic``: hand evaluation in quarter tricks and simple card play; it never draws.
* ``expert``: card play that counts the cards, by integer keys per card; it never draws.
* ``planner``: ``expert``, giving up tricks it can spare while its sure tricks cover its need.
* ``learned``: integer weights over features of each card; it never draws.

The names, the descriptions (:data:`DESCRIPTIONS`) and which function plays which policy
(:data:`POLICIES`) are the registry's (:mod:`whist_sim.core.registry`, an entry's
``reference``), the one the compiled engine reads: the two engines name their policies alike.

Estimates are integers in **quarter tricks** (``q``): 4 q = one trick.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.bid_features import CLASS_LAST, position_class
from ..core.cards import (
    ACE,
    JACK,
    KING,
    NT,
    QUEEN,
    SUIT_MASKS,
    cards_of,
    hcp,
    rank_of,
    suit_length,
    suit_of,
)
from ..core.play_features import (
    F_DISCARD,
    F_DRAW,
    F_HIGHER,
    F_HIGHEST,
    F_LAST_TRUMP,
    F_LENGTH,
    F_LOWER,
    F_LOWEST,
    F_MASTER,
    F_MASTERS,
    F_NO_RETURN,
    F_RANK,
    F_RUFF_RISK,
    F_SIDE_VS_TRUMPS,
    F_SINGLETON,
    F_SUIT_OUT,
    F_SURE,
    F_TRUMP,
    F_WINS,
    FEATURES,
    FITTED,
    N_FEATURES,
)
from ..core.registry import BID_POLICIES, PLAY_POLICIES
from ..core.rng import DealRng
from ..core.rules import FRISCH_CARDS, Rules, deck_of
from .learned_bidding import contract_features, contract_values
from .state import PASS, DealState, bid_code

Policy = Callable[[DealState, DealRng], int]

# --------------------------------------------------------------------------- random (ENGINE §4)


def random_policy(state: DealState, rng: DealRng) -> int:
    """Uniform random legal action (docs/ENGINE.md §4).

    Every decision draws exactly once: ``legal[rng.below(len(legal))]`` over the legal actions in
    the order of :meth:`DealState.legal_actions`. A Frisch pass is three decisions: the
    ``below(H)``-th card (ascending) of the hand, then the ``below(H - 1)``-th of the remaining
    cards, then the ``below(H - 2)``-th.
    """
    if state.phase == "frisch":
        rest = cards_of(state.hand(state.to_move))
        mask = 0
        for _ in range(FRISCH_CARDS):
            card = rest.pop(rng.below(len(rest)))
            mask |= 1 << card
        return mask
    legal = state.legal_actions()
    if not legal:
        raise ValueError(f"no action to choose: the deal is {state.phase}")
    return legal[rng.below(len(legal))]


# --------------------------------------------------------------------------- estimates (ENGINE §5)

#: the default ``nt_hcp`` (the compiled strategies' too): 0 = the deck's minimum, :func:`nt_minimum`
NT_HCP = 0
#: the NT rule's high-card minimum with four players (docs/STRATEGIES.md)
NT_HCP_FOUR = 20
#: the NT rule's high-card minimum with three players (docs/STRATEGIES.md)
NT_HCP_THREE = 14
#: the most cards an NT hand may hold (the one_random deck's 17-card hands: never)
NT_MAX_CARDS = 13
#: the longest suit an NT hand may hold (balanced)
NT_MAX_LENGTH = 5


def est_q(hand: int, strain: int, rules: Rules | None = None, nt_hcp: int = NT_HCP) -> int:
    """Trick estimate of ``hand`` with ``strain`` as trump (0..3 suit, 4 = NT), in quarter tricks.

    Per suit ``s`` of length ``L`` (honours only if held): A +4; K +3 if ``L >= 2`` else +1;
    Q +2 if ``L >= 3``. In the trump suit also J +1 if ``L >= 4`` and length ``4 * (L - 3)`` if
    ``L > 3``. In NT, length ``2 * (L - 4)`` for ``L > 4``. With a trump suit of length ``T >= 1``,
    ruffing value (void 8, singleton 4, doubleton 2 in each other suit) capped at ``4 * (T - 1)``.
    In NT, an NT hand (:func:`nt_hand` with ``nt_hcp``; 0: the deck's minimum,
    :func:`nt_minimum`; negative: never) is worth at least its best suit.

    With ``rules`` (the deck of the deal; default: four players): a suit the deck lacks (clubs in
    the ``no_suit`` deck) gives no ruffing value and needs no stopper, and every strain gets
    :func:`deck_adjust_q`.
    """
    low = 0 if rules is None else rules.lowest_strain
    players = 4 if rules is None else rules.players
    if strain == NT and nt_hand(hand, low, nt_minimum(nt_hcp, players)):
        return max(_est_q(hand, t, rules) for t in range(NT + 1))
    return _est_q(hand, strain, rules)


def _est_q(hand: int, strain: int, rules: Rules | None) -> int:
    """:func:`est_q` without the NT rule."""
    total = 0
    for s in range(4):
        length = suit_length(hand, s)

        def has(rank: int, s: int = s) -> bool:
            return bool(hand >> (13 * s + rank) & 1)

        if has(ACE):
            total += 4
        if has(KING):
            total += 3 if length >= 2 else 1
        if has(QUEEN) and length >= 3:
            total += 2
        if s == strain:
            if has(JACK) and length >= 4:
                total += 1
            if length > 3:
                total += 4 * (length - 3)
        if strain == NT and length > 4:
            total += 2 * (length - 4)
    if strain != NT:
        trumps = suit_length(hand, strain)
        if trumps >= 1:
            ruff = 0
            for s in range(4):
                if s == strain or (rules is not None and s < rules.lowest_strain):
                    continue
                ruff += {0: 8, 1: 4, 2: 2}.get(suit_length(hand, s), 0)
            total += min(ruff, 4 * (trumps - 1))
    return total + (0 if rules is None else deck_adjust_q(rules))


def is_stopper(hand: int, s: int) -> bool:
    """Suit ``s`` of ``hand`` is stopped: the A, the K with two cards or more, the Q with three
    or more, or the J with four or more."""
    length = suit_length(hand, s)
    return any(hand >> (13 * s + rank) & 1 and length >= need
               for rank, need in ((ACE, 1), (KING, 2), (QUEEN, 3), (JACK, 4)))


def nt_minimum(nt_hcp: int, players: int) -> int:
    """The NT rule's high-card minimum for a deal of ``players``: ``nt_hcp``, or when it is 0
    the deck's default (:data:`NT_HCP_FOUR` with four players, :data:`NT_HCP_THREE` with
    three); negative (no NT rule) stays negative."""
    if nt_hcp != 0:
        return nt_hcp
    return NT_HCP_FOUR if players == 4 else NT_HCP_THREE


def nt_hand(hand: int, low_suit: int = 0, nt_hcp: int = NT_HCP_FOUR) -> bool:
    """An NT hand (docs/ENGINE.md §5): in every suit of the deck (``low_suit..3``) two to
    :data:`NT_MAX_LENGTH` cards and a stopper, at most one doubleton, ``nt_hcp`` high-card points
    or more (never when ``nt_hcp < 0``), and at most :data:`NT_MAX_CARDS` cards. Blind to the
    names of the suits."""
    if nt_hcp < 0:
        return False
    lengths = [suit_length(hand, s) for s in range(low_suit, 4)]
    return (min(lengths) >= 2 and max(lengths) <= NT_MAX_LENGTH and lengths.count(2) <= 1
            and sum(lengths) <= NT_MAX_CARDS
            and all(is_stopper(hand, s) for s in range(low_suit, 4))
            and hcp(hand, low_suit) >= nt_hcp)


def deck_adjust_q(rules: Rules) -> int:
    """Quarter tricks added to every estimate for the deck of ``rules``: its share
    ``4 * (N - 13) // P`` of the tricks it has more (or fewer) than the four-player deal
    (0 with four players and with ``no_suit``; -2 with ``no_low``; +5 with ``one_random``)."""
    return (4 * (rules.n_tricks - 13)) // rules.players


def est(hand: int, strain: int, n_tricks: int = 13, rules: Rules | None = None) -> int:
    """Whole tricks: ``(est_q + 2) // 4`` (quarter tricks rounded), capped at ``n_tricks``."""
    return min((est_q(hand, strain, rules) + 2) // 4, n_tricks)


def best_strain(hand: int, n_tricks: int = 13) -> int:
    """The strain with the largest :func:`est`; ties go to the higher strain (NT highest)."""
    best = 0
    for t in range(5):
        if est(hand, t, n_tricks) >= est(hand, best, n_tricks):
            best = t
    return best


# --------------------------------------------------------------------------- heuristic (ENGINE §5)


def heuristic_call(state: DealState) -> int:
    """Auction: bid the cheapest legal level in the best strain if it is within the estimate.

    The best strain is the one with the largest :func:`est` among the strains with a legal bid
    now (ties: the higher strain); its cheapest legal level is :meth:`DealState.lowest_level`.
    """
    seat = state.to_move
    hand = state.hand(seat)
    n_tricks = state.n_tricks
    best, best_est = -1, -1
    for t in range(NT + 1):
        e = est(hand, t, n_tricks, state.rules)
        if state.lowest_level(t) is not None and e >= best_est:
            best, best_est = t, e
    if best < 0:  # pass_is_final after a pass, or nothing beats the bid
        return PASS
    level = state.lowest_level(best)
    assert level is not None
    if level <= best_est:
        return bid_code(level, best)
    return PASS


def frisch_key(hand: int, card: int) -> int:
    """Frisch order: ``rank * 64 + suit_length * 4 + suit`` (smallest is passed first)."""
    s = suit_of(card)
    return rank_of(card) * 64 + suit_length(hand, s) * 4 + s


def heuristic_frisch(state: DealState) -> int:
    """Frisch: pass the three cards with the smallest :func:`frisch_key` (low, short suits)."""
    hand = state.hand(state.to_move)
    chosen = sorted(cards_of(hand), key=lambda c: frisch_key(hand, c))[:FRISCH_CARDS]
    mask = 0
    for c in chosen:
        mask |= 1 << c
    return mask


def heuristic_contract(state: DealState) -> int:
    """Contract: the estimate in the trump strain, adjusted for the declarer's level and hook."""
    seat = state.to_move
    q = est_q(state.hand(seat), state.trump, state.rules)
    return contract_from_estimate(q, state.n_tricks, seat == state.declarer, state.level,
                                  state.legal_actions())


def contract_from_estimate(q: int, n: int, declarer: bool, level: int, legal: list[int]) -> int:
    """The heuristic's contract for an estimate of ``q`` quarter tricks in a deal of ``n``
    tricks: the estimate (at least the ``level`` for the ``declarer``, 0 for a non-declarer
    under one trick), or off the hooked number when that is not in ``legal``."""
    want = min((q + 2) // 4, n)
    if declarer:
        want = max(want, level)
    elif q < 4:
        want = 0
    if want in legal:
        return want
    # the wanted number is the last bidder's forbidden number
    if q >= 4 * want and want + 1 <= n:
        choice = want + 1
    else:
        choice = want - 1
    low = level if declarer else 0
    if choice < low:
        choice = want + 1
    return choice


def card_order(card: int) -> int:
    """Order for "highest"/"lowest" in play: ``rank * 4 + suit`` (rank first, then suit)."""
    return rank_of(card) * 4 + suit_of(card)


def _lowest(cards: list[int]) -> int:
    return min(cards, key=card_order)


def _highest(cards: list[int]) -> int:
    return max(cards, key=card_order)


def heuristic_card(state: DealState) -> int:
    """Play: take tricks while the contract is not yet made, otherwise duck (docs/ENGINE.md §5)."""
    seat = state.to_move
    hand = state.hand(seat)
    need = state.contracts[seat] - state.tricks_taken[seat]  # type: ignore[operator]
    wants = need > 0
    trump = state.trump
    cards = cards_of(hand)
    if not state.current_trick:  # leading
        return _highest(cards) if wants else _lowest(cards)
    last = len(state.current_trick) == state.players - 1
    led = state.led_suit
    follow = cards_of(hand & SUIT_MASKS[led])
    if follow:
        winners = [c for c in follow if state.would_win(c)]
        if wants:
            if winners:
                return _lowest(winners) if last else _highest(winners)
            return _lowest(follow)
        losers = [c for c in follow if not state.would_win(c)]
        if losers:
            return _highest(losers)
        return _highest(follow) if last else _lowest(follow)
    # void in the led suit
    trumps = [c for c in cards if suit_of(c) == trump]  # empty in NT
    others = [c for c in cards if suit_of(c) != trump]
    if wants:
        winning_trumps = [c for c in trumps if state.would_win(c)]
        if winning_trumps:
            return _lowest(winning_trumps)
        if others:
            return _lowest(others)
        return _lowest(trumps)
    if others:
        return _highest(others)
    losing_trumps = [c for c in trumps if not state.would_win(c)]
    if losing_trumps:
        return _highest(losing_trumps)
    return _lowest(trumps)


def heuristic_policy(state: DealState, rng: DealRng) -> int:
    """The documented baseline of docs/ENGINE.md §5; never draws from ``rng``."""
    if state.phase == "auction":
        return heuristic_call(state)
    if state.phase == "frisch":
        return heuristic_frisch(state)
    if state.phase == "contracts":
        return heuristic_contract(state)
    if state.phase == "play":
        return heuristic_card(state)
    raise ValueError(f"no action to choose: the deal is {state.phase}")


# --------------------------------------------------------------------------- expert (ENGINE §6)


def shown_voids(state: DealState) -> set[tuple[int, int]]:
    """``(seat, suit)`` pairs: the seat failed to follow that suit in the play so far (public)."""
    voids = set()
    tricks = [t for _, t in state.completed_tricks] + [state.current_trick]
    for trick in tricks:
        if not trick:
            continue
        led = suit_of(trick[0][1])
        for seat, card in trick[1:]:
            if suit_of(card) != led:
                voids.add((seat, led))
    return voids


def wants_trick(state: DealState) -> bool:
    """Does the seat to move want the trick in progress (docs/ENGINE.md §6)? While its contract
    can still be made it wants a trick when it needs one; once lost, when it follows, it lets the
    trick go to a zero bidder on zero or to a player who has its tricks, and takes it from a player
    who needs it and can still make it."""
    seat = state.to_move
    need = state.contracts[seat] - state.tricks_taken[seat]  # type: ignore[operator]
    left = state.n_tricks - state.trick_number
    if not state.current_trick or 0 <= need <= left:
        return need > 0
    w = state.trick_winner()
    cw = state.contracts[w]
    nw = cw - state.tricks_taken[w]  # type: ignore[operator]
    if cw == 0:
        return False if nw == 0 else need > 0
    if nw <= 0:
        return False
    if nw <= left:
        return True
    return need > 0


def _plays_low(state: DealState, suit: int, out: int) -> bool:
    """Second hand low (docs/ENGINE.md §6): the seat wants the trick, none of its cards of
    ``suit`` wins it surely, it holds one that loses, and a card of ``suit`` higher than its best
    winner is still out: it keeps its winners and plays a loser."""
    cards = [c for c in state.legal_actions() if suit_of(c) == suit]
    winners = [c for c in cards if state.would_win(c)]
    if len(winners) == len(cards):
        return False
    top = max(winners)
    return any(out >> c & 1 for c in range(top + 1, 13 * (suit + 1)))


def expert_key(state: DealState, card: int, out: int, voids: set[tuple[int, int]]) -> int:
    """The key of ``card`` for the seat to move (docs/ENGINE.md §6): larger is better."""
    seat = state.to_move
    hand = state.hand(seat)
    p = state.players
    trump = state.trump
    trick = state.current_trick
    pos = len(trick)
    s, r = suit_of(card), rank_of(card)
    is_trump = s == trump
    above = [c for c in range(card + 1, 13 * (s + 1))]
    higher = sum(1 for c in above if out >> c & 1)
    trumps_out = bin(out & SUIT_MASKS[trump]).count("1") if trump != NT else 0
    my_len = suit_length(hand, s)
    suit_out = bin(out & SUIT_MASKS[s]).count("1")
    wins = state.would_win(card)
    sure = wins
    if wins:
        lead_suit = s if pos == 0 else state.led_suit
        for k in range(pos + 1, p):
            o = (seat + k - pos) % p
            if s == lead_suit:
                if (o, s) not in voids:
                    beat = higher > 0
                else:
                    beat = trump != NT and s != trump and trumps_out > 0 and (o, trump) not in voids
            else:  # a ruff: over-ruffed by a seat void in the lead holding a higher trump
                beat = (o, lead_suit) in voids and (o, trump) not in voids and higher > 0
            if beat:
                sure = False
                break
    danger = r + 13 * is_trump
    if wants_trick(state):
        if pos == 0:
            my_trumps = suit_length(hand, trump) if trump != NT else 0
            if is_trump and higher == 0 and 0 < trumps_out < my_trumps:
                return 5000 + r
            if sure:
                return 4000 + 16 * suit_out + (13 - r)
            if not is_trump and my_len <= 2 and trumps_out > 0 and my_trumps > 0:
                return 3500 - 16 * my_len - r  # shorten a short side suit to ruff it later
            below_mine = r > 0 and hand >> (card - 1) & 1
            above_not_mine = r == 12 or not hand >> (card + 1) & 1
            if higher > 0 and below_mine and above_not_mine:
                return 3000 + 16 * my_len + r
            if not is_trump:
                return 2000 + 16 * my_len - r
            return 1000 - r
        if sure:
            return 4000 - danger
        if wins:
            return 1000 + danger if _plays_low(state, s, out) else 3000 + danger
        return 2000 - 16 * (danger + 13 * (higher == 0)) - my_len
    if pos == 0:
        if higher == 0:
            return 1000 - danger
        return 2000 + 16 * higher - danger
    if not wins:
        return 4000 + 16 * danger + my_len
    if not sure:
        return 3000 - danger
    return 2000 + danger


def suit_picture(state: DealState, suit: int, out: int, voids: set[tuple[int, int]]) -> tuple:
    """The tie-break of two equal keys (docs/ENGINE.md §6): the seat's own ranks in ``suit``, the
    ranks still out (13-bit patterns) and which of the seats after it have shown a void there."""
    seat = state.to_move
    p = state.players
    mine = state.hand(seat) >> (13 * suit) & 0x1FFF
    outs = out >> (13 * suit) & 0x1FFF
    shown = sum(1 << (k - 1) for k in range(1, p) if ((seat + k) % p, suit) in voids)
    return (mine, outs, shown)


def expert_card(state: DealState) -> int:
    """``expert`` play (docs/ENGINE.md §6): the legal card with the largest :func:`expert_key`,
    then the largest :func:`suit_picture`, then the lowest card code."""
    seat = state.to_move
    played = 0
    for c in state.plays:
        played |= 1 << c
    out = state.rules.deck_mask & ~played & ~state.hand(seat)
    voids = shown_voids(state)
    legal = state.legal_actions()
    return max(legal, key=lambda c: (expert_key(state, c, out, voids),
                                     suit_picture(state, suit_of(c), out, voids), -c))


def expert_policy(state: DealState, rng: DealRng) -> int:
    """The ``expert`` play policy (docs/ENGINE.md §6) with the heuristic's bidding; never draws."""
    if state.phase == "play":
        return expert_card(state)
    return heuristic_policy(state, rng)


# --------------------------------------------------------------------------- planner (ENGINE §7)

#: ``planner``'s default parameters (the registry's, tested equal): spare sure tricks it needs
#: before it gives a trick up; side-suit rounds counted beyond the others' average length while
#: trumps are out; at the lead: 0 never, 1 with the surest loser, 2 low from the longest suit;
#: 1: a spare master may go when following or discarding
PLANNER_MARGIN = 1
PLANNER_SIDE = 0
PLANNER_LEAD = 0
PLANNER_SHED = 1


def trick_counts(state: DealState, out: int, voids: set[tuple[int, int]],
                 side: int = PLANNER_SIDE) -> tuple[int, int, set[int]]:
    """The sure tricks of the seat to move (docs/ENGINE.md §7), its likely tricks (§8) and its
    masters.

    A master: a card above every card of its suit still out. Per suit of ``L`` cards with ``O``
    still out and ``k`` masters. Sure: the larger of ``k`` and the length tricks ``L - O`` (the
    others' cards all in one hand), in trumps and, once no trump is out, in every suit. Likely:
    there, ``max(k, L - m + min(k, m))`` with ``m = ceil(O / (players - 1))`` (the others' cards
    as evenly split as they can be). In a side suit while trumps are out: none when another seat
    has shown a void there and not in trumps, else ``k``, at most ``O // (players - 1) + side``
    (sure) or ``+ 1`` (likely)."""
    seat = state.to_move
    hand = state.hand(seat)
    p = state.players
    trump = state.trump
    trumps_out = bin(out & SUIT_MASKS[trump]).count("1") if trump != NT else 0
    sure = likely = 0
    masters: set[int] = set()
    for s in range(4):
        mine = [c for c in cards_of(hand) if suit_of(c) == s]
        if not mine:
            continue
        outs = [c for c in cards_of(out) if suit_of(c) == s]
        top = max(outs, default=-1)
        mast = [c for c in mine if c > top]
        masters.update(mast)
        k = len(mast)
        if s != trump and trumps_out > 0:
            if not any((o, s) in voids and (o, trump) not in voids for o in range(p) if o != seat):
                sure += min(k, len(outs) // (p - 1) + side)
                likely += min(k, len(outs) // (p - 1) + 1)
        else:
            m = -(-len(outs) // (p - 1))
            sure += max(k, len(mine) - len(outs))
            likely += max(k, len(mine) - m + min(k, m))
    return sure, likely, masters


def sure_tricks(state: DealState, out: int, voids: set[tuple[int, int]],
                side: int = PLANNER_SIDE) -> tuple[int, set[int]]:
    """The sure tricks of the seat to move and its masters (docs/ENGINE.md §7,
    :func:`trick_counts`)."""
    sure, _, masters = trick_counts(state, out, voids, side)
    return sure, masters


def planner_give_up(state: DealState, margin: int = PLANNER_MARGIN, side: int = PLANNER_SIDE,
                    lead: int = PLANNER_LEAD, shed: int = PLANNER_SHED) -> dict[int, int] | None:
    """The cards with which ``planner`` would give up the trick in progress, with their keys
    (larger is better), or None when it plays ``expert``'s card (docs/ENGINE.md §7).

    Only while the seat needs tricks and its :func:`sure_tricks` cover them with ``margin`` to
    spare; never a trump. Leading (``lead`` 1 or 2): the lowest card that is not a master of
    each suit, keyed by the cards of its suit still out above it (1) or by the seat's length in
    the suit (2). Following suit: the highest card of the led suit that does not win now (the
    only candidate). Discarding: the highest card of each suit, keyed by its rank. Following and
    discarding, masters are kept unless ``shed=1``."""
    seat = state.to_move
    need = state.contracts[seat] - state.tricks_taken[seat]  # type: ignore[operator]
    legal = state.legal_actions()
    if need <= 0 or len(legal) < 2:
        return None
    hand = state.hand(seat)
    out = _out(state)
    voids = shown_voids(state)
    sure, masters = sure_tricks(state, out, voids, side)
    if sure < need + margin:
        return None
    side_cards = [c for c in legal if suit_of(c) != state.trump]
    free = [c for c in side_cards if c not in masters]
    keys: dict[int, int]
    if not state.current_trick:
        if not lead:
            return None
        lows = {s: min(c for c in free if suit_of(c) == s) for s in {suit_of(c) for c in free}}
        if lead == 1:
            keys = {c: sum(1 for x in cards_of(out) if suit_of(x) == s and x > c)
                    for s, c in lows.items()}
        else:
            keys = {c: suit_length(hand, s) for s, c in lows.items()}
        return keys or None
    pool = side_cards if shed else free
    if suit_of(legal[0]) == state.led_suit:  # following suit (every legal card is)
        losers = [c for c in pool if not state.would_win(c)]
        keys = {max(losers): 0} if losers else {}
    else:
        highs = {s: max(c for c in pool if suit_of(c) == s) for s in {suit_of(c) for c in pool}}
        keys = {c: rank_of(c) for c in highs.values()}
    return keys or None


def planner_card(state: DealState, margin: int = PLANNER_MARGIN, side: int = PLANNER_SIDE,
                 lead: int = PLANNER_LEAD, shed: int = PLANNER_SHED) -> int:
    """``planner`` play (docs/ENGINE.md §7): the :func:`planner_give_up` card with the largest
    key, then the largest :func:`suit_picture`, then the lowest card code; else
    :func:`expert_card`."""
    keys = planner_give_up(state, margin, side, lead, shed)
    if keys is None:
        return expert_card(state)
    out = _out(state)
    voids = shown_voids(state)
    return max(keys, key=lambda c: (keys[c], suit_picture(state, suit_of(c), out, voids), -c))


def planner_policy(state: DealState, rng: DealRng) -> int:
    """The ``planner`` play policy (docs/ENGINE.md §7, default parameters) with the heuristic's
    bidding; never draws."""
    if state.phase == "play":
        return planner_card(state)
    return heuristic_policy(state, rng)


# --------------------------------------------------------------------------- learned (ENGINE §8)

#: the features of a card, in the order of a row of :data:`whist_sim.core.play_features.FITTED`
#: (docs/ENGINE.md §8): the one table, :data:`whist_sim.core.play_features.FEATURES`
LEARNED_FEATURES = FEATURES


def learned_context(state: DealState, out: int, voids: set[tuple[int, int]]) -> int:
    """The situation of the seat to move, ``0..251`` (docs/ENGINE.md §8):
    ``(((position * 7 + need) * 3 + winner) * 2 + declarer) * 2 + over``."""
    seat = state.to_move
    p = state.players
    pos = len(state.current_trick)
    posc = 0 if pos == 0 else (2 if pos == p - 1 else 1)
    need = state.contracts[seat] - state.tricks_taken[seat]  # type: ignore[operator]
    left = state.n_tricks - state.trick_number
    if need < 0 or need > left:
        status = 3
    elif need == 0:
        status = 2
    else:
        sure, likely, _ = trick_counts(state, out, voids, 0)
        if sure < need:
            status = 0 if likely < need else (5 if likely == need else 6)
        else:
            status = 1 if sure == need else 4
    winner = 0
    if pos > 0:
        w = state.trick_winner()
        nw = state.contracts[w] - state.tricks_taken[w]  # type: ignore[operator]
        winner = 1 if nw <= 0 else (2 if nw > left else 0)
    decl = int(state.declarer == seat)
    return (((posc * 7 + status) * 3 + winner) * 2 + decl) * 2 + int(state.over)


def learned_features(state: DealState, card: int, out: int,
                     voids: set[tuple[int, int]]) -> tuple[int, ...]:
    """The :data:`LEARNED_FEATURES` of ``card`` for the seat to move (docs/ENGINE.md §8)."""
    seat = state.to_move
    hand = state.hand(seat)
    p = state.players
    trump = state.trump
    trick = state.current_trick
    pos = len(trick)
    s = suit_of(card)
    is_trump = int(s == trump)
    trumps_out = bin(out & SUIT_MASKS[trump]).count("1") if trump != NT else 0
    outs = [c for c in cards_of(out) if suit_of(c) == s]
    mine = [c for c in cards_of(hand) if suit_of(c) == s]
    higher = sum(1 for c in outs if c > card)
    top = max(outs, default=-1)
    later = [(seat + k) % p for k in range(1, p - pos)]
    follow = any((o, s) not in voids for o in later)  # a later seat may follow suit s

    def ruff(suit: int) -> bool:  # a later seat void in a side suit may ruff it
        return (trump != NT and suit != trump and trumps_out > 0
                and any((o, suit) in voids and (o, trump) not in voids for o in later))

    rf = ruff(s)
    masters = sum(1 for c in mine if c > top)
    my_trumps = sum(1 for c in cards_of(hand) if suit_of(c) == trump) if trump != NT else 0
    all_masters = trick_counts(state, out, voids)[2]
    side_loser = any(any(suit_of(c) == t for c in cards_of(hand))
                     and not any(suit_of(c) == t for c in all_masters)
                     for t in range(4) if t != trump)  # a side suit held without a master
    wins = int(state.would_win(card))
    if not wins:
        sure = 0
    elif pos == 0 or s == state.led_suit:
        sure = int(not rf and (higher == 0 or not follow))
    else:  # a ruff: over-ruffed only by a later seat void in the led suit holding a higher trump
        sure = int(higher == 0 or not ruff(state.led_suit))
    f = [0] * N_FEATURES  # each feature written under its index constant
    f[F_WINS] = wins
    f[F_SURE] = sure
    f[F_TRUMP] = is_trump
    f[F_MASTER] = int(higher == 0)
    f[F_HIGHER] = min(higher, 6)
    f[F_LOWER] = min(len(outs) - higher, 6)
    f[F_RANK] = rank_of(card)
    f[F_LENGTH] = len(mine)
    f[F_SUIT_OUT] = len(outs)
    f[F_LOWEST] = int(card == min(mine))
    f[F_HIGHEST] = int(card == max(mine))
    f[F_RUFF_RISK] = int(rf)
    f[F_MASTERS] = masters
    f[F_DISCARD] = int(pos > 0 and s != state.led_suit and not is_trump)
    f[F_SINGLETON] = int(len(mine) == 1)
    f[F_DRAW] = int(pos == 0 and is_trump == 1 and trumps_out > 0)
    f[F_NO_RETURN] = int(pos == 0 and masters == 0 and my_trumps == is_trump)
    f[F_LAST_TRUMP] = int(is_trump == 1 and my_trumps == 1 and side_loser)
    f[F_SIDE_VS_TRUMPS] = min(trumps_out, 6) if pos == 0 and not is_trump else 0
    return tuple(f)


def learned_scores(state: DealState) -> dict[int, int]:
    """The score of every legal card of the seat to move (docs/ENGINE.md §8): the sum of its
    :func:`learned_features` times the weights of its :func:`learned_context`."""
    return _learned_scores(state, _out(state), shown_voids(state))


def _learned_scores(state: DealState, out: int, voids: set[tuple[int, int]]) -> dict[int, int]:
    """:func:`learned_scores` with ``out`` and the voids shown given."""
    model = FITTED[deck_of(state.rules.players, state.rules.three_player_deck)]  # its deck's
    row = model[learned_context(state, out, voids)]
    return {c: sum(w * f for w, f in zip(row, learned_features(state, c, out, voids),
                                         strict=True))
            for c in state.legal_actions()}


def learned_card(state: DealState) -> int:
    """``learned`` play (docs/ENGINE.md §8): the legal card with the largest score; ties go
    (same suit) to the lower card, then to the larger :func:`suit_picture`, then to the lower
    card code."""
    legal = sorted(state.legal_actions())
    if len(legal) == 1:
        return legal[0]
    out = _out(state)
    voids = shown_voids(state)
    scores = _learned_scores(state, out, voids)
    best = legal[0]
    for c in legal[1:]:
        if scores[c] > scores[best]:
            best = c
        elif (scores[c] == scores[best] and suit_of(c) != suit_of(best)
              and suit_picture(state, suit_of(c), out, voids)
              > suit_picture(state, suit_of(best), out, voids)):
            best = c
    return best


# ------------------------------------------------------------------ learned bidding (STRATEGIES)


def learned_contract(state: DealState) -> int:
    """The ``learned`` bidder's contract: the legal number of the largest
    :func:`contract_values` (ties: the smaller number)."""
    seat = state.to_move
    earlier = [c for c in state.contracts if c is not None]
    cls = position_class(seat == state.declarer, len(earlier), state.rules.players)
    n = state.n_tricks
    over_known = -1
    if cls == CLASS_LAST:
        over_known = 1 if sum(earlier) > n else 0
    hand = state.hand(seat)
    q = est_q(hand, state.trump, state.rules)
    feats = contract_features(hand, state.trump, earlier, q, state.rules)
    values = contract_values(feats, cls, state.legal_actions(), n, over_known, state.rules)
    return max(values, key=values.__getitem__)  # the first of the largest: the smaller number


def learned_policy(state: DealState, rng: DealRng) -> int:
    """``learned``: the heuristic's auction calls and Frisch passes, the ``learned`` contract
    (:func:`learned_contract`) and the ``learned`` play (docs/ENGINE.md §8); never draws."""
    if state.phase == "play":
        return learned_card(state)
    if state.phase == "contracts":
        return learned_contract(state)
    return heuristic_policy(state, rng)


def _out(state: DealState) -> int:
    """The cards still out for the seat to move: the deck less the cards played (this trick
    included) and its own hand."""
    played = 0
    for c in state.plays:
        played |= 1 << c
    return state.rules.deck_mask & ~played & ~state.hand(state.to_move)


# --------------------------------------------------------------------------- registry
#
# One naming for both engines: the registry (whist_sim/core/registry.py) names every policy, holds
# its description, and says which function of this module is its reference twin (an entry's
# ``reference``); the tables below are read from it, not written here.

#: the bidding of a reference policy that the registry knows as a play policy only (``expert``,
#: ``planner``, ``learned``): their functions here bid as ``heuristic`` (:func:`heuristic_policy`)
PLAY_ONLY_BIDDING = "heuristic"


def _reference_policies() -> dict[str, Policy]:
    """The reference policies by name: for every registry entry, of either kind, whose
    ``reference`` names a function of this module, that function; the bidding strategy and the
    play policy of one name (``random``, ``heuristic``) must name the same one."""
    out: dict[str, Policy] = {}
    for reg in (BID_POLICIES, PLAY_POLICIES):
        for info in reg.values():
            if info.reference is None:
                continue
            func = globals().get(info.reference)
            if not callable(func):
                raise ImportError(f"the registry's {info.kind} policy {info.name!r} names the "
                                  f"reference policy {info.reference!r}, which "
                                  f"whist_sim.engine.policies does not define")
            if out.setdefault(info.name, func) is not func:
                raise ImportError(f"the registry names two reference policies for "
                                  f"{info.name!r}: {out[info.name].__name__} and "
                                  f"{info.reference}")
    return out


def _description(name: str) -> str:
    """What the reference policy ``name`` does, from the registry's descriptions: its bidding
    (the bidding strategy's entry, or :data:`PLAY_ONLY_BIDDING`'s for a play policy only) and
    its play (the play policy's entry)."""
    bid = BID_POLICIES.get(name)
    play = PLAY_POLICIES.get(name)
    own_bid = bid is not None and bid.reference is not None
    bids = bid.description if own_bid and bid is not None else (
        f"as {PLAY_ONLY_BIDDING} ({BID_POLICIES[PLAY_ONLY_BIDDING].description})")
    plays = play.description if play is not None and play.reference is not None else (
        f"as {name} bids")
    return f"bidding: {bids}; play: {plays}"


#: the reference policies by name (a registry entry's ``reference``): each answers every
#: decision of a deal
POLICIES: dict[str, Policy] = _reference_policies()

#: what each reference policy does, from the registry's descriptions (:func:`_description`)
DESCRIPTIONS: dict[str, str] = {name: _description(name) for name in POLICIES}


def get_policy(policy: str | Policy) -> Policy:
    """The policy named ``policy`` (``'random'``, ``'heuristic'``); a callable is returned as is."""
    if callable(policy):
        return policy
    try:
        return POLICIES[policy]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown policy {policy!r} (use one of {', '.join(sorted(POLICIES))} or a callable)"
        ) from None


__all__ = [
    "DESCRIPTIONS",
    "PLAY_ONLY_BIDDING",
    "POLICIES",
    "Policy",
    "best_strain",
    "card_order",
    "est",
    "est_q",
    "nt_hand",
    "nt_minimum",
    "expert_card",
    "expert_key",
    "expert_policy",
    "LEARNED_FEATURES",
    "learned_card",
    "learned_context",
    "learned_features",
    "learned_policy",
    "learned_scores",
    "planner_card",
    "planner_give_up",
    "planner_policy",
    "sure_tricks",
    "trick_counts",
    "wants_trick",
    "frisch_key",
    "get_policy",
    "heuristic_call",
    "heuristic_card",
    "heuristic_contract",
    "heuristic_frisch",
    "heuristic_policy",
    "random_policy",
]
