"""The rule options of RULES.md as one frozen, validated value, stored with every result.

Every variant of the rule book (where the pages differ, and our own readings, RULES §8a) is a
field here with the book's default; nothing else in the package holds rule options. ``Rules()`` is
the rule book as written.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DIRECTIONS = ("left", "across", "right")
THREE_PLAYER_DECKS = ("no_suit", "no_low", "one_random")
#: the decks a learned model is fitted for, one model each (RULES §8): four players, and three
#: with each ``three_player_deck``
DECKS: tuple[str, ...] = ("four",) + THREE_PLAYER_DECKS
DECK_FOUR, DECK_NO_SUIT, DECK_NO_LOW, DECK_ONE_RANDOM = range(len(DECKS))
#: each deck in words, as the data cards head its figures
DECK_WORDS: dict[str, str] = {d: "four players" if d == "four" else f"three players, `{d}` deck"
                              for d in DECKS}
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


def deck_of(players: int, three_player_deck: str) -> int:
    """The index in :data:`DECKS` of the model for a deal of ``players`` with that deck option
    (which counts only with three players)."""
    return DECK_FOUR if players == 4 else DECKS.index(three_player_deck)


#: the widest score of one deal that the compiled engine stores (``int16`` columns): every legal
#: combination of the ranged options below must score within it
#: (:func:`whist_sim.core.scoring.score_extremes`)
SCORE_STORE_LIMITS = (-(1 << 15), (1 << 15) - 1)
#: the largest rules file read (a rules file is a few lines of TOML)
MAX_RULES_FILE_BYTES = 64 * 1024
#: highest number of tricks in a deal under any rule (three players, ``one_random``: 17)
MOST_TRICKS = 17


def _option(default: Any, help: str, section: str, *, lo: int | None = None,
            hi: int | None = None, what: str = "", choices: tuple = (),
            scoring: bool = False) -> Any:
    """A rule option's field, declared once: its ``default``, its ``help`` (one line, for the
    command line, the web form and the manual), its rule-book ``section`` (``"§6"``), and its
    legal values: a whole number in ``lo..hi`` (inclusive; ``what`` words the range in messages,
    default ``in lo..hi``), one of ``choices``, or ``True``/``False`` for a flag (a ``bool``
    default). ``scoring``: a number of the RULES §6 scoring, which the compiled engine reads from
    a slot of its own (``kernels.layout.rule_slot``). :func:`rule_options` reads these back."""
    meta: dict[str, Any] = {"help": help, "section": section, "choices": tuple(choices),
                            "scoring": scoring}
    if lo is not None and hi is not None:
        meta["range"] = (lo, hi)
        meta["what"] = what or f"in {lo}..{hi}"
    return field(default=default, metadata=meta)


_COSTS = "in 0..1000 (costs are never negative)"


@dataclass(frozen=True)
class Rules:
    """Rule options of RULES.md; defaults are the rule book's.

    Seats are 0..players-1, clockwise; the player to the left of seat ``s`` is ``(s+1) % players``.
    Points are game points as in RULES §6. Each field declares its default, help, section and legal
    values once (:func:`_option`); validation, the command-line flags, ``--rules`` files, the web
    form and the compiled engine's rule slots are derived from them (:func:`rule_options`).
    """

    # §2 trump auction
    pass_is_final: bool = _option(
        False, "a seat that passed may not bid again in that auction", "§2")
    bid_order: str = _option(
        "number", "what a bid must beat: number (more tricks first) or suit (strain first)", "§2",
        choices=BID_ORDERS)
    # §3 Frisch
    frisch: bool = _option(
        True, "four passes lead to a Frisch (else the deal is thrown in at once)", "§3")
    frisch_raises_minimum: bool = _option(
        True, "each Frisch raises the minimum bid by one (5 -> 6 -> 7 -> 8)", "§3")
    frisch_directions: tuple[str, ...] = _option(
        ("left", "left", "left"), "receivers of Frisch 1,2,3, e.g. left,across,right", "§3",
        choices=DIRECTIONS)
    after_third_frisch: str = _option(
        "pass", "four passes after the third Frisch: pass (thrown in, next dealer) or redeal "
        "(same dealer deals again)", "§3", choices=AFTER_THIRD_FRISCH)
    # §6 scoring (ranges: every legal combination scores a deal within SCORE_STORE_LIMITS)
    made_bonus: int = _option(
        10, "points added to t*t for a made contract", "§6", lo=-1000, hi=1000, scoring=True)
    miss_per_trick: int = _option(
        10, "points lost per trick over or under a missed contract", "§6", lo=0, hi=1000,
        what=_COSTS, scoring=True)
    zero_under: int = _option(
        50, "points for a made zero in an under deal", "§6", lo=-1000, hi=1000, scoring=True)
    zero_over: int = _option(
        25, "points for a made zero in an over deal", "§6", lo=-1000, hi=1000, scoring=True)
    zero_fail_first: int = _option(
        -50, "points for a missed zero, first trick", "§6", lo=-1000, hi=1000, scoring=True)
    zero_fail_refund: int = _option(
        10, "points back per trick after the first on a missed zero", "§6", lo=-1000, hi=1000,
        scoring=True)
    # §5 revokes in recorded games
    revoke_penalty: int = _option(
        100, "points a proven revoke costs the offender", "§5", lo=0, hi=1000, what=_COSTS)
    # §7 game
    target: int = _option(
        500, "game target score: the game ends when a player reaches it", "§7", lo=1,
        hi=1_000_000, what="positive, at most 1000000")
    # §8 three players
    players: int = _option(4, "4 players, or 3 for the three-player variants", "§8", lo=3, hi=4,
                           what="3 or 4", choices=(4, 3))
    three_player_deck: str = _option(
        "no_suit", "deck for three players: no_suit (clubs removed), no_low (2-5 removed) or "
        "one_random", "§8", choices=THREE_PLAYER_DECKS)

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
        """Check every option against its declaration (:func:`rule_options`), then the
        combinations; raises :class:`RulesError` naming the option."""
        for o in rule_options():
            v = getattr(self, o.name)
            if o.kind == "flag":
                if not isinstance(v, bool):
                    raise RulesError(f"{o.name} must be true or false, got {v!r}", o.name)
            elif o.kind == "number":
                lo, hi = o.range
                if isinstance(v, bool) or not isinstance(v, int):
                    raise RulesError(f"{o.name} must be a whole number, got {v!r}", o.name)
                if not lo <= v <= hi:
                    raise RulesError(f"{o.name} must be {o.what}, got {v}", o.name)
            elif o.kind == "choice":
                if v not in o.choices:
                    raise RulesError(f"{o.name} must be one of {', '.join(o.choices)}, got {v!r}",
                                     o.name)
            else:  # directions: one per Frisch
                if len(v) != MAX_FRISCH:
                    raise RulesError(
                        f"{o.name} needs {MAX_FRISCH} directions (one per Frisch), "
                        f"got {','.join(map(str, v))!r}", o.name)
                for d in v:
                    if d not in o.choices:
                        raise RulesError(f"frisch direction {d!r} is not one of "
                                         f"{', '.join(o.choices)}", o.name)
        if "across" in self.frisch_directions and self.players == 3:
            raise RulesError("frisch direction 'across' needs four players", "frisch_directions")

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

    def flags(self) -> str:
        """The command-line options that set these rules (:meth:`changes` as flags:
        ``--players 3 --three-player-deck no_low``; empty for the rule book's defaults). With
        three players the deck is always named, its default too, so a reader sees which."""
        changed = self.changes()
        return " ".join(_flag_text(k, v) for k, v in self.to_dict().items()
                        if k in changed or (k == "three_player_deck" and self.players == 3))

    def __str__(self) -> str:
        ch = self.changes()
        if not ch:
            return "Rules(rule book defaults)"
        return "Rules(" + ", ".join(f"{k}={v}" for k, v in sorted(ch.items())) + ")"


def _flag_text(name: str, value: Any) -> str:
    """One rule option as a command-line flag with its value (``--no-frisch`` for a false flag;
    Frisch directions joined by commas)."""
    opt = name.replace("_", "-")
    if isinstance(value, bool):
        return f"--{opt}" if value else f"--no-{opt}"
    if isinstance(value, (list, tuple)):
        return f"--{opt} {','.join(map(str, value))}"
    return f"--{opt} {value}"


def deck_rules(deck: str) -> Rules:
    """The rule book's rules for the deck ``deck`` of :data:`DECKS` (a learned model's deck):
    four players, or three with that ``three_player_deck``; the inverse of :func:`deck_of`."""
    if deck not in DECKS:
        raise ValueError(f"no deck {deck!r}; the decks: {', '.join(DECKS)}")
    return Rules() if deck == "four" else Rules(players=3, three_player_deck=deck)


@dataclass(frozen=True)
class RuleOption:
    """One rule option as its :class:`Rules` field declares it (OpenSpiel's parameter
    specification, with the legal values and the help).

    ``kind``: ``"flag"`` (true or false), ``"number"`` (a whole number in ``range``, inclusive;
    ``what`` words it), ``"choice"`` (one of ``choices``) or ``"directions"`` (one of ``choices``
    per Frisch). ``section``: the rule book's section (``"§6"``). ``scoring``: a number of the
    §6 scoring, read by the compiled engine from a slot of its own. A number may also list
    ``choices`` (the values a form offers, e.g. ``players``)."""

    name: str
    default: Any
    kind: str
    help: str
    section: str
    range: tuple[int, int] = (0, 0)
    what: str = ""
    choices: tuple = ()
    scoring: bool = False

    @property
    def flag(self) -> str:
        """The command-line flag: ``--made-bonus``."""
        return "--" + self.name.replace("_", "-")

    @property
    def help_line(self) -> str:
        """The help with its section: ``points ... (RULES §6)``."""
        return f"{self.help} (RULES {self.section})"


@functools.cache
def rule_options() -> tuple[RuleOption, ...]:
    """Every rule option, in :class:`Rules` field order, as its field declares it."""
    out = []
    for f in dataclasses.fields(Rules):
        m = f.metadata
        if isinstance(f.default, bool):
            kind = "flag"
        elif "range" in m:
            kind = "number"
        elif isinstance(f.default, tuple):
            kind = "directions"
        else:
            kind = "choice"
        out.append(RuleOption(f.name, f.default, kind, m["help"], m["section"],
                              m.get("range", (0, 0)), m.get("what", ""), m["choices"],
                              m["scoring"]))
    return tuple(out)


def rule_names() -> tuple[str, ...]:
    """The names of every rule option, in :class:`Rules` field order."""
    return tuple(o.name for o in rule_options())


def rule_ranges() -> dict[str, tuple[int, int]]:
    """The whole-number rule options and their legal ranges ``(lo, hi)``, inclusive, in
    :class:`Rules` field order (the ranges are declared with the fields)."""
    return {o.name: o.range for o in rule_options() if o.kind == "number"}


def scoring_names() -> tuple[str, ...]:
    """The numbers of the RULES §6 scoring (``scoring=True``), in field order: the compiled
    engine's rule slots for them follow this order."""
    return tuple(o.name for o in rule_options() if o.scoring)


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
