"""Duplicate games (RULES §7): who wins games, beside the points per deal of a tournament.

Game ``k`` of a tournament seeded ``seed`` uses the game seed :func:`game_seed` ``(seed, k)``; its
deal ``g`` is dealt by seat ``g % P`` from the stream ``(game seed, g)``. The same game (the same
sequence of deals) is played once under every seating, to the target, so the luck of the cards is
shared by all entries; the games differ in length only through the players' decisions.

Per game, an entry's **win share** is the mean over the seatings of its share of the win: the
number of its seats among the winners over the number of winners (RULES §7: a win shared by ``k``
seats gives each ``1/k``), so the entries' shares add up to one; its **final margin** is the mean
over the seatings of its best final total minus the best final total of the other entries'
seats (points). The games are independent, so the means over games get Student t intervals
(the win rate's clipped to 0..1).
A game that has not ended after ``max_deals`` deals counts as no win for anyone, with the margins
of its totals at that point.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ...core.rng import GOLDEN, mix64
from ...core.rules import Rules
from ...core.stats import mean_interval
from .schedule import Entry

MASK64 = (1 << 64) - 1
DEFAULT_MAX_DEALS = 1000


def game_seed(seed: int, k: int) -> int:
    """The seed of game ``k`` of a tournament seeded ``seed``: ``mix64(seed + (k + 1) * GOLDEN)``
    (a stream apart from the tournament's own deals ``(seed, i)``)."""
    return mix64((seed + (k + 1) * int(GOLDEN)) & MASK64)


def play_games(
    entries: Sequence[Entry], seatings: np.ndarray, rules: Rules, seed: int, games: int,
    max_deals: int = DEFAULT_MAX_DEALS, confidence: float = 0.95,
) -> dict[str, Any]:
    """Play ``games`` duplicate games under every seating (``int64[S, P]``: entry by seat) and
    return the summary's ``games`` section: per entry ``win_rate`` and ``margin`` with intervals,
    the game lengths, and whether ranking by games won agrees with the given order."""
    from ...runs.game import game_totals

    p = rules.players
    n_e = len(entries)
    win = np.zeros((games, n_e))
    margin = np.zeros((games, n_e))
    lengths = []
    unfinished = 0
    for k in range(games):
        gs = game_seed(seed, k)
        w_sum = np.zeros(n_e)
        m_sum = np.zeros(n_e)
        count = np.zeros(n_e)
        for row in seatings:
            bid = [entries[e].spec for e in row]
            play = [entries[e].play_spec for e in row]
            running, winners = game_totals(gs, rules, bid, play, max_deals)
            lengths.append(running.shape[0])
            unfinished += not winners
            totals = running[-1]
            for e in set(int(x) for x in row):
                mine = [s for s in range(p) if row[s] == e]
                w_sum[e] += sum(1 for s in mine if s in winners) / max(1, len(winners))
                m_sum[e] += (max(int(totals[s]) for s in mine)
                             - max(int(totals[s]) for s in range(p) if row[s] != e))
                count[e] += 1
        win[k] = w_sum / count
        margin[k] = m_sum / count
    out_entries = []
    for e, entry in enumerate(entries):
        wm, _, wlo, whi = mean_interval(win[:, e], confidence) if games > 1 else (
            win[0, e], 0.0, np.nan, np.nan)
        mm, _, mlo, mhi = mean_interval(margin[:, e], confidence) if games > 1 else (
            margin[0, e], 0.0, np.nan, np.nan)
        wlo, whi = max(0.0, wlo), min(1.0, whi)  # a rate: the t interval clipped to [0, 1]
        out_entries.append({
            "name": entry.label, "win_rate": _r(wm), "win_ci": [_r(wlo), _r(whi)],
            "margin": _r(mm, 1), "margin_ci": [_r(mlo, 1), _r(mhi, 1)],
        })
    return {
        "games": games,
        "target": rules.target,
        "max_deals": max_deals,
        "seatings": int(seatings.shape[0]),
        "mean_deals": _r(float(np.mean(lengths)), 1),
        "max_game_deals": int(max(lengths)),
        "unfinished": int(unfinished),
        "entries": out_entries,
    }


def ranking_agreement(summary: dict[str, Any]) -> dict[str, Any] | None:
    """Do the ranking by mean points per deal and the ranking by games won agree? The two orders
    of the entries' names (best first) and ``agree``; ``None`` without a games section."""
    games = summary.get("games")
    if not games:
        return None
    by_points = [s["name"] for s in sorted(summary["strategies"], key=lambda s: -s["mean"])]
    by_games = [g["name"] for g in sorted(games["entries"], key=lambda g: -g["win_rate"])]
    return {"by_points": by_points, "by_games": by_games, "agree": by_points == by_games}


def _r(v: float, nd: int = 4) -> float | None:
    return None if v is None or not np.isfinite(v) else round(float(v), nd)


__all__ = ["DEFAULT_MAX_DEALS", "game_seed", "play_games", "ranking_agreement"]
