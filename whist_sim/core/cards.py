"""Cards, hands and deals: the one place that defines the card encoding (RULES.md §9).

Encoding (public: it is stored in result files and used by every kernel):

* a **card** is an ``int`` ``13 * suit + rank``;
  suit 0..3 = clubs, diamonds, hearts, spades; rank 0..12 = 2, 3, ..., K, A.
* a **hand** (any set of cards) is a ``uint64`` bitmask: bit ``i`` is card ``i``.
* a **deal** is a sequence of hands by seat (seat 0 first).

Text notation (RULES §9): a card is rank then suit (``AS``, ``TH``, ``2C``; ``10`` is accepted
for ``T`` and the symbols ♣♦♥♠ for ``CDHS``). A hand is written either with suit labels, highest
suit first (``S:AKQ2 H:K3 D:QJ54 C:872``) or in bridge PBN form (``AKQ2.K3.QJ54.872``:
spades.hearts.diamonds.clubs); a void is ``-`` or empty. A deal is ``0:hand hand hand hand`` (the
hands in seat order starting at the named seat), and the bridge form ``N:`` (N, E, S, W = seats
0, 1, 2, 3) is accepted too. PBN deal strings and PBN files (boards of ``[Deal "N:..."]`` tags) are
read and written by :mod:`whist_sim.core.pbn`, which builds on the parsers here.

Every malformed input raises :class:`NotationError` naming the offending part; nothing is guessed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

import numpy as np

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "♣♦♥♠"
STRAINS = ("C", "D", "H", "S", "NT")
NT = 4  # strain code for no-trump; 0..3 are the suits

N_CARDS = 52
SUIT_BITS = 0x1FFF  # the 13 bits of one suit
FULL_DECK = (1 << N_CARDS) - 1
SUIT_MASKS = tuple(SUIT_BITS << (13 * s) for s in range(4))


class NotationError(ValueError):
    """A card, hand or deal in text that does not follow RULES §9."""


# --------------------------------------------------------------------------- strains

_NT_NAMES = ("NT", "N", "NOTRUMP", "NO-TRUMP")


def parse_strain(value: str | int) -> int:
    """Strain code (0..3 = C, D, H, S; 4 = NT) of a strain in text or of its code.

    Accepts ``C D H S`` (any case), the suit symbols ``♣♦♥♠``, ``NT`` / ``N`` / ``notrump`` /
    ``no-trump``, and the codes ``0..4`` (as an int or digits). The one parser of strain names:
    calls, ``--trump`` options and the advisor use it. :class:`NotationError` otherwise.
    """
    if isinstance(value, bool):
        raise NotationError(f"strain {value!r}: expected C, D, H, S or NT")
    if isinstance(value, int) or hasattr(value, "__index__") and not isinstance(value, str):
        if 0 <= int(value) <= NT:
            return int(value)
        raise NotationError(f"strain {value!r} is not 0..4 (0..3 = C, D, H, S; 4 = NT)")
    if not isinstance(value, str):
        raise NotationError(f"strain {value!r}: expected C, D, H, S or NT")
    t = value.strip()
    up = t.upper()
    if up in _NT_NAMES:
        return NT
    if len(t) == 1 and up in SUITS:
        return SUITS.index(up)
    if len(t) == 1 and t in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t)
    if t.isdigit() and 0 <= int(t) <= NT:
        return int(t)
    raise NotationError(f"strain {value!r}: expected C, D, H, S or NT")


def strain_str(strain: int) -> str:
    """``'C'``, ``'D'``, ``'H'``, ``'S'`` or ``'NT'`` for a strain code."""
    return STRAINS[strain]


# --------------------------------------------------------------------------- single cards


def make_card(suit: int, rank: int) -> int:
    """Card code of ``rank`` (0 = 2 .. 12 = A) in ``suit`` (0 = C .. 3 = S)."""
    if not (0 <= suit < 4 and 0 <= rank < 13):
        raise NotationError(f"no card with suit {suit} and rank {rank}")
    return 13 * suit + rank


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def card_str(card: int) -> str:
    """``'AS'`` for card 51."""
    if not 0 <= card < N_CARDS:
        raise NotationError(f"card code {card} is not in 0..51")
    return RANKS[card % 13] + SUITS[card // 13]


def _suit_index(ch: str, where: str) -> int:
    ch_up = ch.upper()
    if ch_up in SUITS:
        return SUITS.index(ch_up)
    if ch in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(ch)
    raise NotationError(f"{where}: unknown suit {ch!r} (use one of C D H S or ♣♦♥♠)")


def _rank_index(ch: str, where: str) -> int:
    ch_up = ch.upper()
    if ch_up == "10":
        return RANKS.index("T")
    if len(ch_up) == 1 and ch_up in RANKS:
        return RANKS.index(ch_up)
    raise NotationError(f"{where}: unknown rank {ch!r} (use one of {' '.join(RANKS)})")


def parse_card(text: str) -> int:
    """Parse ``'AS'``, ``'TH'``, ``'10H'``, ``'Q♦'`` into a card code."""
    if not isinstance(text, str):
        raise NotationError(f"card {text!r}: expected text such as 'AS'")
    t = text.strip()
    if len(t) < 2 or len(t) > 3:
        raise NotationError(f"card {text!r}: expected rank then suit, such as 'AS' or 'TH'")
    return make_card(_suit_index(t[-1], f"card {text!r}"), _rank_index(t[:-1], f"card {text!r}"))


# --------------------------------------------------------------------------- card sets


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of an iterable of card codes (duplicates are an error)."""
    m = 0
    for c in cards:
        c = int(c)
        if not 0 <= c < N_CARDS:
            raise NotationError(f"card code {c} is not in 0..51")
        if m >> c & 1:
            raise NotationError(f"duplicate card {card_str(c)}")
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The card codes of a bitmask, ascending."""
    mask = int(mask)
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def suit_length(mask: int, suit: int) -> int:
    return (int(mask) >> (13 * suit) & SUIT_BITS).bit_count()


#: the ranks of the honours (0 = two .. 12 = ace)
ACE, KING, QUEEN, JACK = 12, 11, 10, 9


def hcp(hand: int, low_suit: int = 0) -> int:
    """High-card points (A 4, K 3, Q 2, J 1) of ``hand`` in the suits ``low_suit..3``."""
    return sum(w * (hand >> (13 * s + rank) & 1) for s in range(low_suit, 4)
               for rank, w in ((ACE, 4), (KING, 3), (QUEEN, 2), (JACK, 1)))


class CardSet:
    """An immutable set of cards over a ``uint64``-style bitmask, with the set protocol.

    >>> h = CardSet.parse("AKQ2.K3.QJ54.872")
    >>> len(h), parse_card("AS") in h
    (13, True)
    >>> h.to_pbn()
    'AKQ2.K3.QJ54.872'
    """

    __slots__ = ("mask",)
    mask: int

    def __init__(self, cards: Iterable[int] | int | CardSet | np.integer = 0):
        if isinstance(cards, CardSet):
            m = cards.mask
        elif isinstance(cards, (int, np.integer)):
            m = int(cards)
            if not 0 <= m <= FULL_DECK:
                raise NotationError(f"hand mask {m:#x} has bits outside the 52 cards")
        else:
            m = mask_of(cards)
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name, value):
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str, size: int | None = None) -> CardSet:
        return cls(parse_hand(text, size=size))

    # set protocol
    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = parse_card(card)
        return bool(
            isinstance(card, (int, np.integer))
            and 0 <= card < N_CARDS
            and self.mask >> int(card) & 1
        )

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask | CardSet(other).mask)

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & CardSet(other).mask)

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(self.mask & ~CardSet(other).mask)

    def __int__(self) -> int:
        return self.mask

    def suit(self, suit: int) -> CardSet:
        return CardSet(self.mask & SUIT_MASKS[suit])

    def suit_length(self, suit: int) -> int:
        return suit_length(self.mask, suit)

    def to_pbn(self) -> str:
        return format_hand(self.mask, style="pbn")

    def to_str(self) -> str:
        return format_hand(self.mask, style="suits")

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        return f"CardSet('{self.to_pbn()}')"


# --------------------------------------------------------------------------- hands


def format_hand(mask: int, style: str = "pbn") -> str:
    """Format a hand: ``style='pbn'`` -> ``AKQ2.K3.QJ54.872``; ``'suits'`` -> ``S:AKQ2 H:K3 ...``.

    Voids are written ``-`` in the ``suits`` style and empty in PBN (as bridge software does).
    """
    mask = int(mask)
    parts = []
    for s in (3, 2, 1, 0):
        ranks = "".join(RANKS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1)
        parts.append(ranks)
    if style == "pbn":
        return ".".join(parts)
    if style == "suits":
        return " ".join(f"{SUITS[s]}:{p or '-'}" for s, p in zip((3, 2, 1, 0), parts, strict=True))
    raise ValueError(f"unknown hand style {style!r} (use 'pbn' or 'suits')")


def _parse_suit_ranks(text: str, suit: int, where: str) -> int:
    m = 0
    if text in ("", "-"):
        return 0
    t = text.upper().replace("10", "T")
    for ch in t:
        r = _rank_index(ch, where)
        c = 13 * suit + r
        if m >> c & 1:
            raise NotationError(f"{where}: duplicate card {card_str(c)}")
        m |= 1 << c
    return m


def parse_hand(text: str, size: int | None = None) -> int:
    """Parse a hand in either notation of RULES §9 into a bitmask.

    ``size``: the required number of cards (13, or 12 / 17 in three-player decks); ``None`` = any.
    """
    if not isinstance(text, str):
        raise NotationError(f"hand {text!r}: expected text")
    src = text.strip()
    where = f"hand {text!r}"
    labelled = any(sep in src for sep in (":",)) or (src[:1] in SUIT_SYMBOLS)
    mask = 0
    if labelled:
        # 'S:AKQ2 H:K3 D:QJ54 C:872' (spaces or dots between suits) or '♠AKQ2 ♥K3 ...'
        tokens = [tok for tok in src.replace(".", " ").split() if tok]
        seen = set()
        for tok in tokens:
            if ":" in tok:
                label, ranks = tok.split(":", 1)
            else:
                label, ranks = tok[0], tok[1:]
            if len(label) != 1:
                raise NotationError(f"{where}: bad suit label {label!r} in {tok!r}")
            s = _suit_index(label, where)
            if s in seen:
                raise NotationError(f"{where}: suit {SUITS[s]} appears twice")
            seen.add(s)
            part = _parse_suit_ranks(ranks, s, where)
            mask |= part
    else:
        parts = src.split(".")
        if len(parts) != 4:
            raise NotationError(
                f"{where}: PBN form needs four suits separated by dots "
                f"(spades.hearts.diamonds.clubs), found {len(parts)}"
            )
        for suit, suit_text in zip((3, 2, 1, 0), parts, strict=True):
            mask |= _parse_suit_ranks(suit_text.strip(), suit, where)
    n = mask.bit_count()
    if size is not None and n != size:
        raise NotationError(f"{where}: has {n} cards, expected {size}")
    return mask


# --------------------------------------------------------------------------- deals

_COMPASS = {"N": 0, "E": 1, "S": 2, "W": 3}


def parse_deal(text: str, players: int = 4, size: int | None = None) -> list[int]:
    """Parse ``'0:h0 h1 h2 h3'`` (or bridge ``'N:...'``) into a list of hand masks by seat.

    The first hand belongs to the named seat, the next to the seat on its left, and so on.
    Hands must not overlap; ``size`` (if given) is the required number of cards per hand.
    """
    if not isinstance(text, str):
        raise NotationError(f"deal {text!r}: expected text")
    src = text.strip()
    first = 0
    if len(src) >= 2 and src[1] == ":" and (src[0].isdigit() or src[0].upper() in _COMPASS):
        ch = src[0].upper()
        first = int(ch) if ch.isdigit() else _COMPASS[ch]
        src = src[2:]
        if first >= players:
            raise NotationError(f"deal {text!r}: first seat {first} is not in 0..{players - 1}")
    parts = src.split()
    if len(parts) != players:
        raise NotationError(f"deal {text!r}: expected {players} hands, found {len(parts)}")
    hands = [0] * players
    seen = 0
    for i, part in enumerate(parts):
        seat = (first + i) % players
        try:
            m = parse_hand(part, size=size)
        except NotationError as e:
            raise NotationError(f"deal, seat {seat}: {e}") from None
        dup = m & seen
        if dup:
            raise NotationError(
                f"deal, seat {seat}: card(s) {' '.join(card_str(c) for c in cards_of(dup))} "
                "already in another hand"
            )
        seen |= m
        hands[seat] = m
    return hands


def format_deal(hands: Sequence[int], first: int = 0) -> str:
    """``'0:AKQ2.K3.QJ54.872 ...'``: hands in seat order starting at ``first``."""
    n = len(hands)
    return f"{first}:" + " ".join(format_hand(hands[(first + i) % n]) for i in range(n))
