"""The hand advisor (issue 5): which contract to bid with a given hand, by simulation.

:func:`advise` samples the hidden hands (every card the player cannot see is dealt uniformly
among the places he cannot see, optionally under constraints), then plays each sampled deal once
per candidate bid with the *same* cards and random numbers (common random numbers), so the
differences between bids are measured on the same deals. The player's play is contract-aware (it
plays for the number it bid), the later bidders bid by their strategy on their sampled hands, the
last bidder is hooked (RULES §4), so over/under and the value of a zero bid come out of the
simulation. Docs: docs/ADVISOR.md (the JSON schema is documented there).

Two modes:

* **contract mode** (``trump`` given): the auction is over; ``declarer`` won it at ``level`` in
  ``trump``, ``bids`` are the contracts already bid (bidding order, the declarer's first), and the
  player bids next. One row per legal contract: P(make) with its Wilson interval, the expected
  score (points, RULES §6) with its t interval, expected tricks, P(over) and the distribution of
  the tricks taken. The recommended bid is the one with the highest expected score (ties: the
  lower bid); the interval of its difference to the runner-up is paired over the common deals.
* **auction mode** (no ``trump``): for each strain, the player declares in it (contracts from
  ``level`` up); per strain the best contract, its expected score and trick distribution, and the
  best call.

Seats are ``0..P-1`` clockwise (RULES §1); the player's bidding position is
``(seat - declarer) % P`` (0 = declarer, ``P-1`` = the hooked last bidder). Sampled deal ``j``
of an advice uses the random stream ``(seed, j)`` (docs/ENGINE.md §2), so results depend only on
the seed and the options, not on threads.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .cards import (
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
from .rng import mix64
from .rules import FIRST_MIN_LEVEL, Rules

if TYPE_CHECKING:  # pragma: no cover
    from .advisor_dd import DDView

__all__ = [
    "DEFAULT_DEALS",
    "Advice",
    "AdviceError",
    "Scenario",
    "advise",
    "parse_constraint",
    "parse_strain",
    "resolve_scenario",
]

DEFAULT_DEALS = 10_000
#: bidding strategies the model of the other bidders supports (kernels.conditional.model_contract)
MODEL_BID_POLICIES = ("heuristic", "random", "hcp", "ltc", "cautious", "aggressive")
BLOCK = 20_000  # sampled deals per kernel call (bounds the scratch of a thread)
PILOT_TRIES = 20_000  # independent tries that estimate the acceptance rate of the conditions
MAX_TRIES_CAP = 10_000_000  # per sampled deal
PILOT_SALT = 0x5EED_AB1E_0F_C0FFEE
JSON_SCHEMA = "whist-sim/advice/1"
_MAX_SEED = (1 << 64) - 1
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
    constraint array of :mod:`whist_sim.kernels.conditional` (``None`` = none);
    ``constraints``: their text.
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
) -> Scenario:
    """Check the inputs of :func:`advise` against the rules and work out the seats.

    The player's seat follows from ``declarer`` and the number of ``bids`` unless ``seat`` is
    given (then they must agree); with neither, the player sits in seat 0. ``level`` defaults to
    5 (the first minimum). Raises :class:`AdviceError` naming the problem.
    """
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise AdviceError(f"rules must be a whist_sim.Rules, got {type(rules).__name__}")
    p, n = rules.players, rules.n_tricks
    mask = _hand_mask(hand, rules)
    if isinstance(bids, str):
        try:
            bids = [int(b) for b in bids.replace(",", " ").split()]
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
        candidates = tuple((t, b) for t in range(NT + 1) for b in range(level, n + 1))
        scen = dict(mode="auction", seat=me, declarer=me, trump=-1, position=0)
    else:
        t = parse_strain(trump)
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
        lo = level if position == 0 else 0
        forbidden = n - sum(bids) if position == p - 1 else None
        candidates = tuple((t, b) for b in range(lo, n + 1) if b != forbidden)
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
                    known=tuple(known_masks), cons=cons, constraints=texts, **scen)


def _cards(mask: int) -> str:
    return " ".join(card_str(c) for c in cards_of(mask))


def _constraints(
    constraints: Iterable[str] | Mapping[int, Mapping[str, Any]] | None,
    rules: Rules,
    me: int,
    known: list[int],
) -> tuple[np.ndarray | None, tuple[str, ...]]:
    """The constraint array (or ``None``) and the constraints as text; contradictions raise."""
    from .kernels.conditional import CONS_HCP_MAX, CONS_HCP_MIN, CONS_MAX, CONS_MIN, unconstrained

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


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class RunResult:
    """Raw results of a run: ``tricks``, ``score`` (``int16``), ``over`` (bool), each
    ``[candidate, deal]``; ``tries``: deals dealt in total (accepted and rejected)."""

    tricks: np.ndarray
    score: np.ndarray
    over: np.ndarray
    tries: int
    pilot_rate: float | None


def _arrays(scen: Scenario, bid_policy: str, play: str):
    from .kernels.layout import N_PARAMS
    from .policies import BID, PLAY, seat_ids, seat_params

    p = scen.rules.players
    if bid_policy not in MODEL_BID_POLICIES:
        raise AdviceError(
            f"bid policy {bid_policy!r}: the advisor models the other bidders with "
            f"one of {', '.join(MODEL_BID_POLICIES)}"
        )
    try:
        pol = np.empty((2, p), dtype=np.int64)
        pol[0] = seat_ids((bid_policy,) * p, BID, p)
        pol[1] = seat_ids((play,) * p, PLAY, p)
        par = np.zeros((2, p, N_PARAMS), dtype=np.float64)
        par[0] = seat_params((bid_policy,) * p, BID)
        par[1] = seat_params((play,) * p, PLAY)
    except ValueError as e:
        raise AdviceError(str(e)) from None
    return pol, par


def _check_int(name: str, v: Any, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not lo <= v <= hi:
        raise AdviceError(f"{name} must be a whole number in {lo}..{hi}, got {v!r}")
    return int(v)


def run_scenario(
    scen: Scenario,
    deals: int,
    seed: int,
    play: str = "heuristic",
    bid_policy: str = "heuristic",
    consistent: bool = False,
    threads: int = 1,
) -> RunResult:
    """Sample ``deals`` deals for ``scen`` and play every candidate on each (see module doc)."""
    from .kernels import advise_batch as K
    from .kernels.layout import new_state, rules_array

    deals = _check_int("deals", deals, 1, 100_000_000)
    seed = _check_int("seed", seed, 0, _MAX_SEED)
    threads = _check_int("threads", threads, 1, 1024)
    pol, par = _arrays(scen, bid_policy, play)
    rules = scen.rules
    p = rules.players
    rp = rules_array(rules)
    known = np.array(scen.known, dtype=np.uint64)
    deck_mask = np.uint64(rules.deck_mask)
    check = scen.cons is not None
    from .kernels.conditional import unconstrained

    cons = scen.cons if check else unconstrained(p, rules.hand_size)
    forced = scen.forced
    consistent = bool(consistent) and scen.position > 0
    cand_trump = np.array([c[0] for c in scen.candidates], dtype=np.int64)
    cand_bid = np.array([c[1] for c in scen.candidates], dtype=np.int64)
    k = len(cand_bid)
    trump0 = scen.trump if scen.trump >= 0 else 0
    common = (rp, pol, par, known, deck_mask, cons, check, np.int64(scen.declarer),
              np.int64(trump0), np.int64(scen.level))

    pilot_rate = None
    max_tries = 1
    if check or consistent:
        st, hm, rng = new_state()
        work = np.zeros(52, dtype=np.int64)
        pilot_mix = np.uint64(mix64(mix64(seed) ^ PILOT_SALT))
        ok = K.accept_kernel(pilot_mix, np.int64(PILOT_TRIES), *common, forced, consistent,
                             np.int64(scen.position), st, hm, rng, work)
        pilot_rate = ok / PILOT_TRIES
        if ok == 0:
            what = _conditions_text(scen, consistent)
            raise AdviceError(
                f"{what} are impossible or too rare: none of {PILOT_TRIES:,} sampled deals met "
                f"them (acceptance rate below {1 / PILOT_TRIES:.4%})"
            )
        max_tries = int(min(MAX_TRIES_CAP, max(1_000, 100 / pilot_rate)))

    tricks = np.empty((k, deals), dtype=np.int8)
    score = np.empty((k, deals), dtype=np.int16)
    over = np.empty((k, deals), dtype=np.bool_)
    tries = np.zeros(deals, dtype=np.int64)
    seed_mix = np.uint64(mix64(seed))

    def chunk(bounds: tuple[int, int]) -> int:
        """Deals ``a..b-1`` in blocks (bounded scratch); negative: a deal was not accepted."""
        a, b = bounds
        st, hm, rng = new_state()
        work = np.zeros(52, dtype=np.int64)
        snap_st, snap_hm = np.empty_like(st), np.empty_like(hm)
        res = [np.zeros(k, dtype=np.int64) for _ in range(3)]
        size = min(BLOCK, b - a)
        t_out, s_out = np.empty((k, size), np.int8), np.empty((k, size), np.int16)
        o_out = np.empty((k, size), np.bool_)
        for lo in range(a, b, BLOCK):
            m = min(BLOCK, b - lo)
            done = K.advise_kernel(
                seed_mix, np.int64(lo), np.int64(m), *common, np.int64(scen.seat), forced,
                consistent, np.int64(scen.position), cand_trump, cand_bid, np.int64(max_tries),
                st, hm, rng, work, snap_st, snap_hm, *res, t_out, s_out, o_out, tries[lo:lo + m],
            )
            if done < m:
                return -1
            tricks[:, lo:lo + m] = t_out[:, :m]
            score[:, lo:lo + m] = s_out[:, :m]
            over[:, lo:lo + m] = o_out[:, :m]
        return 0

    step = -(-deals // threads)
    parts = [(a, min(a + step, deals)) for a in range(0, deals, step)]
    if threads == 1 or len(parts) == 1:
        short = [chunk(x) for x in parts]
    else:
        with ThreadPoolExecutor(threads, thread_name_prefix="whist-advise") as pool:
            short = list(pool.map(chunk, parts))
    if any(s < 0 for s in short):
        what = _conditions_text(scen, consistent)
        raise AdviceError(
            f"{what} are too rare: a sampled deal was not accepted within {max_tries:,} tries "
            f"(pilot acceptance rate {pilot_rate:.4%})"
        )
    return RunResult(tricks, score, over, int(tries.sum()), pilot_rate)


def _conditions_text(scen: Scenario, consistent: bool) -> str:
    parts = []
    if scen.constraints:
        parts.append("the constraints " + ", ".join(scen.constraints))
    if consistent:
        parts.append(f"the earlier bids {','.join(map(str, scen.bids))} (consistent sampling)")
    return " and ".join(parts) or "the conditions"


# --------------------------------------------------------------------------- summaries


def summarize(run: RunResult, scen: Scenario, confidence: float = 0.95) -> pd.DataFrame:
    """One row per candidate: ``strain``, ``bid``, ``n``, ``p_make`` (+ ``p_make_lo/hi``, Wilson),
    ``ev`` (+ ``ev_lo/hi``, t interval; points), ``ev_sd``, ``e_tricks``, ``p_over``, and the
    trick distribution ``t0 .. tN`` (fractions)."""
    from .stats import mean_interval_from_sums, wilson_interval

    n_tricks = scen.rules.n_tricks
    k, n = run.tricks.shape
    bids = np.array([c[1] for c in scen.candidates])
    tr = run.tricks.astype(np.int64)
    sc = run.score.astype(np.int64)
    made = (tr == bids[:, None]).sum(axis=1)
    lo, hi = wilson_interval(made, np.full(k, n), confidence)
    mean, sd, elo, ehi = mean_interval_from_sums(np.full(k, n), sc.sum(axis=1),
                                                 (sc * sc).sum(axis=1), confidence)
    dist = np.stack([np.bincount(tr[i], minlength=n_tricks + 1) / n for i in range(k)])
    df = pd.DataFrame({
        "strain": [STRAINS[c[0]] for c in scen.candidates],
        "bid": bids,
        "n": n,
        "p_make": made / n,
        "p_make_lo": np.atleast_1d(lo),
        "p_make_hi": np.atleast_1d(hi),
        "ev": np.atleast_1d(mean),
        "ev_lo": np.atleast_1d(elo),
        "ev_hi": np.atleast_1d(ehi),
        "ev_sd": np.atleast_1d(sd),
        "e_tricks": tr.mean(axis=1),
        "p_over": run.over.mean(axis=1),
    })
    for t in range(n_tricks + 1):
        df[f"t{t}"] = dist[:, t]
    return df


def _best_two(ev: np.ndarray) -> tuple[int, int | None]:
    """Indices of the highest and second-highest values (ties: the earlier index)."""
    order = sorted(range(len(ev)), key=lambda i: (-ev[i], i))
    return order[0], (order[1] if len(order) > 1 else None)


# --------------------------------------------------------------------------- the advice


@dataclass(frozen=True)
class Advice:
    """The answer of :func:`advise`.

    ``table``: one row per candidate (:func:`summarize` columns); in contract mode indexed by
    ``bid``, in auction mode by ``(strain, bid)``. ``recommended``: the contract with the highest
    expected score (in auction mode: in the best strain); ``runner_up`` the next; ``ev_diff`` /
    ``ev_diff_ci``: expected score of the recommended minus the runner-up, paired over the
    common deals (points). ``strains`` (auction mode): one row per strain with its best contract;
    ``best_call``: e.g. ``'5S'`` or ``'pass'``. ``acceptance``: accepted / dealt sampled deals
    (1.0 without conditions). ``evaluation``: ``'heuristic'`` or ``'dd'``; ``dd``: with
    ``'dd'``, the double-dummy view of the first sampled deals
    (:class:`whist_sim.advisor_dd.DDView`).
    """

    scenario: Scenario
    table: pd.DataFrame
    recommended: int
    runner_up: int | None
    ev_diff: float | None
    ev_diff_ci: tuple[float, float] | None
    deals: int
    tries: int
    seed: int
    play: str
    bid_policy: str
    consistent: bool
    confidence: float
    elapsed_s: float
    strains: pd.DataFrame | None = None
    best_call: str | None = None
    best_strain: int | None = None
    evaluation: str = "heuristic"
    dd: DDView | None = None

    @property
    def mode(self) -> str:
        return self.scenario.mode

    @property
    def acceptance(self) -> float:
        """Share of the dealt deals that met the conditions (constraints, consistent bids)."""
        return self.deals / self.tries if self.tries else math.nan

    def bids_table(self) -> pd.DataFrame:
        """The rows of the recommended strain (contract mode: the whole table), by ``bid``."""
        if self.mode == "contract":
            return self.table
        return self.table.xs(STRAINS[self.best_strain], level="strain")

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form documented in docs/ADVISOR.md (NaN becomes ``None``)."""
        s = self.scenario
        n = s.rules.n_tricks

        def bid_rows(df: pd.DataFrame) -> list[dict[str, Any]]:
            rows = []
            for b, r in df.iterrows():
                rows.append({
                    "bid": int(b),
                    "p_make": _num(r["p_make"]),
                    "p_make_ci": [_num(r["p_make_lo"]), _num(r["p_make_hi"])],
                    "ev": _num(r["ev"]),
                    "ev_ci": [_num(r["ev_lo"]), _num(r["ev_hi"])],
                    "e_tricks": _num(r["e_tricks"]),
                    "p_over": _num(r["p_over"]),
                    "tricks": [_num(r[f"t{t}"]) for t in range(n + 1)],
                })
            return rows

        out: dict[str, Any] = {
            "schema": JSON_SCHEMA,
            "mode": s.mode,
            "hand": format_hand(s.hand),
            "seat": s.seat,
            "declarer": s.declarer,
            "trump": STRAINS[s.trump] if s.trump >= 0 else None,
            "level": s.level,
            "earlier_bids": list(s.bids),
            "position": s.position,
            "forbidden": s.forbidden,
            "recommended": self.recommended,
            "runner_up": self.runner_up,
            "ev_diff": _num(self.ev_diff),
            "ev_diff_ci": None if self.ev_diff_ci is None else [_num(x) for x in self.ev_diff_ci],
            "confidence": self.confidence,
            "bids": bid_rows(self.bids_table()),
            "deals": self.deals,
            "deals_tried": self.tries,
            "acceptance_rate": _num(self.acceptance),
            "seed": self.seed,
            "play": self.play,
            "bid_policy": self.bid_policy,
            "consistent": self.consistent,
            "constraints": list(s.constraints),
            "known": {str(seat): format_hand(m) for seat, m in enumerate(s.known)
                      if m and seat != s.seat},
            "rules": s.rules.to_dict(),
            "best_call": self.best_call,
            "strains": None,
        }
        if self.strains is not None:
            out["strains"] = [
                {
                    "strain": strain,
                    "best_bid": int(r["bid"]),
                    "ev": _num(r["ev"]),
                    "ev_ci": [_num(r["ev_lo"]), _num(r["ev_hi"])],
                    "p_make": _num(r["p_make"]),
                    "e_tricks": _num(r["e_tricks"]),
                    "tricks": [_num(r[f"t{t}"]) for t in range(n + 1)],
                    "bids": bid_rows(self.table.xs(strain, level="strain")),
                }
                for strain, r in self.strains.iterrows()
            ]
        if self.dd is not None:  # only with the double-dummy evaluation: other keys unchanged
            out["eval"] = self.evaluation
            out["dd"] = self.dd.to_dict()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        return render_text(self)

    def figure(self):
        """A matplotlib figure (Agg canvas, no pyplot): expected score per bid with CI bars."""
        from .reports.charts import new_figure

        fig = new_figure(7.0, 4.2) if self.dd is None else new_figure(7.0, 7.6)
        ax = fig.add_subplot() if self.dd is None else fig.add_subplot(2, 1, 1)
        pct = round(self.confidence * 100)
        if self.mode == "contract":
            df = self.table
            x = df.index.to_numpy()
            ev = df["ev"].to_numpy(float)
            err = np.nan_to_num(np.vstack([ev - df["ev_lo"], df["ev_hi"] - ev]))
            colors = ["#d62728" if b == self.recommended else "#4c72b0" for b in x]
            ax.bar(x, ev, yerr=err, capsize=3, color=colors, error_kw={"elinewidth": 1})
            ax.set_xticks(x)
            title = (f"{format_hand(self.scenario.hand)}: trump {STRAINS[self.scenario.trump]}, "
                     f"position {self.scenario.position + 1}")
        else:
            for strain in STRAINS:
                part = self.table.xs(strain, level="strain")
                x = part.index.to_numpy()
                ev = part["ev"].to_numpy(float)
                err = np.nan_to_num(np.vstack([ev - part["ev_lo"], part["ev_hi"] - ev]))
                ax.errorbar(x, ev, yerr=err, marker="o", ms=3, capsize=2, label=strain)
            ax.legend(title="trump", fontsize=8)
            title = f"{format_hand(self.scenario.hand)}: declaring in each strain"
        ax.axhline(0, color="0.6", lw=0.8)
        ax.set_xlabel("contract (tricks bid)")
        ax.set_ylabel("expected score (points)")
        ax.set_title(title, fontsize=10)
        ax.text(0.99, 0.02, f"{self.deals:,} deals; bars: {pct}% CI", transform=ax.transAxes,
                ha="right", va="bottom", fontsize=8, color="0.35")
        if self.dd is not None:
            self.dd.draw(fig.add_subplot(2, 1, 2), self.mode)
        return fig

    def plot(self, path: str) -> None:
        """Write :meth:`figure` to ``path`` (the format follows the extension, e.g. ``.png``)."""
        fig = self.figure()
        try:
            fig.savefig(path, dpi=100)
        except (OSError, ValueError) as e:
            raise AdviceError(f"cannot write the plot {path!r}: {e}") from None


