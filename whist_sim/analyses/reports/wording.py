"""How a report says things to a card player: numbers with their intervals, seats by position,
the rules in words, and a glossary of the terms a report uses.

Every report of whist-sim (the default run's, the play ladder's, the tournament's, the bid
charts') words these the same way; take them from here:

* **intervals**: :func:`share_interval` (``"−13.2 % (−17.8 % to −8.6 %)"``) for shares and
  :func:`points_interval` (``"+2.4 (+1.8 to +2.9) points"``) for points: a real minus sign
  (U+2212), the unit on every number, "to" between the ends of the 95 % interval;
  :func:`share_text`, :func:`points_text` and :func:`signed` for a single number;
* **seats** by their place at the table, counted clockwise from the dealer
  (:func:`seat_name`: dealer, second, third, fourth; with three players dealer, second,
  third), and **bidding positions** of the contract round (:func:`bidding_position_name`:
  declarer, second bidder, third bidder, last bidder (hooked));
* **rules** in one line of words (:func:`rules_in_words`: "the rule book's rules, four
  players"; "three players, the no-clubs deck, zero over 30 points"), never ``Rules(...)``;
* **terms**: :data:`TERMS` defines each term once; :func:`glossary_rows` and
  :func:`~whist_sim.analyses.reports.render.glossary_markdown` list the terms a report uses as
  one table of terms and their definitions, for the end of the report.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = [
    "GLOSSARY_TITLE",
    "MINUS",
    "TERMS",
    "bidding_position_name",
    "decimals_for",
    "glossary_rows",
    "number_text",
    "points_interval",
    "points_text",
    "rules_in_words",
    "seat_name",
    "share_interval",
    "share_text",
    "signed",
]

#: the heading of a report's glossary (its last section)
GLOSSARY_TITLE = "Terms used in this report"
#: the minus sign of every number a report prints (U+2212, not the hyphen)
MINUS = "\u2212"


def _missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def decimals_for(value: Any, low: Any = None, high: Any = None, share: bool = False,
                 base: int | None = None) -> int:
    """Decimals that show a value and its interval apart: ``base``, by default 1 for a share
    (in percent) or a number of 100 or more, else 2; more for a narrow interval (it spans at
    least two last digits) and for a share below 0.1 %; at most 4."""
    scale = 100.0 if share else 1.0
    d = base if base is not None else (
        1 if share else (2 if _missing(value) or abs(float(value)) < 100 else 1))
    if not (_missing(low) or _missing(high)):
        w = scale * (float(high) - float(low))
        if 0 < w:
            d = max(d, math.ceil(-math.log10(w / 2)))
    if share and not _missing(value) and 0 < scale * abs(float(value)) < 0.1:
        d = max(d, 1 - math.floor(math.log10(scale * abs(float(value)))))
    return min(d, 4)


def number_text(x: float, decimals: int = 1, sign: bool = False) -> str:
    """``x`` with ``decimals`` decimals, thousands separated, a real minus sign; ``sign``: a
    ``+`` before a number above 0 too (a difference). A value that rounds to 0 has no sign;
    a missing value is ``"-"``."""
    if _missing(x):
        return "-"
    text = f"{abs(float(x)):,.{decimals}f}"
    if float(text.replace(",", "")) == 0:
        return text
    if float(x) < 0:
        return MINUS + text
    return ("+" if sign else "") + text


def signed(x: float, decimals: int = 1) -> str:
    """A difference: ``+2.4``, ``−0.7`` (real minus sign), ``0.0``."""
    return number_text(x, decimals, sign=True)


def share_text(x: float, decimals: int | None = None, sign: bool = False) -> str:
    """A share (a fraction) in percent: ``0.5396 -> "54.0 %"`` (``decimals`` default: one, or
    more for a share below 0.1 %); ``sign``: ``"+1.0 %"`` for a difference."""
    if _missing(x):
        return "-"
    d = decimals_for(x, share=True) if decimals is None else decimals
    return f"{number_text(100 * float(x), d, sign)} %"


def points_text(x: float, decimals: int | None = None, sign: bool = False,
                unit: str = "points") -> str:
    """A number of points with its unit: ``"24.3 points"``, ``"+2.4 points"`` (``sign``;
    ``decimals`` default: one);
    ``unit=""`` leaves the unit out (a table whose header gives it)."""
    if _missing(x):
        return "-"
    d = decimals_for(x, base=1) if decimals is None else decimals
    return number_text(x, d, sign) + (f" {unit}" if unit else "")


def share_interval(value: float, low: float, high: float, decimals: int | None = None,
                   sign: bool = False) -> str:
    """A share with its 95 % interval, in percent, the unit on every number:
    ``"−13.2 % (−17.8 % to −8.6 %)"``. ``decimals`` default: :func:`decimals_for`; ``sign``:
    a ``+`` on positive numbers (a difference). Without an interval, the share alone."""
    if _missing(value):
        return "-"
    d = decimals_for(value, low, high, share=True) if decimals is None else decimals
    head = share_text(value, d, sign)
    if _missing(low) or _missing(high):
        return head
    return f"{head} ({share_text(low, d, sign)} to {share_text(high, d, sign)})"


def points_interval(value: float, low: float, high: float, decimals: int | None = None,
                    sign: bool = True, unit: str = "points") -> str:
    """Points with their 95 % interval, the unit after the interval:
    ``"+2.4 (+1.8 to +2.9) points"``. ``decimals`` default: one, more for a narrow interval
    (:func:`decimals_for`); ``sign`` (default on: a difference); ``unit=""`` leaves
    the unit out (a table whose header gives it). Without an interval, the number alone."""
    if _missing(value):
        return "-"
    d = decimals_for(value, low, high, base=1) if decimals is None else decimals
    tail = f" {unit}" if unit else ""
    if _missing(low) or _missing(high):
        return number_text(value, d, sign) + tail
    return (f"{number_text(value, d, sign)} ({number_text(low, d, sign)} to "
            f"{number_text(high, d, sign)}){tail}")


# ------------------------------------------------------------------------------------- seats

_PLACES = ("dealer", "second", "third", "fourth")
_ORDINAL_WORDS = ("first", "second", "third", "fourth")


def seat_name(offset: int, players: int = 4) -> str:
    """A seat by its place at the table, counted clockwise from the dealer: ``0 -> "dealer"``,
    ``1 -> "second"`` (the dealer's left, who calls first in the auction), ``2 -> "third"``,
    ``3 -> "fourth"`` (the dealer's right). ``offset`` is ``(seat - dealer) % players``."""
    p = int(players)
    if p not in (3, 4):
        raise ValueError(f"a table has 3 or 4 players, got {players}")
    k = int(offset)
    if not 0 <= k < p:
        raise ValueError(f"a seat's place is 0..{p - 1} from the dealer, got {offset}")
    return _PLACES[k]


def bidding_position_name(position: int, players: int = 4) -> str:
    """A bidding position of the contract round (RULES §4): ``0 -> "declarer"`` (who bids
    first), then ``"second bidder"``, ``"third bidder"``, and the last bidder ``"fourth bidder
    (hooked)"`` (``"third bidder (hooked)"`` with three players)."""
    p = int(players)
    k = int(position)
    if not 0 <= k < p:
        raise ValueError(f"a bidding position is 0..{p - 1}, got {position}")
    if k == 0:
        return "declarer"
    text = f"{_ORDINAL_WORDS[k]} bidder"
    return f"{text} (hooked)" if k == p - 1 else text


# ------------------------------------------------------------------------------------- rules

_DECKS = {
    "no_suit": "the no-clubs deck",
    "no_low": "the deck without 2s to 5s",
    "one_random": "the full deck less one random card",
}


def _points(v: int) -> str:
    return f"{number_text(v, 0)} points"


def _rule_phrase(name: str, value: Any) -> str:
    """One changed rule option in words."""
    if name == "pass_is_final":
        return "a pass is final" if value else "a seat that passed may bid again"
    if name == "bid_order":
        return "bids ranked by suit first" if value == "suit" else "bids ranked by number first"
    if name == "frisch":
        return ("a Frisch after four passes" if value
                else "no Frisch (four passes throw the deal in)")
    if name == "frisch_raises_minimum":
        return ("each Frisch raises the minimum bid" if value
                else "a Frisch does not raise the minimum bid")
    if name == "frisch_directions":
        return "Frisch cards passed " + ", ".join(value)
    if name == "after_third_frisch":
        return ("after the third Frisch the same dealer deals again" if value == "redeal"
                else "after the third Frisch the deal is thrown in")
    words = {
        "made_bonus": "made contract bonus",
        "miss_per_trick": "missed contract per trick",
        "zero_under": "zero under",
        "zero_over": "zero over",
        "zero_fail_first": "missed zero, first trick",
        "zero_fail_refund": "missed zero, back per further trick",
        "revoke_penalty": "revoke penalty",
    }
    if name in words:
        return f"{words[name]} {_points(value)}"
    if name == "target":
        return f"game to {_points(value)}"
    return f"{name.replace('_', ' ')} {value}"


def rules_in_words(rules: Any) -> str:
    """The rules of a run in one line of words: ``"the rule book's rules, four players"``;
    ``"three players, the no-clubs deck, zero over 30 points"`` (the player count, the
    three-player deck, then every option that differs from the rule book, RULES.md).
    ``rules``: a :class:`~whist_sim.core.rules.Rules` or its dict."""
    from ...core.rules import Rules

    r = rules if isinstance(rules, Rules) else Rules.from_dict(dict(rules))
    changes = r.changes()
    head = ["four players" if r.players == 4 else "three players"]
    if r.players == 3:
        head.append(_DECKS[r.three_player_deck])
    rest = [_rule_phrase(k, changes[k]) for k in sorted(changes)
            if k not in ("players", "three_player_deck")]
    if not rest:
        return "the rule book's rules, " + ", ".join(head)
    return ", ".join(head + rest)


# ------------------------------------------------------------------------------------- terms

#: every term a report may use, defined once (a report lists the ones it uses at its end)
TERMS: dict[str, str] = {
    "dealer, second, third, fourth": (
        "the seats by their place at the table, clockwise from the dealer: second is the "
        "dealer's left, who calls first in the trump auction; with three players there is no "
        "fourth."),
    "declarer": (
        "the player who won the trump auction; he names trumps and bids his contract first "
        "(RULES §2, §4)."),
    "bidding position": (
        "the order in the contract round: declarer, second, third and fourth bidder; the last "
        "bidder is hooked (RULES §4)."),
    "hooked": (
        "the last bidder of the contract round: his contract may not make the sum of all "
        "contracts equal the tricks in the deal (RULES §4)."),
    "cost of being hooked": (
        "the mean score of the other non-declarers minus the last (hooked) bidder's, points "
        "per deal: above 0, the hook costs him points; below 0, he scores more than they do."),
    "contract": "the number of tricks a player bids to take, exactly (RULES §4).",
    "made": "a player makes his contract when he takes exactly the tricks he bid (RULES §6).",
    "over deal": (
        "a deal whose contracts add up to more than the tricks in it: someone must fall "
        "short."),
    "under deal": (
        "a deal whose contracts add up to fewer than the tricks in it: someone must take too "
        "many."),
    "P(over)": "the share of played deals that are over deals.",
    "zero bid": (
        "a contract of no tricks; made, it scores 50 points in an under deal and 25 in an over "
        "deal (RULES §6)."),
    "paired value of a zero": (
        "for the same hand, the score of bidding zero minus the score of the best other bid "
        "(both played out on the same deals): above 0, the zero pays."),
    "HCP": ("high-card points: ace 4, king 3, queen 2, jack 1 (40 in the deck, at most 37 in a "
            "13-card hand)."),
    "Frisch": (
        "after four passes in the trump auction, each player passes three cards and the "
        "auction starts again, one level higher (RULES §3)."),
    "thrown in": "a deal nobody bids on (no trump): it is not played and scores nothing.",
    "bid sum": "the sum of the contracts of a deal (all players').",
    "expected score": (
        "the mean score, in points per deal, over many deals of the same kind; a bid's expected "
        "score is its mean over the deals the hand is played in."),
    "points": "game points of RULES §6, per player and deal unless a table says otherwise.",
    "duplicate deals": (
        "the same deals played by both sides of a comparison, each hand by each play in turn, "
        "so the cards' luck cancels out of the difference."),
    "95 % interval": (
        "the range that holds the true value with 95 % confidence, given the deals played; a "
        "difference whose interval excludes 0 is clear."),
    "play": (
        "the card play of every seat, named by its spec: learned (the trained play model), "
        "heuristic, expert, rollout:n=16:base=learned (a search of 16 rollouts per card, each "
        "finished by learned play), ..."),
    "check": (
        "the same numbers measured again under a searching play on the first deals of the "
        "run, to see whether the play model moves them."),
    "confirmed": (
        "the check finds the same answer and its interval excludes the alternative."),
    "not contradicted": (
        "the check cannot tell the answer from the alternative: its interval holds both; the "
        "report says how large a difference it could have seen."),
    "contradicted": (
        "the check clearly prefers another answer or reverses the order (its interval excludes "
        "the answer)."),
    "double dummy": (
        "the tricks a hand takes when every player sees all the cards and plays perfectly."),
}


def glossary_rows(terms: Iterable[str],
                  extra: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """``(term, definition)`` for each of ``terms`` (in the order given, each once), from
    :data:`TERMS` or ``extra`` (a report's own terms, which take precedence). An unknown term
    raises ``KeyError``: a report defines every term it lists."""
    known = {**TERMS, **(extra or {})}
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for t in terms:
        if t in seen:
            continue
        if t not in known:
            raise KeyError(f"the term {t!r} has no definition (add it to TERMS or pass it in "
                           "extra)")
        seen.add(t)
        out.append((t, known[t]))
    return out
