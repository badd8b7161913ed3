"""One deal of Israeli Whist as a state machine: the executable form of RULES.md.

A :class:`DealState` moves through the phases of a deal::

    auction --(a bid and P-1 passes)--> contracts --> play --> scored
       |  ^
       |  '-- frisch <--(P passes, Frisch allowed and fewer than 3 played)
       '--(P passes, no Frisch left)--> thrown_in

In every phase, :meth:`DealState.legal_actions` lists what the seat to move
(:attr:`DealState.to_move`) may do, in the order of docs/ENGINE.md §3, and :meth:`DealState.apply`
performs one action or raises :class:`IllegalAction` naming the rule it breaks.
Actions are plain integers:

* auction: a call code, ``0`` = pass, a bid ``(n, strain)`` = ``5 * n + strain``
  (strain 0..3 = C, D, H, S; 4 = NT), so codes compare like bids (RULES §2);
* frisch: the bitmask of the three cards the seat to move lays down (RULES §3);
* contracts: the number of tricks bid, ``0..n_tricks`` (RULES §4);
* play: a card code ``13 * suit + rank`` (RULES §5).

Seats are ``0..P-1`` clockwise (``P = rules.players``); hands are ``int`` bitmasks over card codes.
Nothing here is random: dealing from a random stream lives in :func:`deal_hands`.
"""

from __future__ import annotations

import copy
import operator
from collections.abc import Sequence
from itertools import combinations

from ..core.cards import (
    N_CARDS,
    NT,
    STRAINS,
    SUIT_MASKS,
    SUITS,
    NotationError,
    card_str,
    cards_of,
    format_hand,
    parse_card,
    parse_deal,
    parse_hand,
    parse_strain,
    rank_of,
    strain_str,
    suit_of,
)
from ..core.rng import DealRng
from ..core.rules import FIRST_MIN_LEVEL, FRISCH_CARDS, MAX_FRISCH, Rules
from ..core.scoring import score

PHASES = ("auction", "frisch", "contracts", "play", "scored", "thrown_in")
PASS = 0
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


class IllegalAction(ValueError):
    """An action that the rules (RULES.md) do not allow in the current state."""


# --------------------------------------------------------------------------- calls


def bid_code(level: int, strain: int) -> int:
    """Call code ``5 * level + strain`` of a bid (strain 0..3 = C, D, H, S; 4 = NT)."""
    return 5 * level + strain


def call_level(code: int) -> int:
    """Level ``n`` of a bid code (0 for pass)."""
    return code // 5


def call_strain(code: int) -> int:
    """Strain of a bid code (0..3 = C, D, H, S; 4 = NT)."""
    return code % 5


def call_str(code: int) -> str:
    """``'pass'``, ``'5C'``, ``'9NT'``: the notation of RULES §10."""
    if code == PASS:
        return "pass"
    return f"{call_level(code)}{STRAINS[call_strain(code)]}"


def parse_call(text: str) -> int:
    """Call code of ``'pass'`` (0) or of a bid ``'5C'``, ``'7h'``, ``'9NT'``, ``'6♠'``.

    Only the notation is checked here (a level of 1..99 and a strain); whether the bid is legal
    at that point of the auction is the rules' business (:class:`DealState`).
    """
    if not isinstance(text, str):
        raise NotationError(f"call {text!r}: expected text such as 'pass', '5C' or '9NT'")
    t = text.strip()
    if t.lower() == "pass":
        return PASS
    digits = ""
    while len(digits) < len(t) and t[len(digits)].isdigit():
        digits += t[len(digits)]
    strain_text = t[len(digits) :].upper()
    if not digits or not strain_text:
        raise NotationError(f"call {text!r}: expected 'pass' or level then strain, e.g. 5C, 9NT")
    try:
        strain = parse_strain(strain_text)
    except NotationError:
        raise NotationError(
            f"call {text!r}: unknown strain {strain_text!r} (use C D H S NT)") from None
    level = int(digits)
    if not 1 <= level <= 99:
        raise NotationError(f"call {text!r}: level {level} is not a number of tricks")
    return bid_code(level, strain)


# --------------------------------------------------------------------------- dealing


