"""What the player knows, checked against the rules: the :class:`Scenario` of an advice.

:func:`resolve_scenario` turns the inputs of :func:`whist_sim.analyses.advisor.advise` (the hand,
the trump, the declarer and his level, the contracts already bid, the player's seat, constraints on
the hidden hands and cards known to be in other hands) into a :class:`Scenario`, or raises
:class:`AdviceError` naming the problem. This is the bottom module of the advisor: it imports no
other module of it, and every other module may import it.

Conventions:

* seats are ``0..P-1`` clockwise (RULES §1); the player's bidding position is
  ``(seat - declarer) % P`` (0 = declarer, ``P-1`` = the hooked last bidder);
* strains are ``0..4`` (C, D, H, S, NT; ``whist_sim.core.cards.STRAINS``); hands and known cards are
  ``uint64``-style bit masks (bit ``i`` = card ``i``, docs/ENGINE.md);
* bids are contracts in tricks ``0..N``; ``bids`` lists the contracts already bid in bidding order,
  the declarer's first;
* every bad input raises :class:`AdviceError` (a ``ValueError``) with a message for the user;
  nothing is printed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.cards import (
    NT,
    STRAINS,
    SUIT_MASKS,
    SUIT_SYMBOLS,
    SUITS,
    CardSet,
    NotationError,
    card_str,
    cards_of,
    format_hand,
    parse_card,
    parse_hand,
)
from ...core.rules import FIRST_MIN_LEVEL, Rules
from ...engine.state import (
    PASS,
    DealState,
    IllegalAction,
    bid_code,
    call_level,
    call_str,
    call_strain,
    parse_call,
)

__all__ = [
    "AdviceError",
    "Scenario",
    "check_int",
    "auction_text",
    "parse_auction",
    "parse_constraint",
    "parse_strain",
    "resolve_scenario",
]

_HCP_MAX = 40


class AdviceError(ValueError):
    """Bad input to the advisor (hand, bids, seats, constraints) or conditions too rare."""


# --------------------------------------------------------------------------- parsing


def parse_strain(value: str | int) -> int:
    """Strain code of ``'C' 'D' 'H' 'S' 'NT'`` (also ``N``, ♣♦♥♠, lower case) or of ``0..4``."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        if 0 <= int(value) <= NT:
            return int(value)
        raise AdviceError(f"strain {value!r} is not 0..4 (0..3 = C, D, H, S; 4 = NT)")
    if not isinstance(value, str):
        raise AdviceError(f"strain {value!r}: expected C, D, H, S or NT")
    t = value.strip()
    if t.upper() in ("NT", "N"):
        return NT
    if len(t) == 1 and t.upper() in SUITS:
        return SUITS.index(t.upper())
    if len(t) == 1 and t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    raise AdviceError(f"strain {value!r}: expected C, D, H, S or NT")


def _parse_range(text: str, where: str, top: int) -> tuple[int, int]:
    t = text.strip()
    try:
        if "-" in t:
            a, b = t.split("-", 1)
            lo = int(a) if a.strip() else 0
            hi = int(b) if b.strip() else top
        else:
            lo = hi = int(t)
    except ValueError:
        raise AdviceError(f"{where}: range {text!r} is not N, N-M, N- or -M") from None
    if not 0 <= lo <= hi <= top:
        raise AdviceError(f"{where}: range {text!r} must satisfy 0 <= low <= high <= {top}")
    return lo, hi


