"""Python entry points of the compiled engine: ``play_batch`` and ``play_traces`` (interface B).

``play_batch`` plays deals ``start .. start+count-1`` of a run (dealer of deal ``i`` = ``i % P``,
random stream ``(seed, i)``) in one compiled call that releases the GIL, and returns one array per
column of the result schema (docs: interface C; ``whist_sim/runs/dataset.py`` documents it). Results
depend only on ``(seed, deal)``, never on how a run is cut into batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from ...core.rng import mix64
from ...core.rules import MAX_FRISCH, Rules
from ..ground._numba import jit
from ..ground.layout import (
    H_DEALT,
    H_FRISCH,
    H_START,
    MAX_CALLS,
    MAX_PLAYS,
    R_PLAYERS,
    S_BAD_SEAT,
    S_BAD_VALUE,
    S_BIDSUM,
    S_CALLS,
    S_CONTRACT,
    S_DEAL,
    S_DECLARER,
    S_LEVEL,
    S_NCALLS,
    S_NFRISCH,
    S_NPLAYS,
    S_OVER,
    S_PHASE,
    S_PLAYS,
    S_REDEALS,
    S_REMOVED,
    S_SCORE,
    S_THROWN,
    S_TRICKS,
    S_TRUMP,
    Table,
    deck_array,
    new_deal,
    new_state,
    rules_array,
)
from ..loop.phases import IllegalDecision
from ..strategies.dispatch import loop_mode
from ..strategies.registry import PolicyError
from ..strategies.seating import Seating
from .deal import loop_address, play_deal_in

_MAX_SEED = (1 << 64) - 1
_MAX_DEAL = (1 << 63) - 1


class BatchOut(NamedTuple):
    """The result columns :func:`_batch_kernel` writes, row ``i - start`` for deal ``i`` (the
    dtypes and meanings of :func:`play_batch`'s columns; per-seat ones ``[P, count]``)."""

    dealer: np.ndarray
    declarer: np.ndarray
    trump: np.ndarray
    level: np.ndarray
    frisch: np.ndarray
    thrown: np.ndarray
    ncalls: np.ndarray
    removed: np.ndarray
    hand: np.ndarray
    contract: np.ndarray
    tricks: np.ndarray
    score: np.ndarray
    bidsum: np.ndarray
    over: np.ndarray
    dealt: np.ndarray
    redeals: np.ndarray


class TraceOut(NamedTuple):
    """The move-by-move record :func:`_trace_kernel` writes, row ``i - start`` for deal ``i``:
    ``ints`` int64 ``[count, 12]`` (dealer, removed card, Frisches, calls, thrown in, declarer,
    trump, level, plays, over, bid sum, redeals), ``dealt`` / ``hands`` uint64 ``[count, P]``,
    ``frisch`` uint64 ``[count, 3, P]``, ``calls`` int16 ``[count, MAX_CALLS]``, ``plays`` int8
    ``[count, MAX_PLAYS]``, ``seat`` int64 ``[count, 3, P]`` (contract, tricks, score)."""

    ints: np.ndarray
    dealt: np.ndarray
    hands: np.ndarray
    frisch: np.ndarray
    calls: np.ndarray
    plays: np.ndarray
    seat: np.ndarray


@jit
def _batch_kernel(loop, seed_mix, start, count, store_dealt, table, deal, out):
    """Play ``count`` deals from ``start`` at ``table`` in ``deal`` (its scratch); write row
    ``i - start`` of every array of ``out`` (a :class:`BatchOut`)."""
    rp, deck, pol, par = table
    st, hm = deal.st, deal.hm
    p = rp[R_PLAYERS]
    for j in range(count):
        d = start + j
        play_deal_in(loop, seed_mix, d, rp, deck, pol, par, deal)
        out.dealer[j] = d % p
        out.frisch[j] = st[S_NFRISCH]
        out.ncalls[j] = st[S_NCALLS]
        out.removed[j] = st[S_REMOVED]
        out.redeals[j] = st[S_REDEALS]
        thrown = st[S_THROWN] != 0
        out.thrown[j] = thrown
        for s in range(p):
            out.hand[s, j] = hm[H_START + s]
            if store_dealt:
                out.dealt[s, j] = hm[H_DEALT + s]
        if thrown:
            out.declarer[j] = -1
            out.trump[j] = -1
            out.level[j] = 0
            out.bidsum[j] = -1
            out.over[j] = False
            for s in range(p):
                out.contract[s, j] = -1
                out.tricks[s, j] = -1
                out.score[s, j] = 0
        else:
            out.declarer[j] = st[S_DECLARER]
            out.trump[j] = st[S_TRUMP]
            out.level[j] = st[S_LEVEL]
            out.bidsum[j] = st[S_BIDSUM]
            out.over[j] = st[S_OVER] != 0
            for s in range(p):
                out.contract[s, j] = st[S_CONTRACT + s]
                out.tricks[s, j] = st[S_TRICKS + s]
                out.score[s, j] = st[S_SCORE + s]


@jit
def _trace_kernel(loop, seed_mix, start, count, table, deal, out):
    """Like :func:`_batch_kernel`, recording every move in ``out`` (a :class:`TraceOut`; see
    :func:`play_traces`)."""
    rp, deck, pol, par = table
    st, hm = deal.st, deal.hm
    p = rp[R_PLAYERS]
    for j in range(count):
        d = start + j
        play_deal_in(loop, seed_mix, d, rp, deck, pol, par, deal)
        ints = out.ints
        ints[j, 0] = d % p
        ints[j, 1] = st[S_REMOVED]
        ints[j, 2] = st[S_NFRISCH]
        ints[j, 3] = st[S_NCALLS]
        ints[j, 4] = st[S_THROWN]
        ints[j, 5] = st[S_DECLARER]
        ints[j, 6] = st[S_TRUMP]
        ints[j, 7] = st[S_LEVEL]
        ints[j, 8] = st[S_NPLAYS]
        ints[j, 9] = st[S_OVER]
        ints[j, 10] = st[S_BIDSUM]
        ints[j, 11] = st[S_REDEALS]
        for s in range(p):
            out.dealt[j, s] = hm[H_DEALT + s]
            out.hands[j, s] = hm[H_START + s]
            out.seat[j, 0, s] = st[S_CONTRACT + s]
            out.seat[j, 1, s] = st[S_TRICKS + s]
            out.seat[j, 2, s] = st[S_SCORE + s]
            for f in range(st[S_NFRISCH]):
                out.frisch[j, f, s] = hm[H_FRISCH + 4 * f + s]
        for i in range(st[S_NCALLS]):
            out.calls[j, i] = st[S_CALLS + i]
        for i in range(st[S_NPLAYS]):
            out.plays[j, i] = st[S_PLAYS + i]


@contextmanager
def _audited(st: np.ndarray, seating: Seating):
    """In the audited loop: turn its :class:`IllegalDecision` into a :class:`PolicyError`
    naming the seat, its strategies, the deal and the answer (the loop left them in ``st``)."""
    try:
        yield
    except IllegalDecision:
        seat = int(st[S_BAD_SEAT])
        raise PolicyError(
            f"deal {int(st[S_DEAL])}: seat {seat} ({seating.text[seat]}) gave "
            f"the illegal answer {int(st[S_BAD_VALUE])} in phase {int(st[S_PHASE])} "
            "(0 auction, 1 Frisch, 2 contracts, 3 play)"
        ) from None


def _check_args(seed, start, count, rules, bid, play):
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a whist_sim.core.rules.Rules, got {type(rules).__name__}")
    for name, v, hi in (("seed", seed, _MAX_SEED), ("start", start, _MAX_DEAL),
                        ("count", count, _MAX_DEAL)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= int(v) <= hi:
            raise ValueError(f"{name} must be a whole number in 0..{hi}, got {v!r}")
    if int(start) + int(count) > _MAX_DEAL:
        raise ValueError(f"deals start + count = {int(start) + int(count)} exceed {_MAX_DEAL}")
    seating = Seating.of(bid, play, rules.players)
    pol, par = seating.arrays()
    seed_mix = np.uint64(mix64(int(seed)))
    rp, deck = rules_array(rules), deck_array(rules)
    return seating, seed_mix, np.int64(start), np.int64(count), Table(rp, deck, pol, par)


def play_batch(
    seed: int,
    start: int,
    count: int,
    rules: Rules,
    bid: Seating | Sequence[str],
    play: Sequence[str] | None = None,
    store_dealt: bool = False,
    audited: bool = False,
) -> dict[str, np.ndarray]:
    """Play deals ``start .. start+count-1`` of run ``seed`` and return the result columns.

    ``bid[s]`` / ``play[s]``: the bidding strategy and play policy of seat ``s``: names
    (:mod:`whist_sim.compiled.strategies.registry`) or specs with parameters (``"montecarlo:n=8"``,
    :class:`~whist_sim.compiled.strategies.spec.StrategySpec`,
    :class:`~whist_sim.compiled.strategies.spec.PlaySpec`), or a
    :class:`~whist_sim.compiled.strategies.seating.Seating` as ``bid`` alone (parsed once,
    upstream). The dealer of deal ``i`` is ``i % P``. Single-threaded; the compiled part releases
    the GIL, so several threads may call this at once.

    Returns one array of length ``count`` per column of the result schema: ``deal`` (int64),
    ``dealer``, ``declarer`` (-1 if thrown in), ``trump`` (0..3 suits, 4 NT, -1), ``level`` (0
    if thrown in), ``frisch`` (int8), ``thrown_in`` (bool), ``n_calls`` (int16), ``removed_card``
    (int8, -1), per seat ``hand_s`` (uint64, at the start of play), ``contract_s`` / ``tricks_s``
    (int8, -1 if thrown in), ``score_s`` (int16), then ``bid_sum`` (int8, -1), ``over`` (bool),
    and with ``store_dealt`` ``dealt_s`` (uint64, before Frisch); with the rule
    ``after_third_frisch=redeal`` also ``redeals`` (int8: times the deal was cancelled after the
    third Frisch and dealt again by the same dealer; the other columns are the last dealing's).

    ``audited``: play in the audited loop (every answer checked against the legal choices; an
    illegal one raises :class:`~whist_sim.compiled.strategies.registry.PolicyError` naming the
    seat). Same deals, 5-10 % slower; the tests use it.
    """
    seating, seed_mix, start_, count_, table = _check_args(seed, start, count, rules, bid, play)
    n = int(count_)
    p = rules.players
    out_dealer = np.empty(n, dtype=np.int8)
    out_declarer = np.empty(n, dtype=np.int8)
    out_trump = np.empty(n, dtype=np.int8)
    out_level = np.empty(n, dtype=np.int8)
    out_frisch = np.empty(n, dtype=np.int8)
    out_thrown = np.empty(n, dtype=np.bool_)
    out_ncalls = np.empty(n, dtype=np.int16)
    out_removed = np.empty(n, dtype=np.int8)
    out_hand = np.empty((p, n), dtype=np.uint64)
    out_contract = np.empty((p, n), dtype=np.int8)
    out_tricks = np.empty((p, n), dtype=np.int8)
    out_score = np.empty((p, n), dtype=np.int16)
    out_bidsum = np.empty(n, dtype=np.int8)
    out_over = np.empty(n, dtype=np.bool_)
    out_dealt = np.empty((p, n if store_dealt else 0), dtype=np.uint64)
    out_redeals = np.empty(n, dtype=np.int8)
    out = BatchOut(out_dealer, out_declarer, out_trump, out_level, out_frisch, out_thrown,
                   out_ncalls, out_removed, out_hand, out_contract, out_tricks, out_score,
                   out_bidsum, out_over, out_dealt, out_redeals)
    deal = new_deal()
    loop = loop_address(loop_mode(table.pol, audited), table.pol)
    with _audited(deal.st, seating):
        _batch_kernel(loop, seed_mix, start_, count_,
                      bool(store_dealt), table, deal, out)
    cols: dict[str, np.ndarray] = {
        "deal": np.arange(int(start_), int(start_) + n, dtype=np.int64),
        "dealer": out_dealer,
        "declarer": out_declarer,
        "trump": out_trump,
        "level": out_level,
        "frisch": out_frisch,
        "thrown_in": out_thrown,
        "n_calls": out_ncalls,
        "removed_card": out_removed,
    }
    for s in range(p):
        cols[f"hand_{s}"] = out_hand[s]
    for s in range(p):
        cols[f"contract_{s}"] = out_contract[s]
    for s in range(p):
        cols[f"tricks_{s}"] = out_tricks[s]
    for s in range(p):
        cols[f"score_{s}"] = out_score[s]
    cols["bid_sum"] = out_bidsum
    cols["over"] = out_over
    if store_dealt:
        for s in range(p):
            cols[f"dealt_{s}"] = out_dealt[s]
    if rules.after_third_frisch == "redeal":
        cols["redeals"] = out_redeals
    return cols


def play_traces(
    seed: int,
    start: int,
    count: int,
    rules: Rules,
    bid: Seating | Sequence[str],
    play: Sequence[str] | None = None,
    store_dealt: bool = False,
    audited: bool = False,
) -> dict[str, np.ndarray]:
    """Play the same deals as :func:`play_batch` and return the full move-by-move record.

    Arrays (first axis: the deal, ``count`` rows; P = ``rules.players``):

    * ``deal`` int64, ``dealer``, ``removed_card`` (-1), ``thrown_in`` (bool), ``declarer`` (-1),
      ``trump`` (-1), ``level`` (0), ``over`` (bool), ``bid_sum`` (-1 if thrown in), ``redeals``
      (times the deal was dealt again, ``after_third_frisch=redeal``; the rest is the last
      dealing's);
    * ``dealt`` uint64[count, P] (before Frisch), ``hands`` uint64[count, P] (start of play);
    * ``n_frisch``; ``frisch`` uint64[count, 3, P]: cards passed by each seat in Frisch f (0 past
      ``n_frisch``);
    * ``n_calls``; ``calls`` int16[count, MAX_CALLS]: auction calls in order (0 = pass,
      ``5 * n + strain``), ``-1`` past ``n_calls``;
    * ``n_plays``; ``plays`` int8[count, MAX_PLAYS]: cards in the order played, ``-1`` past
      ``n_plays``;
    * ``contracts``, ``tricks``, ``scores``: int64[count, P] by seat (``-1``, ``0``, ``0`` when
      thrown in).

    ``store_dealt`` is accepted for symmetry with :func:`play_batch` (``dealt`` is always there);
    ``audited`` as in :func:`play_batch`.
    """
    del store_dealt
    seating, seed_mix, start_, count_, table = _check_args(seed, start, count, rules, bid, play)
    n = int(count_)
    p = rules.players
    t_ints = np.zeros((n, 12), dtype=np.int64)
    t_dealt = np.zeros((n, p), dtype=np.uint64)
    t_hands = np.zeros((n, p), dtype=np.uint64)
    t_frisch = np.zeros((n, MAX_FRISCH, p), dtype=np.uint64)
    t_calls = np.full((n, MAX_CALLS), -1, dtype=np.int16)
    t_plays = np.full((n, MAX_PLAYS), -1, dtype=np.int8)
    t_seat = np.zeros((n, 3, p), dtype=np.int64)
    out = TraceOut(t_ints, t_dealt, t_hands, t_frisch, t_calls, t_plays, t_seat)
    deal = new_deal()
    loop = loop_address(loop_mode(table.pol, audited), table.pol)
    with _audited(deal.st, seating):
        _trace_kernel(loop, seed_mix, start_, count_, table,
                      deal, out)
    return {
        "deal": np.arange(int(start_), int(start_) + n, dtype=np.int64),
        "dealer": t_ints[:, 0],
        "removed_card": t_ints[:, 1],
        "n_frisch": t_ints[:, 2],
        "n_calls": t_ints[:, 3],
        "thrown_in": t_ints[:, 4] != 0,
        "declarer": t_ints[:, 5],
        "trump": t_ints[:, 6],
        "level": t_ints[:, 7],
        "n_plays": t_ints[:, 8],
        "over": t_ints[:, 9] != 0,
        "bid_sum": t_ints[:, 10],
        "redeals": t_ints[:, 11],
        "dealt": t_dealt,
        "hands": t_hands,
        "frisch": t_frisch,
        "calls": t_calls,
        "plays": t_plays,
        "contracts": t_seat[:, 0],
        "tricks": t_seat[:, 1],
        "scores": t_seat[:, 2],
    }


__all__ = ["BatchOut", "TraceOut", "new_state", "play_batch", "play_traces"]
