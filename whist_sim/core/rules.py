"""The rule options of RULES.md as one frozen, validated value, stored with every result.

Every variant of the rule book (where the pages differ, and our own readings, RULES §8a) is a
field here with the book's default; nothing else in the package holds rule options. ``Rules()`` is
the rule book as written.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DIRECTIONS = ("left", "across", "right")
THREE_PLAYER_DECKS = ("no_suit", "no_low", "one_random")
BID_ORDERS = ("number", "suit")  # RULES §2: what a bid must beat
AFTER_THIRD_FRISCH = ("pass", "redeal")  # RULES §3: four passes after the third Frisch
FIRST_MIN_LEVEL = 5  # RULES §2: the auction starts at 5
MAX_FRISCH = 3  # RULES §3: at most three Frisches per deal
FRISCH_CARDS = 3  # RULES §3: three cards are passed
MAX_REDEALS = 50  # after_third_frisch=redeal: a deal redealt this often stays thrown in (a guard
#   against strategies that never bid; the engines' limit, not a rule of the table)


class RulesError(ValueError):
    """An impossible combination of rule options; ``option`` names the rule option at fault
    (``None`` when it is a combination of several)."""

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


#: the widest score of one deal that the compiled engine stores (``int16`` columns): every legal
#: combination of the ranged options below must score within it (see :func:`score_extremes`)
SCORE_STORE_LIMITS = (-(1 << 15), (1 << 15) - 1)
#: the largest rules file read (a rules file is a few lines of TOML)
MAX_RULES_FILE_BYTES = 64 * 1024
#: highest number of tricks in a deal under any rule (three players, ``one_random``: 17)
MOST_TRICKS = 17


def _ranged(default: int, lo: int, hi: int, what: str = "") -> Any:
    """A whole-number rule option with its default and its legal range ``lo..hi`` (inclusive);
    ``what`` words the range in the error message (default ``in lo..hi``)."""
    return field(default=default, metadata={"range": (lo, hi), "what": what or f"in {lo}..{hi}"})


@dataclass(frozen=True)
class Rules:
    """Rule options of RULES.md; defaults are the rule book's.

    Seats are 0..players-1, clockwise; the player to the left of seat ``s`` is ``(s+1) % players``.
    Points are game points as in RULES §6.
    """

    # §2 trump auction
    pass_is_final: bool = False  # a player who passed may not bid again in that auction
    bid_order: str = "number"  # 'number' (more tricks, then higher strain) or 'suit' (strain first)
    # §3 Frisch
    frisch: bool = True  # four passes lead to a Frisch (else the deal is thrown in at once)
    frisch_raises_minimum: bool = (
        True  # each Frisch raises the minimum bid by one (5 -> 6 -> 7 -> 8)
    )
    frisch_directions: tuple[str, ...] = ("left", "left", "left")  # receiver of Frisch 1, 2, 3
    after_third_frisch: str = "pass"  # 'pass' (thrown in, next dealer) or 'redeal' (same dealer)
    # §6 scoring
    #   (ranges: every legal combination scores a deal within SCORE_STORE_LIMITS)
    made_bonus: int = _ranged(10, -1000, 1000)  # b > 0 made: t*t + made_bonus
    # b > 0 missed: -miss_per_trick * |t - b|
    miss_per_trick: int = _ranged(10, 0, 1000, "in 0..1000 (costs are never negative)")
    zero_under: int = _ranged(50, -1000, 1000)  # zero made in an under deal
    zero_over: int = _ranged(25, -1000, 1000)  # zero made in an over deal
    zero_fail_first: int = _ranged(-50, -1000, 1000)  # zero missed, first trick taken
    zero_fail_refund: int = _ranged(10, -1000, 1000)  # zero missed: + this per trick after the
    #   first
    # §5 revokes in recorded games
    # points a proven revoke costs the offender
    revoke_penalty: int = _ranged(100, 0, 1000, "in 0..1000 (costs are never negative)")
    # §7 game
    # game ends when a player reaches this total
    target: int = _ranged(500, 1, 1_000_000, "positive, at most 1000000")
    # §8 three players
    players: int = _ranged(4, 3, 4, "3 or 4")  # 4, or 3 for the three-player variants
    three_player_deck: str = (
        "no_suit"  # 'no_suit' (clubs removed), 'no_low' (2-5 removed), 'one_random'
    )

    def __post_init__(self):
        if isinstance(self.frisch_directions, str):
            object.__setattr__(
                self,
                "frisch_directions",
                tuple(d.strip() for d in self.frisch_directions.split(",")),
            )
        elif isinstance(self.frisch_directions, (list, tuple)):
            object.__setattr__(self, "frisch_directions", tuple(self.frisch_directions))
        else:
            raise RulesError(
                "frisch_directions must be three directions, such as 'left,across,right', "
                f"got {self.frisch_directions!r}",
                "frisch_directions",
            )
        self.validate()

    # ------------------------------------------------------------------ validation
    def validate(self) -> None:
        for name in ("pass_is_final", "frisch", "frisch_raises_minimum"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, got {getattr(self, name)!r}",
                                 name)
        for f in dataclasses.fields(self):
            if "range" not in f.metadata:
                continue
            v, (lo, hi) = getattr(self, f.name), f.metadata["range"]
            if isinstance(v, bool) or not isinstance(v, int):
                raise RulesError(f"{f.name} must be a whole number, got {v!r}", f.name)
            if not lo <= v <= hi:
                raise RulesError(f"{f.name} must be {f.metadata['what']}, got {v}", f.name)
        if self.bid_order not in BID_ORDERS:
            raise RulesError(
                f"bid_order must be one of {', '.join(BID_ORDERS)}, got {self.bid_order!r}",
                "bid_order",
            )
        if self.after_third_frisch not in AFTER_THIRD_FRISCH:
            raise RulesError(
                f"after_third_frisch must be one of {', '.join(AFTER_THIRD_FRISCH)}, "
                f"got {self.after_third_frisch!r}",
                "after_third_frisch",
            )
        if self.three_player_deck not in THREE_PLAYER_DECKS:
            raise RulesError(
                f"three_player_deck must be one of {', '.join(THREE_PLAYER_DECKS)}, "
                f"got {self.three_player_deck!r}",
                "three_player_deck",
            )
        if len(self.frisch_directions) != MAX_FRISCH:
            raise RulesError(
                f"frisch_directions needs {MAX_FRISCH} directions (one per Frisch), "
                f"got {','.join(map(str, self.frisch_directions))!r}",
                "frisch_directions",
            )
        for d in self.frisch_directions:
            if d not in DIRECTIONS:
                raise RulesError(
                    f"frisch direction {d!r} is not one of {', '.join(DIRECTIONS)}",
                    "frisch_directions",
                )
            if d == "across" and self.players == 3:
                raise RulesError("frisch direction 'across' needs four players",
                                 "frisch_directions")

    # ------------------------------------------------------------------ derived facts
    @property
    def n_tricks(self) -> int:
        """Tricks in a deal (= cards per hand): 13, or 13 / 12 / 17 with three players."""
        if self.players == 4:
            return 13
        return {"no_suit": 13, "no_low": 12, "one_random": 17}[self.three_player_deck]

    @property
    def hand_size(self) -> int:
        return self.n_tricks

    @property
    def max_level(self) -> int:
        """Highest auction level and contract: the number of tricks in the deal."""
        return self.n_tricks

    @property
    def deck_mask(self) -> int:
        """Bitmask of the cards in play before any random removal (52 for ``one_random``)."""
        full = (1 << 52) - 1
        if self.players == 4 or self.three_player_deck == "one_random":
            return full
        if self.three_player_deck == "no_suit":
            return full & ~0x1FFF  # clubs removed
        low = 0
        for s in range(4):
            low |= 0xF << (13 * s)  # ranks 2, 3, 4, 5
        return full & ~low

    @property
    def lowest_strain(self) -> int:
        """The lowest strain a bid may name (RULES §8): clubs (0), or diamonds (1) when the deck
        has no clubs (three players, ``no_suit``): a trump suit nobody holds is not a bid."""
        return 1 if self.players == 3 and self.three_player_deck == "no_suit" else 0

    def beats(self, bid: int, other: int) -> bool:
        """Does bid code ``bid`` beat bid code ``other`` (``0``: no bid yet) in the auction order
        of ``bid_order`` (RULES §2)? Codes are ``5 * n + strain``."""
        if other == 0:
            return True
        if self.bid_order == "number":
            return bid > other
        return (bid % 5, bid // 5) > (other % 5, other // 5)

    def direction_offset(self, frisch_index: int) -> int:
        """Seat offset of the receiver in Frisch ``frisch_index`` (0-based): left = +1."""
        d = self.frisch_directions[frisch_index]
        return {"left": 1, "across": 2, "right": self.players - 1}[d]

    # ------------------------------------------------------------------ serialisation
    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["frisch_directions"] = list(self.frisch_directions)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Rules:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**d)

    @classmethod
    def from_json(cls, text: str) -> Rules:
        return cls.from_dict(json.loads(text))

    def replace(self, **changes: Any) -> Rules:
        return dataclasses.replace(self, **changes)

    def changes(self) -> dict[str, Any]:
        """The options that differ from the rule book's defaults."""
        base = Rules().to_dict()
        return {k: v for k, v in self.to_dict().items() if base[k] != v}

    def __str__(self) -> str:
        ch = self.changes()
        if not ch:
            return "Rules(rule book defaults)"
        return "Rules(" + ", ".join(f"{k}={v}" for k, v in sorted(ch.items())) + ")"