def parse_constraint(text: str, hand_size: int = 13) -> list[tuple[int, str, int, int]]:
    """Parse one constraint on a hidden hand: ``SEAT:KEY=RANGE``.

    KEY is a suit (``S``, ``H``, ``D``, ``C``: its length), ``hcp`` (high-card points, A=4 K=3
    Q=2 J=1) or ``void`` (RANGE is then one or more suits: ``1:void=S``, ``1:void=HD``). RANGE is
    ``N``, ``N-M``, ``N-`` or ``-M`` (bounds included). Returns ``(seat, key, low, high)`` items
    with key ``'C'``..``'S'`` or ``'hcp'``.

    >>> parse_constraint("1:hcp=10-15"), parse_constraint("2:void=H")
    ([(1, 'hcp', 10, 15)], [(2, 'H', 0, 0)])
    """
    where = f"constraint {text!r}"
    if not isinstance(text, str) or ":" not in text or "=" not in text:
        raise AdviceError(f"{where}: expected SEAT:KEY=RANGE, e.g. 1:S=0-2, 2:hcp=12-, 3:void=H")
    seat_text, rest = text.split(":", 1)
    key, value = rest.split("=", 1)
    try:
        seat = int(seat_text)
    except ValueError:
        raise AdviceError(f"{where}: seat {seat_text!r} is not a number") from None
    key = key.strip()
    if key.lower() == "hcp":
        lo, hi = _parse_range(value, where, _HCP_MAX)
        return [(seat, "hcp", lo, hi)]
    if key.lower() == "void":
        suits = value.strip()
        if not suits:
            raise AdviceError(f"{where}: name the suit(s), e.g. 1:void=S")
        out = []
        for ch in suits:
            s = _suit_letter(ch, where)
            out.append((seat, SUITS[s], 0, 0))
        return out
    if len(key) == 1:
        s = _suit_letter(key, where)
        lo, hi = _parse_range(value, where, hand_size)
        return [(seat, SUITS[s], lo, hi)]
    raise AdviceError(f"{where}: key {key!r} is not a suit (S H D C), hcp or void")


def _suit_letter(ch: str, where: str) -> int:
    if ch.upper() in SUITS:
        return SUITS.index(ch.upper())
    if ch in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(ch)
    raise AdviceError(f"{where}: unknown suit {ch!r} (use S H D C)")


def _hand_mask(hand: str | int | CardSet, rules: Rules, what: str = "hand") -> int:
    if isinstance(hand, CardSet):
        m = hand.mask
    elif isinstance(hand, (int, np.integer)) and not isinstance(hand, bool):
        m = int(hand)
        if not 0 <= m < 1 << 52:
            raise AdviceError(f"{what}: mask {m:#x} has bits outside the 52 cards")
    elif isinstance(hand, str):
        try:
            m = parse_hand(hand)
        except NotationError as e:
            raise AdviceError(str(e)) from None
    else:
        raise AdviceError(f"{what} {hand!r}: expected text such as AKQ2.K3.QJ54.872")
    n = m.bit_count()
    if n != rules.hand_size:
        raise AdviceError(f"{what} {format_hand(m)!r} has {n} cards, expected {rules.hand_size}")
    outside = m & ~rules.deck_mask
    if outside:
        raise AdviceError(
            f"{what} holds {' '.join(card_str(c) for c in cards_of(outside))}, which this deck "
            f"({rules.three_player_deck}, {rules.players} players) does not have"
        )
    return m


def _known_mask(value: str | int | Iterable, where: str) -> int:
    if isinstance(value, CardSet):
        return value.mask
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        m = 0
        for tok in value.replace(",", " ").split():
            try:
                c = parse_card(tok)
            except NotationError as e:
                raise AdviceError(f"{where}: {e}") from None
            if m >> c & 1:
                raise AdviceError(f"{where}: duplicate card {card_str(c)}")
            m |= 1 << c
        return m
    try:
        return CardSet(value).mask
    except (NotationError, TypeError) as e:
        raise AdviceError(f"{where}: {e}") from None


# --------------------------------------------------------------------------- scenario