def shuffled_deck(rules: Rules, rng: DealRng) -> list[int]:
    """The deck of ``rules`` shuffled with ``rng`` exactly as docs/ENGINE.md §3 step 1.

    The deck is the card codes of ``rules.deck_mask`` ascending; Fisher-Yates from the top:
    for ``j`` from ``len - 1`` down to ``1``, swap ``deck[j]`` with ``deck[rng.below(j + 1)]``.
    """
    deck = cards_of(rules.deck_mask)
    for j in range(len(deck) - 1, 0, -1):
        k = rng.below(j + 1)
        deck[j], deck[k] = deck[k], deck[j]
    return deck


def deal_hands(rules: Rules, rng: DealRng) -> tuple[tuple[int, ...], int]:
    """Shuffle and deal (docs/ENGINE.md §3 step 1).

    Returns ``(hands, removed_card)``: the hand bitmasks by seat and, for the ``one_random``
    three-player deck, the removed card (``deck[51]``), else ``-1``.
    """
    deck = shuffled_deck(rules, rng)
    h = rules.hand_size
    hands = tuple(sum(1 << c for c in deck[s * h : (s + 1) * h]) for s in range(rules.players))
    removed = -1
    if rules.players == 3 and rules.three_player_deck == "one_random":
        removed = deck[51]
    return hands, removed


# --------------------------------------------------------------------------- the deal