def rule_names() -> tuple[str, ...]:
    """The names of every rule option, in :class:`Rules` field order."""
    return tuple(f.name for f in dataclasses.fields(Rules))


def rule_ranges() -> dict[str, tuple[int, int]]:
    """The whole-number rule options and their legal ranges ``(lo, hi)``, inclusive, in
    :class:`Rules` field order (the ranges are declared with the fields)."""
    return {f.name: f.metadata["range"] for f in dataclasses.fields(Rules)
            if "range" in f.metadata}


def score_extremes() -> tuple[int, int]:
    """The lowest and highest score of one deal (RULES §6) over every legal combination of rule
    options and every contract and trick count (up to :data:`MOST_TRICKS`): the scoring formulas
    are linear in each option, so the extremes are at the ends of the ranges."""
    r = rule_ranges()
    scores = []
    for t in range(1, MOST_TRICKS + 1):
        scores += [t * t + v for v in r["made_bonus"]]  # made contract t
        scores += [-v * t for v in r["miss_per_trick"]]  # a contract missed by t tricks
        scores += [a + b * (t - 1) for a in r["zero_fail_first"] for b in r["zero_fail_refund"]]
    scores += [*r["zero_under"], *r["zero_over"]]
    return min(scores), max(scores)


def load_rules_file(path: str | Path) -> dict[str, Any]:
    """The rule options of a TOML file: top-level keys are :class:`Rules` field names
    (``zero_over = 30``; ``frisch_directions = ["left", "across", "right"]`` or
    ``"left,across,right"``).

    Returns the file's options as a dict (to be combined with others, e.g. command-line flags, by
    ``Rules(**options)``). Raises :class:`RulesError` with a one-line message naming the file and
    the key for an unknown key or a bad value, and naming the file for unreadable or invalid TOML
    or options that contradict each other.
    """
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_RULES_FILE_BYTES + 1)
    except OSError as e:
        raise RulesError(f"{p}: cannot read the rules file: {e.strerror or e}") from None
    if len(raw) > MAX_RULES_FILE_BYTES:
        raise RulesError(f"{p}: a rules file is at most {MAX_RULES_FILE_BYTES:,} bytes; this one "
                         "is larger (is it the right file?)")
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise RulesError(f"{p}: not a UTF-8 text file (byte {e.start}: {e.reason}); save it "
                         "as UTF-8") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{p}: not a valid TOML file: {e}") from None
    except RecursionError:
        raise RulesError(f"{p}: not a valid TOML file: nested too deeply") from None
    names = rule_names()
    for key, value in data.items():
        if key not in names:
            raise RulesError(
                f"{p}: unknown rule option {key!r} (the keys are: {', '.join(names)})"
            )
        try:
            Rules(**{key: value})
        except (RulesError, TypeError, ValueError) as e:
            msg = str(e) if str(e).startswith(key) else f"{key}: {e}"
            raise RulesError(f"{p}: {msg}") from None
    try:
        Rules(**data)
    except (RulesError, TypeError, ValueError) as e:
        raise RulesError(f"{p}: {e}") from None
    return dict(data)
