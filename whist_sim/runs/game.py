"""A whole game to the target (RULES §7) with the compiled engine, and its JSON game record.

Game deal ``g`` (0-based) is dealt by seat ``g % P`` and uses the random stream ``(seed, g)``
(docs/ENGINE.md §3): it is deal ``g`` of a ``simulate`` run with the same seed, so any strategy of
the registry can sit at any seat. Deals are played in small batches until a total reaches the
target; the deals past the end of the game are dropped.

A game record is one JSON object (``whist-sim replay`` checks it)::

    {"game": {"seed": 7, "target": 500, "seats": ["heuristic/heuristic", ...], "first_dealer": 0},
     "rules": {...},                       # the full rule options
     "deals": [<deal record>, ...],        # RULES §10 records, in order
     "running_totals": [[35, -10, ...], ...],  # totals by seat after each deal
     "totals": [512, 130, ...],            # after the last deal
     "winners": [0]}                       # RULES §7; [] when the game did not finish

Points are game points (RULES §6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.rules import Rules
from ..engine.game import game_winners
from ..engine.play import DealTrace
from ..engine.record import record_from_trace

BATCH = 16  # deals played per compiled call while the game goes on
MAX_DEALS = 2000  # a game that has not ended after this many deals stops unfinished


@dataclass(frozen=True)
class Game:
    """One game: its deals in order, the totals after each, and the winners (RULES §7)."""

    seed: int
    rules: Rules
    seats: tuple[str, ...]  # BID/PLAY spec by seat (canonical texts, the play always spelled out)
    traces: tuple[DealTrace, ...]
    running_totals: tuple[tuple[int, ...], ...]  # totals by seat after each deal
    winners: tuple[int, ...]  # () when the game stopped unfinished after ``MAX_DEALS``

    @property
    def totals(self) -> tuple[int, ...]:
        return self.running_totals[-1] if self.running_totals else (0,) * self.rules.players

    @property
    def finished(self) -> bool:
        return bool(self.winners)

    @property
    def n_deals(self) -> int:
        return len(self.traces)


def _trace(tr: dict[str, np.ndarray], j: int, seed: int, rules: Rules) -> DealTrace:
    """Row ``j`` of :func:`whist_sim.compiled.entry.batch.play_traces` as a :class:`DealTrace`."""
    thrown = bool(tr["thrown_in"][j])
    p = rules.players
    return DealTrace(
        seed=seed,
        deal=int(tr["deal"][j]),
        dealer=int(tr["dealer"][j]),
        rules=rules,
        dealt=tuple(int(x) for x in tr["dealt"][j]),
        removed_card=int(tr["removed_card"][j]),
        frisch=tuple(tuple(int(x) for x in tr["frisch"][j, f])
                     for f in range(int(tr["n_frisch"][j]))),
        calls=tuple(int(x) for x in tr["calls"][j, : tr["n_calls"][j]]),
        thrown_in=thrown,
        declarer=int(tr["declarer"][j]),
        trump=int(tr["trump"][j]),
        level=int(tr["level"][j]),
        hands=tuple(int(x) for x in tr["hands"][j]),
        contracts=() if thrown else tuple(int(x) for x in tr["contracts"][j]),
        plays=tuple(int(x) for x in tr["plays"][j, : tr["n_plays"][j]]),
        tricks=(0,) * p if thrown else tuple(int(x) for x in tr["tricks"][j]),
        scores=tuple(int(x) for x in tr["scores"][j]),
        over=bool(tr["over"][j]),
        redeals=int(tr["redeals"][j]),
    )


def play_game(seed: int, rules: Rules, seats: Sequence[str], max_deals: int = MAX_DEALS) -> Game:
    """Play a game to ``rules.target`` (RULES §7) with ``seats`` (``BID`` or ``BID/PLAY`` specs,
    one per seat, e.g. ``"montecarlo:n=8/heuristic"``; a seat without ``/PLAY`` plays with the
    heuristic play policy). Stops unfinished after ``max_deals`` deals."""
    from ..compiled.entry.batch import play_traces
    from ..compiled.strategies.spec import parse_seat

    p = rules.players
    if len(seats) != p:
        raise ValueError(f"{len(seats)} seats given, the rules need {p}")
    bid: list[str] = []
    play: list[str] = []
    for text in seats:
        b, q = parse_seat(text)
        bid.append(b.text)
        play.append(q.text if q is not None else "heuristic")
    totals = [0] * p
    traces: list[DealTrace] = []
    running: list[tuple[int, ...]] = []
    winners: tuple[int, ...] = ()
    g = 0
    while not winners and g < max_deals:
        n = min(BATCH, max_deals - g)
        tr = play_traces(seed, g, n, rules, bid, play)
        for j in range(n):
            t = _trace(tr, j, seed, rules)
            traces.append(t)
            totals = [totals[s] + t.scores[s] for s in range(p)]
            running.append(tuple(totals))
            reached = [s for s in range(p) if totals[s] >= rules.target]
            if reached:
                winners = game_winners(totals, reached)
                break
        g += n
    labels = tuple(f"{b}/{q}" for b, q in zip(bid, play, strict=True))
    return Game(seed, rules, labels, tuple(traces), tuple(running), winners)


def game_record(game: Game) -> dict[str, Any]:
    """The JSON game record of ``game`` (see the module doc); ``whist-sim replay`` accepts it."""
    deals = []
    for t in game.traces:
        rec = record_from_trace(t)
        del rec["rules"]  # the game's rules hold for every deal
        deals.append(rec)
    return {
        "game": {"seed": game.seed, "target": game.rules.target, "seats": list(game.seats),
                 "first_dealer": 0},
        "rules": game.rules.to_dict(),
        "deals": deals,
        "running_totals": [list(r) for r in game.running_totals],
        "totals": list(game.totals),
        "winners": list(game.winners),
    }




def game_totals(
    seed: int, rules: Rules, bid: Sequence[Any], play: Sequence[Any], max_deals: int = MAX_DEALS,
) -> tuple[np.ndarray, tuple[int, ...]]:
    """The scores of a game only (faster than :func:`play_game`: no move records): the running
    totals (``int64[n_deals, P]``, after each deal) and the winners (``()``: unfinished after
    ``max_deals``). ``bid``/``play``: strategy and play policy specs by seat. The same deals and
    decisions as :func:`play_game`."""
    from ..compiled.entry.batch import play_batch

    p = rules.players
    rows: list[np.ndarray] = []
    last = np.zeros(p, dtype=np.int64)
    g = 0
    while g < max_deals:
        n = min(BATCH, max_deals - g)
        res = play_batch(seed, g, n, rules, bid, play)
        scores = np.stack([res[f"score_{s}"].astype(np.int64) for s in range(p)], axis=1)
        running = last + np.cumsum(scores, axis=0)
        hit = np.flatnonzero((running >= rules.target).any(axis=1))
        if hit.size:
            k = int(hit[0])
            rows.append(running[: k + 1])
            totals = running[k]
            reached = [s for s in range(p) if totals[s] >= rules.target]
            return np.concatenate(rows), game_winners([int(x) for x in totals], reached)
        rows.append(running)
        last = running[-1]
        g += n
    return np.concatenate(rows) if rows else np.zeros((0, p), dtype=np.int64), ()


__all__ = ["Game", "game_record", "game_totals", "play_game"]
