"""Human-readable labels for table index values (bidding positions, over/under, column names)."""

from __future__ import annotations

from typing import Any


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
        return position_label(value, players)
    if key == "over":
        return over_label(value)
    return str(value)


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
    "diff": "zero - non-zero (points)",
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
    "position": "position",
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
    "tricks_minus_dd_max": "tricks - whist-max",
    "contract_minus_dd_max": "contract - whist-max",
    "seats": "seats",
}


def header(name: str) -> str:
    """Display header of a column or index name."""
    return HEADERS.get(name, name.replace("_", " "))
