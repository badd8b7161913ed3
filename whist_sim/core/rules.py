"""The rule options of RULES.md as one frozen, validated value, stored with every result.

Every variant of the rule book (where the pages differ, and our own readings, RULES §8a) is a
field here with the book's default; nothing else in the package holds rule options. ``Rules()`` is
the rule book as written.
"""

from __future__ import annotations

import dataclasses
import json
import tomllib
from dataclasses import dataclass
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
    """An impossible combination of rule options."""


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
    made_bonus: int = 10  # b > 0 made: t*t + made_bonus
    miss_per_trick: int = 10  # b > 0 missed: -miss_per_trick * |t - b|
    zero_under: int = 50  # zero made in an under deal
    zero_over: int = 25  # zero made in an over deal
    zero_fail_first: int = -50  # zero missed, first trick taken
    zero_fail_refund: int = 10  # zero missed: + this per trick after the first
    # §5 revokes in recorded games
    revoke_penalty: int = 100  # points a proven revoke costs the offender
    # §7 game
    target: int = 500  # game ends when a player reaches this total
    # §8 three players
    players: int = 4  # 4, or 3 for the three-player variants
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
                f"got {self.frisch_directions!r}"
            )
        self.validate()

    # ------------------------------------------------------------------ validation
    def validate(self) -> None:
        for name in ("pass_is_final", "frisch", "frisch_raises_minimum"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false, got {getattr(self, name)!r}")
        for name in (
            "made_bonus",
            "miss_per_trick",
            "zero_under",
            "zero_over",
            "zero_fail_first",
            "zero_fail_refund",
            "revoke_penalty",
            "target",
            "players",
        ):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int):
                raise RulesError(f"{name} must be a whole number, got {v!r}")
        if self.players not in (3, 4):
            raise RulesError(f"players must be 3 or 4, got {self.players}")
        if self.bid_order not in BID_ORDERS:
            raise RulesError(
                f"bid_order must be one of {', '.join(BID_ORDERS)}, got {self.bid_order!r}"
            )
        if self.after_third_frisch not in AFTER_THIRD_FRISCH:
            raise RulesError(
                f"after_third_frisch must be one of {', '.join(AFTER_THIRD_FRISCH)}, "
                f"got {self.after_third_frisch!r}"
            )
        if self.three_player_deck not in THREE_PLAYER_DECKS:
            raise RulesError(
                f"three_player_deck must be one of {', '.join(THREE_PLAYER_DECKS)}, "
                f"got {self.three_player_deck!r}"
            )
        if len(self.frisch_directions) != MAX_FRISCH:
            raise RulesError(
                f"frisch_directions needs {MAX_FRISCH} directions (one per Frisch), "
                f"got {','.join(map(str, self.frisch_directions))!r}"
            )
        for d in self.frisch_directions:
            if d not in DIRECTIONS:
                raise RulesError(f"frisch direction {d!r} is not one of {', '.join(DIRECTIONS)}")
            if d == "across" and self.players == 3:
                raise RulesError("frisch direction 'across' needs four players")
        if self.target <= 0:
            raise RulesError(f"target must be positive, got {self.target}")
        if self.miss_per_trick < 0 or self.revoke_penalty < 0:
            raise RulesError("miss_per_trick and revoke_penalty are costs and must be >= 0")

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
            data = tomllib.load(f)
    except OSError as e:
        raise RulesError(f"{p}: cannot read the rules file: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"{p}: not a valid TOML file: {e}") from None
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