def _num(x: Any) -> float | None:
    if x is None:
        return None
    x = float(x)
    return None if math.isnan(x) else float(f"{x:.7g}")


def advise(
    hand: str | int | CardSet,
    trump: str | int | None = None,
    declarer: int | None = None,
    level: int | None = None,
    seat: int | None = None,
    bids: Sequence[int] | str = (),
    play: str = "heuristic",
    bid_policy: str = "heuristic",
    deals: int = DEFAULT_DEALS,
    seed: int = 0,
    consistent: bool = False,
    constraints: Iterable[str] | Mapping[int, Mapping[str, Any]] = (),
    known: Mapping[int, Any] | None = None,
    rules: Rules | None = None,
    confidence: float = 0.95,
    threads: int = 1,
    evaluation: str = "heuristic",
    dd_deals: int | None = None,
    dd_node_limit: int | None = None,
    progress: bool = False,
    dd_min_node_limit: int | None = None,
    notify: Callable[[str], None] | None = None,
) -> Advice:
    """Advise the contract to bid with ``hand`` (see the module doc for the method).

    ``hand``: the player's cards (RULES §9 text, a mask or a :class:`CardSet`). ``trump`` (C, D,
    H, S, NT or 0..4) selects contract mode; without it the advisor answers for the auction.
    ``declarer`` / ``level``: who won the auction and at which level (default 5); ``bids``: the
    contracts already bid in bidding order starting with the declarer (``[7, 0]`` or ``"7,0"``);
    ``seat``: the player (default: the next bidder after ``bids``; checked when both are given).
    ``play``: the play policy of every seat; ``bid_policy``: the bidding strategy of the other
    seats (one of :data:`MODEL_BID_POLICIES`). ``deals``: sampled deals (each candidate is played
    on all of them); ``seed``: deal ``j`` uses stream ``(seed, j)``. ``consistent``: keep only
    deals in which the earlier bidders' strategy would have made the bids actually made.
    ``constraints``: on the hidden hands, e.g. ``["1:hcp=10-15", "2:S=5-", "3:void=H"]`` (see
    :func:`parse_constraint`) or ``{1: {"hcp": (10, 15)}}``; ``known``: cards known to be in
    other seats' hands, ``{1: "AS KH"}``. ``confidence``: coverage of the intervals.
    ``threads``: local threads (results do not depend on it).

    ``evaluation``: ``"heuristic"`` (the play policy's results only) or ``"dd"``: also the
    double-dummy view of the first ``dd_deals`` sampled deals (default ``min(100, deals)``),
    every solve limited to ``dd_node_limit`` card plays (default 1,000,000; whist-min's to
    ``dd_min_node_limit`` when given: it nearly always runs into the limit on full deals, so a
    lower one makes the view several times faster), with a tqdm bar on stderr when ``progress``
    (see :mod:`whist_sim.advisor_dd`; four players only).
    ``notify`` gets one-line notices, e.g. that the solver is being compiled (a minute or two on
    a first run, :func:`whist_sim.dd.warm_up`), once every input has been checked.

    Raises :class:`AdviceError` for bad input and for impossible or too rare conditions.
    """
    from .advisor_dd import EVALUATIONS, check_dd_options, check_min_node_limit, dd_view
    from .stats import mean_interval

    if not 0.0 < confidence < 1.0:
        raise AdviceError(f"confidence must be a fraction between 0 and 1, got {confidence!r}")
    if evaluation not in EVALUATIONS:
        raise AdviceError(f"evaluation {evaluation!r}: use one of {', '.join(EVALUATIONS)}")
    if evaluation == "heuristic" and (dd_deals is not None or dd_node_limit is not None
                                      or dd_min_node_limit is not None):
        raise AdviceError("dd_deals, dd_node_limit and dd_min_node_limit apply to the "
                          "double-dummy evaluation only (evaluation='dd')")
    t0 = time.perf_counter()
    scen = resolve_scenario(hand, trump, declarer, level, seat, bids, rules, constraints, known)
    consistent = bool(consistent)
    if consistent and scen.mode == "auction":
        raise AdviceError("consistent sampling needs earlier contract bids (contract mode)")
    if evaluation == "dd":
        deals = _check_int("deals", deals, 1, 100_000_000)
        dd_deals, dd_node_limit = check_dd_options(scen, deals, dd_deals, dd_node_limit)
        dd_min_node_limit = check_min_node_limit(dd_min_node_limit)
    run = run_scenario(scen, deals, seed, play, bid_policy, consistent, threads)
    table = summarize(run, scen, confidence)
    dd = None
    if evaluation == "dd":
        from .dd import warm_up

        warm_up(notify)
        dd = dd_view(scen, table, deals, dd_deals, dd_node_limit, seed, play, bid_policy,
                     consistent, run.pilot_rate, confidence, threads, progress,
                     dd_min_node_limit)
    strains = best_call = best_strain = None
    if scen.mode == "contract":
        i, j = _best_two(table["ev"].to_numpy())
        idx = [i] if j is None else [i, j]
        table = table.drop(columns="strain").set_index("bid")
    else:
        best_rows = []
        for t in range(NT + 1):
            rows = np.flatnonzero(table["strain"].to_numpy() == STRAINS[t])
            best_rows.append(rows[_best_two(table["ev"].to_numpy()[rows])[0]])
        strains = table.iloc[best_rows].set_index("strain")
        top = _best_two(strains["ev"].to_numpy())[0]
        best_strain = top
        rows = np.flatnonzero(table["strain"].to_numpy() == STRAINS[top])
        a, b = _best_two(table["ev"].to_numpy()[rows])
        idx = [rows[a]] if b is None else [rows[a], rows[b]]
        ev_top = float(strains["ev"].iloc[top])
        best_call = "pass" if ev_top < 0 else f"{scen.level}{STRAINS[top]}"
        table = table.set_index(["strain", "bid"])
    bids_col = np.array([c[1] for c in scen.candidates])
    recommended = int(bids_col[idx[0]])
    runner_up = ev_diff = ev_diff_ci = None
    if len(idx) > 1:
        runner_up = int(bids_col[idx[1]])
        d = run.score[idx[0]].astype(np.int64) - run.score[idx[1]].astype(np.int64)
        if len(d) > 1:
            mean, _sd, lo, hi = mean_interval(d, confidence)
            ev_diff, ev_diff_ci = float(mean), (float(lo), float(hi))
        else:
            ev_diff = float(d.mean())
    return Advice(
        scenario=scen, table=table, recommended=recommended, runner_up=runner_up,
        ev_diff=ev_diff, ev_diff_ci=ev_diff_ci, deals=int(run.tricks.shape[1]), tries=run.tries,
        seed=int(seed), play=play, bid_policy=bid_policy, consistent=consistent,
        confidence=float(confidence), elapsed_s=time.perf_counter() - t0, strains=strains,
        best_call=best_call, best_strain=best_strain, evaluation=evaluation, dd=dd,
    )


