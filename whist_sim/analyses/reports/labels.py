"""Human-readable labels for table index values (bidding positions, seats, over/under, column
names); the words themselves come from :mod:`.wording`."""

from __future__ import annotations

from typing import Any

from .wording import bidding_position_name, seat_name


def ordinal(n: int) -> str:
    """``1 -> '1st'``, ``2 -> '2nd'``, ``3 -> '3rd'``, ``4 -> '4th'``, ``11 -> '11th'``."""
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def position_label(position: int, players: int = 4) -> str:
    """``0 -> '1st (declarer)'``, ``P-1 -> '4th (hooked)'`` (the last contract bidder, RULES §4)."""
    p = int(position)
    text = ordinal(p + 1)
    if p == 0:
        return f"{text} (declarer)"
    if p == players - 1:
        return f"{text} (hooked)"
    return text


def over_label(over: Any) -> str:
    """``True -> 'over'``, ``False -> 'under'``."""
    return "over" if bool(over) else "under"


def value_label(key: str | None, value: Any, players: int = 4) -> str:
    """Label of one index value of grouping key ``key`` (see
    :mod:`whist_sim.analyses.reports.tables`)."""
    if key == "position":
        return bidding_position_name(value, players)
    if key == "place":
        return seat_name(value, players) if int(value) >= 0 else "unknown"
    if key == "over":
        return over_label(value)
    if key == "trump" and str(value) in _STRAIN_NAMES:
        return _STRAIN_NAMES[str(value)]
    return str(value)


_STRAIN_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades", "NT": "no trump"}


HEADERS = {
    "n": "n",
    "made": "made",
    "zeros": "zero bids",
    "rate": "rate",
    "share": "share",
    "mean": "mean",
    "sd": "sd",
    "mae": "mean abs. error (tricks)",
    "bias": "bias (tricks)",
    "bid_sum_mean": "mean bid sum",
    "missed_mean": "players missing / deal",
    "cost": "cost (points/deal)",
    "diff": "zero − non-zero (points)",
    "score_mean": "mean score",
    "level_mean": "mean level",
    "thrown_in": "thrown in",
    "thrown_in_share": "thrown-in share",
    "declarer_rate": "declarer success",
    "player_rate": "player success",
    "over_share": "over share",
    "n_last": "n (hooked)",
    "rate_last": "success (hooked)",
    "mean_last": "mean score (hooked)",
    "n_other": "n (others)",
    "rate_other": "success (others)",
    "mean_other": "mean score (others)",
    "n_zero": "n (zero)",
    "mean_zero": "mean score (zero)",
    "n_nonzero": "n (non-zero)",
    "mean_nonzero": "mean score (non-zero)",
    "bid_sum": "bid sum",
    "hcp_band": "HCP band",
    "frisch": "Frisches",
    "missed": "players missing",
    "deals": "deals",
    "played": "played",
    "metric": "metric",
    "value": "value",
    "unit": "unit",
    "trump": "trump",
    "contract": "contract",
    "position": "bidding position",
    "place": "seat",
    "over": "deal",
    "tricks": "tricks",
    "role": "role",
    "policy": "policy",
    "seat": "seat",
    "level": "level",
    "objective": "objective",
    "unsolved": "unsolved",
    "comparison": "contract vs. double dummy",
    "base": "seats compared",
    "by_bounds": "by bounds",
    "zero_share": "zero-bid share",
    "dd_min": "whist-min (dd_min)",
    "dd_max": "whist-max (dd_max)",
    "tricks_minus_dd_max": "tricks − whist-max",
    "contract_minus_dd_max": "contract − whist-max",
    "seats": "seats",
}


def header(name: str) -> str:
    """Display header of a column or index name."""
    return HEADERS.get(name, name.replace("_", " "))