@dataclass(frozen=True)
class Scenario:
    """What the player knows, checked against the rules.

    ``mode``: ``'contract'`` or ``'auction'``. ``seat``: the player; ``declarer``, ``trump``
    (0..4; ``-1`` in auction mode), ``level`` (the declarer's auction level; in auction mode the
    lowest level considered); ``bids``: contracts already bid, in bidding order from the
    declarer; ``position = (seat - declarer) % P``. ``candidates``: ``(trump, contract)`` pairs
    evaluated. ``known``: card masks known per seat (the player's hand included); ``cons``: the
    constraint array of :mod:`whist_sim.compiled.ground.conditional` (``None`` = none);
    ``constraints``: their text. ``calls``: the trump auction's call codes (0 = pass, bid
    ``5 * n + strain``) in order from the seat after ``dealer``, every round; empty (and
    ``dealer = -1``) when the auction was not given.
    """

    mode: str
    rules: Rules
    hand: int
    seat: int
    declarer: int
    trump: int
    level: int
    bids: tuple[int, ...]
    position: int
    candidates: tuple[tuple[int, int], ...]
    known: tuple[int, ...]
    cons: np.ndarray | None = field(default=None, compare=False)
    constraints: tuple[str, ...] = ()
    calls: tuple[int, ...] = ()
    dealer: int = -1

    @property
    def forced(self) -> np.ndarray:
        """``int64[P]``: the earlier bidders' contracts by seat, ``-1`` for the others."""
        p = self.rules.players
        f = np.full(p, -1, dtype=np.int64)
        for pos, b in enumerate(self.bids):
            f[(self.declarer + pos) % p] = b
        return f

    @property
    def forbidden(self) -> int | None:
        """The contract the player may not bid (he is the hooked last bidder), else ``None``."""
        p = self.rules.players
        if self.mode == "contract" and self.position == p - 1:
            return self.rules.n_tricks - sum(self.bids)
        return None