# --------------------------------------------------------------------------- text


def _pct(x: float) -> str:
    return "   -  " if x is None or math.isnan(x) else f"{100 * x:5.1f}%"


def _ci_text(lo: float, hi: float, pct: bool) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return "[   -   ]"
    if pct:
        return f"[{100 * lo:5.1f}, {100 * hi:5.1f}]"
    return f"[{lo:7.1f}, {hi:7.1f}]"


def _bid_lines(df: pd.DataFrame, n_tricks: int, mark: int | None) -> list[str]:
    lines = [f"  {'bid':>3}  {'P(make)':>7} {'CI':>14}  {'E[score]':>8} {'CI':>18}  "
             f"{'E[tricks]':>9}  {'P(over)':>7}"]
    for b, r in df.iterrows():
        star = " <" if b == mark else ""
        make_ci = _ci_text(r["p_make_lo"], r["p_make_hi"], True)
        lines.append(
            f"  {int(b):>3}  {_pct(r['p_make']):>7} {make_ci}"
            f"  {r['ev']:8.1f} {_ci_text(r['ev_lo'], r['ev_hi'], False)}  {r['e_tricks']:9.2f}"
            f"  {_pct(r['p_over']):>7}{star}"
        )
    lines.append("")
    lines.append("  tricks taken (%) by bid:")
    head = "  bid " + "".join(f"{t:>4}" for t in range(n_tricks + 1))
    lines.append(head)
    for b, r in df.iterrows():
        cells = []
        for t in range(n_tricks + 1):
            v = r[f"t{t}"]
            cells.append(f"{'.':>4}" if v == 0 else f"{min(99, round(100 * v)):>4}"
                         if v >= 0.005 else f"{'0':>4}")
        lines.append(f"  {int(b):>3} " + "".join(cells))
    return lines