class DealState:
    """The state of one deal, from the first call to the score (RULES §2-§6).

    Create it with the hands as dealt (``DealState(rules, dealer, hands)``) or from a random
    stream (:meth:`DealState.deal`). Policies and tools read it through the properties below;
    only :meth:`apply` changes it. The state knows every hand: a bot that should only see its
    own cards must restrict itself to ``state.hand(state.to_move)`` and the public history.
    """

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[int],
        removed_card: int = -1,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules value, got {type(rules).__name__}")
        p = rules.players
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < p:
            raise ValueError(f"dealer must be a seat in 0..{p - 1}, got {dealer!r}")
        hands = tuple(int(h) for h in hands)
        if len(hands) != p:
            raise ValueError(f"{len(hands)} hands given, the rules need {p} players")
        seen = 0
        for s, h in enumerate(hands):
            if h < 0 or h >> N_CARDS:
                raise ValueError(f"hand of seat {s}: mask has bits outside the 52 cards")
            if h.bit_count() != rules.hand_size:
                raise ValueError(
                    f"hand of seat {s} has {h.bit_count()} cards, expected {rules.hand_size}"
                )
            outside = h & ~rules.deck_mask
            if outside:
                raise ValueError(
                    f"hand of seat {s}: {_cards_text(outside)} not in this deck "
                    f"({rules.three_player_deck})"
                )
            if h & seen:
                raise ValueError(f"hand of seat {s}: {_cards_text(h & seen)} already dealt")
            seen |= h
        if removed_card == -1 and rules.players == 3 and rules.three_player_deck == "one_random":
            rest = rules.deck_mask & ~seen
            removed_card = cards_of(rest)[0] if rest.bit_count() == 1 else -1

        self.rules: Rules = rules
        self.dealer: int = dealer
        self.dealt: tuple[int, ...] = hands
        self.removed_card: int = removed_card
        self._hands: list[int] = list(hands)
        self._phase: str = "auction"
        self.first_caller: int = (dealer + 1) % p
        self._to_move: int = self.first_caller
        # auction (RULES §2), across all Frisch rounds
        self._calls: list[int] = []
        self._auction_calls: list[int] = []  # calls of the current auction only
        self._passed: set[int] = set()  # seats that passed in the current auction
        self._highest_bid: int = PASS
        self._highest_bidder: int = -1
        self._min_level: int = FIRST_MIN_LEVEL
        # Frisch (RULES §3)
        self._frisch: list[tuple[int, ...]] = []  # completed Frisches: masks passed, by seat
        self._frisch_choice: list[int | None] = [None] * p
        # result of the auction
        self._declarer: int = -1
        self._trump: int = -1
        self._level: int = 0
        # contracts (RULES §4)
        self._contracts: list[int | None] = [None] * p
        # play (RULES §5)
        self._plays: list[int] = []
        self._trick: list[tuple[int, int]] = []  # (seat, card) of the trick in progress
        self._leader: int = -1
        self._tricks_taken: list[int] = [0] * p
        self._completed_tricks: list[tuple[int, tuple[tuple[int, int], ...]]] = []
        self._revokes: list[tuple[int, int]] = []  # (index in plays, seat) of penalised revokes
        self._scores: tuple[int, ...] = ()

    @classmethod
    def deal(cls, rules: Rules, rng: DealRng, dealer: int) -> DealState:
        """A fresh deal: the hands are dealt from ``rng`` as docs/ENGINE.md §3 step 1."""
        hands, removed = deal_hands(rules, rng)
        return cls(rules, dealer, hands, removed)

    @classmethod
    def from_text(
        cls, hands: str | Sequence[str], dealer: int = 0, rules: Rules | None = None
    ) -> DealState:
        """A deal from hands in RULES §9 notation: a deal string ``'0:h0 h1 h2 h3'`` or one hand
        string per seat (PBN ``'AKQ2.K3.QJ54.872'`` or ``'S:AKQ2 H:K3 D:QJ54 C:872'``)."""
        rules = Rules() if rules is None else rules
        if isinstance(hands, str):
            masks = parse_deal(hands, players=rules.players, size=rules.hand_size)
        else:
            masks = [parse_hand(h, size=rules.hand_size) for h in hands]
        return cls(rules, dealer, masks)

    def parse_action(self, text: str | int) -> int:
        """The action written as ``text`` for the current phase: a call (``'pass'``, ``'5S'``),
        a Frisch pass (``'2C 3C 4C'``), a contract (``'7'``) or a card (``'AS'``); an ``int`` is
        returned as is. Only the notation is checked (:class:`NotationError`), not legality."""
        if isinstance(text, int) and not isinstance(text, bool):
            return text
        if not isinstance(text, str):
            raise NotationError(f"action {text!r}: expected text")
        if self._phase == "auction":
            return parse_call(text)
        if self._phase == "frisch":
            mask = 0
            for tok in text.replace(",", " ").split():
                mask |= 1 << parse_card(tok)
            return mask
        if self._phase == "contracts":
            try:
                return int(text)
            except ValueError:
                raise NotationError(f"contract {text!r}: expected a number of tricks") from None
        if self._phase == "play":
            return parse_card(text)
        raise IllegalAction(f"the deal is over ({self._phase}): no more actions")

    def apply_text(self, *actions: str | int) -> DealState:
        """Apply actions written as text (see :meth:`parse_action`), in order. Returns ``self``.

        Raises :class:`IllegalAction` (or :class:`NotationError` for unreadable text).
        """
        for a in actions:
            self.apply(self.parse_action(a))
        return self

    def clone(self) -> DealState:
        """An independent copy (for bots that look ahead)."""
        return copy.deepcopy(self)

    # ------------------------------------------------------------------ read-only views
    @property
    def phase(self) -> str:
        """One of ``'auction'``, ``'frisch'``, ``'contracts'``, ``'play'``, ``'scored'``,
        ``'thrown_in'``."""
        return self._phase

    @property
    def to_move(self) -> int:
        """Seat whose action is due; -1 once the deal is over."""
        return self._to_move

    @property
    def calls(self) -> tuple[int, ...]:
        """Every auction call code so far, across all Frisch rounds (0 = pass)."""
        return tuple(self._calls)

    @property
    def highest_bid(self) -> int:
        """Code of the highest bid in the current auction; 0 if none yet."""
        return self._highest_bid

    @property
    def highest_bidder(self) -> int:
        """Seat of the highest bid in the current auction; -1 if none yet."""
        return self._highest_bidder

    @property
    def min_level(self) -> int:
        """Lowest level a bid may name in the current auction (5, raised by Frisches, §3)."""
        return self._min_level

    @property
    def frisch(self) -> tuple[tuple[int, ...], ...]:
        """Completed Frisches: for each, the 3-card masks passed, by seat."""
        return tuple(self._frisch)

    @property
    def declarer(self) -> int:
        """Seat that won the auction; -1 before that (and if thrown in)."""
        return self._declarer

    @property
    def trump(self) -> int:
        """Trump strain of the deal: 0..3 = C, D, H, S, 4 = NT; -1 before the auction ends."""
        return self._trump

    @property
    def level(self) -> int:
        """The declarer's auction level; 0 before the auction ends."""
        return self._level

    @property
    def plays(self) -> tuple[int, ...]:
        """Cards played so far, in order."""
        return tuple(self._plays)

    @property
    def leader(self) -> int:
        """Seat that led (or leads) the trick in progress; -1 before play."""
        return self._leader

    @property
    def tricks_taken(self) -> tuple[int, ...]:
        """Tricks won so far, by seat."""
        return tuple(self._tricks_taken)

    @property
    def completed_tricks(self) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """Finished tricks in order: ``(winner, ((seat, card), ...))``."""
        return tuple(self._completed_tricks)

    @property
    def revokes(self) -> tuple[tuple[int, int], ...]:
        """Penalised revokes: ``(index in plays, seat)`` (only with ``allow_revoke``)."""
        return tuple(self._revokes)

    @property
    def scores(self) -> tuple[int, ...]:
        """Points by seat once scored (RULES §6, minus revoke fines); zeros if thrown in;
        ``()`` before the end."""
        return self._scores

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def n_tricks(self) -> int:
        """Tricks in this deal: 13, or 12 / 17 in some three-player decks (RULES §8)."""
        return self.rules.n_tricks

    @property
    def hands(self) -> tuple[int, ...]:
        """Current hand masks by seat (after Frisch exchanges, minus cards played)."""
        return tuple(self._hands)

    def hand(self, seat: int) -> int:
        """Current hand mask of ``seat``."""
        return self._hands[seat]

    @property
    def redeal_due(self) -> bool:
        """True when the deal was thrown in by four passes after the third Frisch and the rules
        say the same dealer shuffles and deals again (``after_third_frisch=redeal``, RULES §3).
        The deal itself stays thrown in (no score); the caller deals the next one."""
        return (self._phase == "thrown_in" and self.rules.after_third_frisch == "redeal"
                and self.rules.frisch and self.frisch_count >= MAX_FRISCH)

    @property
    def is_over(self) -> bool:
        """True once the deal is scored or thrown in."""
        return self._phase in ("scored", "thrown_in")

    @property
    def frisch_count(self) -> int:
        """Number of Frisches completed so far (0..3)."""
        return len(self._frisch)

    @property
    def auction_calls(self) -> tuple[int, ...]:
        """The calls of the current auction (since the last Frisch)."""
        return tuple(self._auction_calls)

    @property
    def contracts(self) -> tuple[int | None, ...]:
        """Contracts by seat; ``None`` for a seat that has not bid yet."""
        return tuple(self._contracts)

    @property
    def contract_order(self) -> tuple[int, ...]:
        """Seats in contract-bidding order: the declarer first, then clockwise (RULES §4)."""
        if self._declarer < 0:
            return ()
        return tuple((self._declarer + k) % self.players for k in range(self.players))

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress as ``(seat, card)`` pairs in playing order."""
        return tuple(self._trick)

    @property
    def led_suit(self) -> int:
        """Suit led to the trick in progress, or -1 before the lead."""
        return suit_of(self._trick[0][1]) if self._trick else -1

    @property
    def trick_number(self) -> int:
        """0-based index of the trick in progress (= tricks completed)."""
        return len(self._completed_tricks)

    @property
    def over(self) -> bool:
        """True when the contracts sum to more than the tricks in the deal (RULES §4, §6)."""
        if any(c is None for c in self._contracts):
            return False
        return sum(self._contracts) > self.n_tricks  # type: ignore[arg-type]

    def trick_winner(self, trick: Sequence[tuple[int, int]] | None = None) -> int:
        """Seat that wins ``trick`` (default: the trick in progress) as it stands (RULES §5)."""
        trick = self._trick if trick is None else trick
        if not trick:
            raise ValueError("no card has been played to this trick")
        return trick[winning_index(trick, self._trump)][0]

    def winning_card(self) -> int:
        """Card currently winning the trick in progress, or -1 before the lead."""
        if not self._trick:
            return -1
        return self._trick[winning_index(self._trick, self._trump)][1]

    def would_win(self, card: int) -> bool:
        """Would ``card``, played now, win the trick as it stands? (docs/ENGINE.md §5).

        A trump beats a non-trump and a lower trump; otherwise a higher card of the led suit
        wins while no trump has been played. Any card wins an empty trick.
        """
        if not self._trick:
            return True
        return _beats(card, self.winning_card(), self.led_suit, self._trump)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[int]:
        """Legal actions of the seat to move, in the order of docs/ENGINE.md §3.

        auction: pass, then the legal bid codes ascending; frisch: every 3-card mask of the
        hand, in lexicographic order of the ascending card codes; contracts: the legal numbers
        ascending; play: the legal card codes ascending; a finished deal: ``[]``.
        """
        if self._phase == "auction":
            return self._legal_calls()
        if self._phase == "frisch":
            hand = cards_of(self._hands[self._to_move])
            return [(1 << a) | (1 << b) | (1 << c) for a, b, c in combinations(hand, FRISCH_CARDS)]
        if self._phase == "contracts":
            return self._legal_contracts()
        if self._phase == "play":
            return cards_of(self._legal_play_mask())
        return []

    def _legal_calls(self) -> list[int]:
        if self.rules.pass_is_final and self._to_move in self._passed:
            return [PASS]
        bids = [
            bid_code(n, t)
            for t in range(NT + 1)
            if (low := self.lowest_level(t)) is not None
            for n in range(low, self.rules.max_level + 1)
        ]
        return [PASS, *sorted(bids)]

    def lowest_level(self, strain: int) -> int | None:
        """The lowest level at which the seat to move may bid ``strain`` now, or ``None``.

        RULES §2: the bid must beat the highest bid of the auction in the order of
        ``rules.bid_order`` and be at least :attr:`min_level`; RULES §8: clubs are no bid when the
        deck has none (``no_suit``); ``pass_is_final``: a seat that passed may only pass.
        """
        if self._phase != "auction":
            return None
        if self.rules.pass_is_final and self._to_move in self._passed:
            return None
        if strain < self.rules.lowest_strain:
            return None
        level = self._min_level
        while level <= self.rules.max_level and not self.rules.beats(
            bid_code(level, strain), self._highest_bid
        ):
            level += 1
        return level if level <= self.rules.max_level else None

    def _legal_contracts(self) -> list[int]:
        n = self.n_tricks
        low = self._level if self._to_move == self._declarer else 0
        legal = list(range(low, n + 1))
        forbidden = self.forbidden_contract()
        if forbidden is not None and forbidden in legal:
            legal.remove(forbidden)
        return legal

    def forbidden_contract(self) -> int | None:
        """The number the seat to move may not bid (RULES §4 hook), or None.

        Only the last contract bidder has one: ``n_tricks - (sum of the others)``.
        """
        if self._phase != "contracts":
            return None
        if sum(c is None for c in self._contracts) != 1:
            return None
        return self.n_tricks - sum(c for c in self._contracts if c is not None)

    def _legal_play_mask(self) -> int:
        hand = self._hands[self._to_move]
        if self._trick:
            follow = hand & SUIT_MASKS[self.led_suit]
            if follow:
                return follow
        return hand

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: int, *, allow_revoke: bool = False) -> None:
        """Perform ``action`` for the seat to move, or raise :class:`IllegalAction`.

        ``allow_revoke`` (play only) accepts a card of the hand that fails to follow suit: the
        card stands and the revoke is recorded in :attr:`revokes` for a ``revoke_penalty`` fine
        (RULES §5, §10 ``revokes: penalize``). Engines never revoke.
        """
        try:
            if isinstance(action, bool):
                raise TypeError
            action = operator.index(action)  # int, or a numpy integer
        except TypeError:
            raise IllegalAction(f"an action must be a whole number, got {action!r}") from None
        if self._phase == "auction":
            self._apply_call(action)
        elif self._phase == "frisch":
            self._apply_frisch(action)
        elif self._phase == "contracts":
            self._apply_contract(action)
        elif self._phase == "play":
            self._apply_card(action, allow_revoke)
        elif self._phase == "scored":
            raise IllegalAction("the deal is over: all tricks have been played")
        else:
            raise IllegalAction("the deal was thrown in: there is nothing more to do")

    # auction -------------------------------------------------------------
    def _apply_call(self, code: int) -> None:
        seat = self._to_move
        if code != PASS:
            self._check_bid(seat, code)
            self._highest_bid = code
            self._highest_bidder = seat
        else:
            self._passed.add(seat)
        self._calls.append(code)
        self._auction_calls.append(code)
        self._to_move = (seat + 1) % self.players
        self._maybe_end_auction()

    def _check_bid(self, seat: int, code: int) -> None:
        if code < 0 or code % 5 > NT or code < 5:
            raise IllegalAction(f"call code {code} is not a call (0 = pass, bid = 5 * n + strain)")
        text = call_str(code)
        n = call_level(code)
        if self.rules.pass_is_final and seat in self._passed:
            raise IllegalAction(
                f"{text}: seat {seat} passed earlier in this auction and may not bid again "
                "(pass_is_final)"
            )
        if n > self.rules.max_level:
            raise IllegalAction(f"{text} is above the highest level {self.rules.max_level}")
        if n < self._min_level:
            why = "" if self._min_level == FIRST_MIN_LEVEL else (
                f" after {self.frisch_count} Frisch{'es' if self.frisch_count > 1 else ''}"
            )
            raise IllegalAction(f"{text} is below the minimum level {self._min_level}{why}")
        if call_strain(code) < self.rules.lowest_strain:
            raise IllegalAction(
                f"{text}: clubs are not in the deck ({self.rules.three_player_deck}), "
                "so clubs cannot be trump"
            )
        if not self.rules.beats(code, self._highest_bid):
            order = "" if self.rules.bid_order == "number" else " (bid_order=suit)"
            raise IllegalAction(f"{text} does not beat {call_str(self._highest_bid)}{order}")

    def _maybe_end_auction(self) -> None:
        p = self.players
        calls = self._auction_calls
        if self._highest_bid == PASS:
            if len(calls) == p:  # P passes: no bid (RULES §3)
                self._no_bid()
            return
        if len(calls) >= p and all(c == PASS for c in calls[-(p - 1) :]):
            # a bid followed by P-1 passes (RULES §2)
            self._declarer = self._highest_bidder
            self._trump = call_strain(self._highest_bid)
            self._level = call_level(self._highest_bid)
            self._phase = "contracts"
            self._to_move = self._declarer

    def _no_bid(self) -> None:
        if not self.rules.frisch or self.frisch_count >= MAX_FRISCH:
            self._phase = "thrown_in"
            self._to_move = -1
            self._scores = (0,) * self.players
            return
        self._phase = "frisch"
        self._to_move = self.first_caller
        self._frisch_choice = [None] * self.players

    # frisch --------------------------------------------------------------
    def _apply_frisch(self, mask: int) -> None:
        seat = self._to_move
        hand = self._hands[seat]
        if mask < 0 or mask >> N_CARDS:
            raise IllegalAction(f"Frisch mask {mask:#x} has bits outside the 52 cards")
        n = mask.bit_count()
        if n != FRISCH_CARDS:
            raise IllegalAction(f"seat {seat} passes {n} cards, a Frisch passes {FRISCH_CARDS}")
        missing = mask & ~hand
        if missing:
            raise IllegalAction(f"{_cards_text(missing)} not in seat {seat}'s hand")
        self._frisch_choice[seat] = mask
        self._to_move = (seat + 1) % self.players
        if self._to_move != self.first_caller:
            return
        # every seat has chosen: all cards move together (RULES §3)
        offset = self.rules.direction_offset(self.frisch_count)
        passed = tuple(int(m) for m in self._frisch_choice)  # type: ignore[arg-type]
        p = self.players
        self._hands = [
            (self._hands[s] & ~passed[s]) | passed[(s - offset) % p] for s in range(p)
        ]
        self._frisch.append(passed)
        if self.rules.frisch_raises_minimum:
            self._min_level += 1
        self._auction_calls = []
        self._passed = set()
        self._phase = "auction"
        self._to_move = self.first_caller

    # contracts -----------------------------------------------------------
    def _apply_contract(self, n: int) -> None:
        seat = self._to_move
        if not 0 <= n <= self.n_tricks:
            raise IllegalAction(f"contract {n} is not in 0..{self.n_tricks}")
        if seat == self._declarer and n < self._level:
            raise IllegalAction(
                f"the declarer's contract {n} is below his auction level {self._level}"
            )
        forbidden = self.forbidden_contract()
        if forbidden is not None and n == forbidden:
            others = [self._contracts[s] for s in self.contract_order[:-1]]
            raise IllegalAction(
                f"seat {seat} bids last and may not make the contracts sum to {self.n_tricks} "
                f"({' + '.join(str(c) for c in others)} + {n})"
            )
        self._contracts[seat] = n
        self._to_move = (seat + 1) % self.players
        if all(c is not None for c in self._contracts):
            self._phase = "play"
            self._leader = self._declarer
            self._to_move = self._declarer

    # play ----------------------------------------------------------------
    def _apply_card(self, card: int, allow_revoke: bool) -> None:
        seat = self._to_move
        if not 0 <= card < N_CARDS:
            raise IllegalAction(f"card code {card} is not in 0..51")
        hand = self._hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(f"{card_str(card)} is not in seat {seat}'s hand")
        legal = self._legal_play_mask()
        if not legal >> card & 1:
            led = self.led_suit
            if not allow_revoke:
                raise IllegalAction(
                    f"seat {seat} must follow {SUIT_NAMES[led]} "
                    f"(holds {_cards_text(legal)}): {card_str(card)} is a revoke"
                )
            self._revokes.append((len(self._plays), seat))
        self._hands[seat] = hand & ~(1 << card)
        self._plays.append(card)
        self._trick.append((seat, card))
        self._to_move = (seat + 1) % self.players
        if len(self._trick) < self.players:
            return
        winner = self.trick_winner()
        self._completed_tricks.append((winner, tuple(self._trick)))
        self._tricks_taken[winner] += 1
        self._trick = []
        self._leader = winner
        self._to_move = winner
        if len(self._completed_tricks) == self.n_tricks:
            self._score()

    def _score(self) -> None:
        over = self.over
        fines = [0] * self.players
        for _, seat in self._revokes:
            fines[seat] += self.rules.revoke_penalty
        self._scores = tuple(
            score(self._contracts[s], self._tricks_taken[s], over, self.rules) - fines[s]  # type: ignore[arg-type]
            for s in range(self.players)
        )
        self._phase = "scored"
        self._to_move = -1

    # ------------------------------------------------------------------ text
    def describe_action(self, action: int) -> str:
        """Human text for an action in the current phase (``'5H'``, ``'AS'``, ``'2C 3C 4C'``)."""
        if self._phase == "auction":
            return call_str(action)
        if self._phase == "frisch":
            return " ".join(card_str(c) for c in cards_of(action))
        if self._phase == "play":
            return card_str(action)
        return str(action)

    def __repr__(self) -> str:
        hands = " ".join(format_hand(h) for h in self._hands)
        return (
            f"DealState(phase={self._phase!r}, dealer={self.dealer}, to_move={self._to_move}, "
            f"hands='{hands}')"
        )


# --------------------------------------------------------------------------- trick helpers


def _beats(card: int, best: int, led: int, trump: int) -> bool:
    """Does ``card`` beat ``best`` (the card winning so far) in a trick led in ``led``?"""
    cs, bs = suit_of(card), suit_of(best)
    if cs == trump:
        return bs != trump or rank_of(card) > rank_of(best)
    if bs == trump:
        return False
    return cs == led and rank_of(card) > rank_of(best)


def winning_index(trick: Sequence[tuple[int, int]], trump: int) -> int:
    """Index in ``trick`` (``(seat, card)`` pairs, led card first) of the card that wins it:
    the highest trump, else the highest card of the led suit (RULES §5). ``trump`` 4 = NT."""
    led = suit_of(trick[0][1])
    best = 0
    for i in range(1, len(trick)):
        if _beats(trick[i][1], trick[best][1], led, trump):
            best = i
    return best


def _cards_text(mask: int) -> str:
    return " ".join(card_str(c) for c in cards_of(mask))


__all__ = [
    "PASS",
    "PHASES",
    "SUITS",
    "DealState",
    "IllegalAction",
    "bid_code",
    "call_level",
    "call_str",
    "call_strain",
    "parse_call",
    "deal_hands",
    "shuffled_deck",
    "strain_str",
    "winning_index",
]