def _seat(value: Any, name: str, p: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= value < p:
        raise AdviceError(f"{name} must be a seat in 0..{p - 1}, got {value!r}")
    return int(value)


def _level(value: Any, rules: Rules) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise AdviceError(f"level must be a whole number, got {value!r}")
    if not FIRST_MIN_LEVEL <= value <= rules.max_level:
        raise AdviceError(
            f"level {value} is not an auction level ({FIRST_MIN_LEVEL}..{rules.max_level}, "
            "RULES §2)"
        )
    return int(value)


def parse_auction(auction: str | Sequence[str | int], dealer: int | None,
                  rules: Rules) -> tuple[tuple[int, ...], int, int, int, int]:
    """``(calls, dealer, declarer, trump, level)`` of a whole trump auction (RULES §2-§3).

    ``auction``: the calls in order from the seat after ``dealer`` (default: the last seat, so
    seat 0 calls first), every round of it, as text (``"pass,5S,pass,6H,pass,pass,pass"``;
    commas or spaces; ``p`` for pass) or a sequence of call codes or texts. The calls are
    checked with the rules (each legal when made, the auction over with a bid won); a round of
    passes is followed by a Frisch whose cards the advisor does not know. Raises
    :class:`AdviceError`."""
    p = rules.players
    dealer = p - 1 if dealer is None else _seat(dealer, "dealer", p)
    if isinstance(auction, str):
        parts = auction.replace(",", " ").split()
    else:
        parts = list(auction)
    if not parts:
        raise AdviceError("auction: no calls given (give every call, e.g. pass,5S,pass,pass,pass)")
    state = DealState(rules, dealer, _placeholder_hands(rules))  # a call ignores the cards
    calls = []
    for i, part in enumerate(parts):
        while state.phase == "frisch":
            state.apply(sum(1 << c for c in cards_of(state.hand(state.to_move))[:3]))
        if state.phase != "auction":
            raise AdviceError(f"auction: over after {i} calls (seat {state.declarer} won it), "
                              f"but {len(parts)} were given")
        try:
            if isinstance(part, str):
                code = parse_call("pass" if part.strip().lower() in ("p", "pass") else part)
            else:
                code = int(part)
            state.apply(code)
        except (NotationError, IllegalAction, ValueError) as e:
            raise AdviceError(f"auction: call {i + 1} ({part!r}) of seat {state.to_move}: "
                              f"{e}") from None
        calls.append(code)
    if state.phase == "thrown_in":
        raise AdviceError("auction: every round was passed out and the deal thrown in "
                          "(RULES §3): there is no contract to advise")
    if state.phase != "contracts":
        raise AdviceError(f"auction: not over after {len(calls)} calls (seat {state.to_move} "
                          "to call): give the whole auction, up to the passes after the "
                          "winning bid")
    return tuple(calls), dealer, state.declarer, state.trump, state.level


def _placeholder_hands(rules: Rules) -> list[int]:
    """Hands of the deck in order, ``hand_size`` cards a seat: a state whose calls and contracts
    the advisor checks, where the cards do not matter."""
    deck = cards_of(rules.deck_mask)
    size = rules.hand_size
    return [sum(1 << c for c in deck[s * size:(s + 1) * size]) for s in range(rules.players)]


def legal_candidates(rules: Rules, seat: int, level: int, declarer: int | None = None,
                     trump: int = -1, bids: Sequence[int] = ()) -> tuple[tuple[int, int], ...]:
    """The answers the advisor weighs for ``seat``, as ``(strain, number)`` pairs, taken from
    the reference engine's legal actions (RULES §2, §4, §8), ordered by strain, then number.

    Without a ``declarer``: the bids of a seat that opens the auction, at ``level`` or above.
    With one: the contracts of ``seat`` after ``declarer`` won the auction at ``level`` in
    ``trump`` and the seats from him on bid ``bids`` (``seat`` next). Raises
    :class:`AdviceError` when ``bids`` are not legal contracts in turn."""
    p = rules.players
    if declarer is None:
        state = DealState(rules, (seat - 1) % p, _placeholder_hands(rules))
        return tuple(sorted((call_strain(c), call_level(c)) for c in state.legal_actions()
                            if c != PASS and call_level(c) >= level))
    state = DealState(rules, (declarer - 1) % p, _placeholder_hands(rules))
    state.apply(bid_code(level, trump))
    for _ in range(p - 1):
        state.apply(PASS)
    for i, b in enumerate(bids):
        try:
            state.apply(b)
        except IllegalAction as e:
            raise AdviceError(f"bids[{i}] = {b}: {e} (RULES §4)") from None
    assert state.phase == "contracts" and state.to_move == seat, (state.phase, state.to_move)
    return tuple((trump, b) for b in state.legal_actions())


def auction_text(calls: Sequence[int]) -> str:
    """The calls as RULES §10 notation, comma separated: ``pass,5S,pass,pass,pass``."""
    return ",".join(call_str(c) for c in calls)


def resolve_scenario(
    hand: str | int | CardSet,
    trump: str | int | None = None,
    declarer: int | None = None,
    level: int | None = None,
    seat: int | None = None,
    bids: Sequence[int] | str = (),
    rules: Rules | None = None,
    constraints: Iterable[str] | Mapping[int, Mapping[str, Any]] = (),
    known: Mapping[int, Any] | None = None,
    auction: str | Sequence[str | int] | None = None,
    dealer: int | None = None,
) -> Scenario:
    """Check the inputs of :func:`advise` against the rules and work out the seats.

    The player's seat follows from ``declarer`` and the number of ``bids`` unless ``seat`` is
    given (then they must agree); with neither, the player sits in seat 0. ``level`` defaults to
    5 (the first minimum). ``auction`` (with ``dealer``, :func:`parse_auction`): the whole trump
    auction, from which the declarer, trump and level follow (given as well, they must agree).
    Raises :class:`AdviceError` naming the problem.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise AdviceError(f"rules must be a whist_sim.Rules, got {type(rules).__name__}")
    p, n = rules.players, rules.n_tricks
    mask = _hand_mask(hand, rules)
    calls: tuple[int, ...] = ()
    if auction is not None:
        calls, dealer, a_decl, a_trump, a_level = parse_auction(auction, dealer, rules)
        for name, given, won in (("declarer", declarer, a_decl), ("level", level, a_level)):
            if given is not None and given != won:
                raise AdviceError(f"{name} {given} contradicts the auction, which seat {a_decl} "
                                  f"won at {a_level}{STRAINS[a_trump]}")
        if trump is not None:
            try:
                t_given = parse_strain(trump)
            except AdviceError as e:
                raise AdviceError(f"trump: {e}") from None
            if t_given != a_trump:
                raise AdviceError(f"trump {STRAINS[t_given]} contradicts the auction, which seat "
                                  f"{a_decl} won at {a_level}{STRAINS[a_trump]}")
        declarer, trump, level = a_decl, a_trump, a_level
    elif dealer is not None:
        raise AdviceError("dealer: applies to a given auction only (the calls start after him)")
    if isinstance(bids, str):
        text = bids.strip()
        parts = [b.strip() for b in text.split(",")] if "," in text else text.split()
        if text and not all(parts):
            raise AdviceError(f"bids {bids!r}: an empty entry; give one contract per earlier "
                              "bidder, separated by commas, such as 7,0")
        try:
            bids = [int(b) for b in parts]
        except ValueError:
            raise AdviceError(f"bids {bids!r}: expected numbers such as 7,0") from None
    bids = tuple(bids)
    for i, b in enumerate(bids):
        if isinstance(b, bool) or not isinstance(b, (int, np.integer)) or not 0 <= b <= n:
            raise AdviceError(f"bids[{i}] = {b!r} is not a contract in 0..{n} (RULES §4)")
    bids = tuple(int(b) for b in bids)
    level = FIRST_MIN_LEVEL if level is None else _level(level, rules)
    if seat is not None:
        seat = _seat(seat, "seat", p)
    if declarer is not None:
        declarer = _seat(declarer, "declarer", p)

    if trump is None:
        if bids or declarer is not None:
            raise AdviceError(
                "bids and declarer describe the contract phase: give the trump as well "
                "(without a trump the advisor answers for the auction)"
            )
        me = 0 if seat is None else seat
        candidates = legal_candidates(rules, me, level)
        scen = dict(mode="auction", seat=me, declarer=me, trump=-1, position=0)
    else:
        try:
            t = parse_strain(trump)
        except AdviceError as e:
            raise AdviceError(f"trump: {e}") from None
        if t < rules.lowest_strain:
            raise AdviceError(
                f"trump {STRAINS[t]}: the {rules.three_player_deck} deck has no clubs, so clubs "
                "cannot be trump (RULES §8)")
        if len(bids) > p - 1:
            raise AdviceError(
                f"{len(bids)} earlier bids given, but only {p - 1} players bid before the last "
                "(RULES §4)"
            )
        if declarer is None:
            me = 0 if seat is None else seat
            declarer = (me - len(bids)) % p
        else:
            me = (declarer + len(bids)) % p
            if seat is not None and seat != me:
                raise AdviceError(
                    f"seat {seat} does not follow from declarer {declarer} and {len(bids)} earlier "
                    f"bid(s): the next bidder is seat {me}"
                )
        if bids and bids[0] < level:
            raise AdviceError(
                f"bids[0] = {bids[0]}: the declarer's contract must be at least his auction level "
                f"{level} (RULES §4)"
            )
        position = (me - declarer) % p
        candidates = legal_candidates(rules, me, level, declarer, t, bids)
        scen = dict(mode="contract", seat=me, declarer=declarer, trump=t, position=position)

    known_masks = [0] * p
    known_masks[scen["seat"]] = mask
    for s, value in (known or {}).items():
        s = _seat(s, "known cards: seat", p)
        where = f"known cards of seat {s}"
        if s == scen["seat"]:
            raise AdviceError(f"{where}: seat {s} is the player; his hand is the HAND argument")
        m = _known_mask(value, where)
        bad = m & ~rules.deck_mask
        if bad:
            raise AdviceError(f"{where}: {_cards(bad)} not in this deck")
        clash = m & sum(known_masks)
        if clash:
            raise AdviceError(f"{where}: {_cards(clash)} already in another hand")
        if m.bit_count() > rules.hand_size:
            raise AdviceError(f"{where}: {m.bit_count()} cards, a hand has {rules.hand_size}")
        known_masks[s] = m
    cons, texts = _constraints(constraints, rules, scen["seat"], known_masks)
    return Scenario(rules=rules, hand=mask, level=level, bids=bids, candidates=candidates,
                    known=tuple(known_masks), cons=cons, constraints=texts, calls=calls,
                    dealer=-1 if not calls else int(dealer), **scen)


def _cards(mask: int) -> str:
    return " ".join(card_str(c) for c in cards_of(mask))


def _constraints(
    constraints: Iterable[str] | Mapping[int, Mapping[str, Any]] | None,
    rules: Rules,
    me: int,
    known: list[int],
) -> tuple[np.ndarray | None, tuple[str, ...]]:
    """The constraint array (or ``None``) and the constraints as text; contradictions raise."""
    from ...compiled.ground.conditional import (
        CONS_HCP_MAX,
        CONS_HCP_MIN,
        CONS_MAX,
        CONS_MIN,
        unconstrained,
    )

    p, h = rules.players, rules.hand_size
    items: list[tuple[int, str, int, int, str]] = []
    if constraints is None:
        constraints = ()
    if isinstance(constraints, Mapping):
        for s, spec in constraints.items():
            for key, rng in dict(spec).items():
                lo, hi = (rng, rng) if isinstance(rng, (int, np.integer)) else tuple(rng)
                text = f"{s}:{key}={lo}-{hi}"
                for item in parse_constraint(text, h):
                    items.append((*item, text))
    else:
        if isinstance(constraints, str):
            constraints = [constraints]
        for text in constraints:
            for item in parse_constraint(text, h):
                items.append((*item, text))
    if not items:
        return None, ()
    cons = unconstrained(p, h)
    source: dict[tuple[int, str], str] = {}
    for s, key, lo, hi, text in items:
        _seat(s, f"constraint {text!r}: seat", p)
        if s == me:
            raise AdviceError(
                f"constraint {text!r}: seat {s} is the player; constraints are on hidden hands"
            )
        if key == "hcp":
            a, b = CONS_HCP_MIN, CONS_HCP_MAX
        else:
            a, b = CONS_MIN + SUITS.index(key), CONS_MAX + SUITS.index(key)
        new_lo, new_hi = max(cons[s, a], lo), min(cons[s, b], hi)
        if new_lo > new_hi:
            raise AdviceError(
                f"contradictory constraints on seat {s} {key}: {text!r} and "
                f"{source.get((s, key), 'the deck')!r} leave no possible value"
            )
        cons[s, a], cons[s, b] = new_lo, new_hi
        source[(s, key)] = text
    # necessary conditions, each with a clear message; the pilot run catches the rest
    deck = rules.deck_mask
    spare = 1 if rules.players == 3 and rules.three_player_deck == "one_random" else 0
    for s in range(p):
        if s == me:
            continue
        mins = cons[s, CONS_MIN:CONS_MIN + 4]
        maxs = cons[s, CONS_MAX:CONS_MAX + 4]
        in_deck = [(deck & SUIT_MASKS[t]).bit_count() for t in range(4)]
        if mins.sum() > h:
            raise AdviceError(f"constraints on seat {s}: minimum suit lengths sum to "
                              f"{mins.sum()}, more than the {h} cards of a hand")
        if np.minimum(maxs, in_deck).sum() < h:
            raise AdviceError(f"constraints on seat {s}: maximum suit lengths allow only "
                              f"{np.minimum(maxs, in_deck).sum()} of the {h} cards of a hand")
        for t in range(4):
            k = (known[s] & SUIT_MASKS[t]).bit_count()
            if k > maxs[t]:
                raise AdviceError(f"constraints on seat {s}: it is known to hold {k} "
                                  f"{SUITS[t]}, more than the maximum {maxs[t]}")
    for t in range(4):
        in_suit = (deck & SUIT_MASKS[t]).bit_count() - (known[me] & SUIT_MASKS[t]).bit_count()
        others = [s for s in range(p) if s != me]
        need = sum(int(cons[s, CONS_MIN + t]) for s in others)
        room = sum(int(cons[s, CONS_MAX + t]) for s in others) + spare
        if need > in_suit:
            raise AdviceError(f"constraints need {need} {SUITS[t]} in the hidden hands, but only "
                              f"{in_suit} are outside the player's hand")
        if room < in_suit:
            raise AdviceError(f"constraints leave room for {room} {SUITS[t]} in the hidden hands, "
                              f"but {in_suit} must be there")
    return cons, tuple(dict.fromkeys(text for *_, text in items))



def check_int(name: str, v: Any, lo: int, hi: int) -> int:
    """``v`` as an int in ``lo..hi`` (bounds included), or :class:`AdviceError` naming it."""
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise AdviceError(f"{name} must be a whole number in {lo}..{hi}, got {v!r}")
    return int(v)