def render_text(a: Advice) -> str:
    """The advice as readable text (what ``whist-sim advise`` prints)."""
    s = a.scenario
    n = s.rules.n_tricks
    p = s.rules.players
    from .reports.labels import position_label

    lines = [f"hand {format_hand(s.hand)} ({format_hand(s.hand, style='suits')}), seat {s.seat}"]
    if s.mode == "contract":
        earlier = ", ".join(map(str, s.bids)) if s.bids else "none"
        lines.append(
            f"contract phase: declarer seat {s.declarer}, trump {STRAINS[s.trump]}, level "
            f"{s.level}; earlier bids {earlier}; you bid {position_label(s.position, p)}"
            + (f" and may not bid {s.forbidden}" if s.forbidden is not None else "")
        )
    else:
        lines.append(f"auction: declaring in each strain, contracts {s.level}..{n}")
    cond = []
    if s.constraints:
        cond.append("constraints " + ", ".join(s.constraints))
    for seat, m in enumerate(s.known):
        if m and seat != s.seat:
            cond.append(f"seat {seat} holds {format_hand(m)}")
    if a.consistent:
        cond.append("bid-consistent sampling")
    lines.append(
        f"{a.deals:,} sampled deals (seed {a.seed}), play {a.play}, others bid {a.bid_policy}"
        + (f"; {'; '.join(cond)}; acceptance {a.acceptance:.2%} of {a.tries:,} deals dealt"
           if cond else "")
    )
    lines.append("")
    if s.mode == "auction":
        lines.append("  strain  best bid  E[score]        CI            P(make)  E[tricks]")
        for strain, r in a.strains.iterrows():
            star = " <" if strain == STRAINS[a.best_strain] else ""
            lines.append(
                f"  {strain:>6}  {int(r['bid']):>8}  {r['ev']:8.1f} "
                f"{_ci_text(r['ev_lo'], r['ev_hi'], False)}  {_pct(r['p_make']):>7}"
                f"  {r['e_tricks']:9.2f}{star}"
            )
        lines.append("")
        lines.append(f"trump {STRAINS[a.best_strain]}, contracts if you declare:")
    lines.extend(_bid_lines(a.bids_table(), n, a.recommended))
    lines.append("")
    pct = round(a.confidence * 100)
    rec = a.bids_table().loc[a.recommended]
    text = f"recommended bid: {a.recommended} (expected score {rec['ev']:.1f} points"
    if a.runner_up is not None and a.ev_diff_ci is not None:
        lo, hi = a.ev_diff_ci
        sure = "clearly better" if lo > 0 else "not clearly better"
        text += (f"; {a.ev_diff:+.1f} vs. the runner-up {a.runner_up}, {pct}% CI "
                 f"[{lo:+.1f}, {hi:+.1f}] paired over the same deals: {sure})")
    else:
        text += ")"
    lines.append(text)
    if s.mode == "auction":
        if a.best_call == "pass":
            lines.append("best call: pass (declaring loses points on average in every strain)")
        else:
            lines.append(
                f"best call: {a.best_call} (compete up to {a.recommended}"
                f"{STRAINS[a.best_strain]}: the contract with the best expected score)"
            )
    if a.dd is not None:
        lines.extend(a.dd.lines(s.mode))
    return "\n".join(lines)
