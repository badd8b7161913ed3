"""Stratified hands of a bid chart: every hand class gets its quota of hands.

A chart's classes are the cells ``(position, panel, HCP band, trump class)``: the bidding position
``0..P-1`` (0 = declarer), the panel (the deal's own suit, or the NT panel where the same hand is
evaluated at no-trump), the high-card-point band (:data:`HCP_BANDS`) and the trump length
(``0 .. 6, 7+``; the NT panel has the one class ``NT``).

Method: hand ``h`` of a chart is the hand of the seat at bidding position ``h % P`` in the first of
deals ``64 h .. 64 h + 63`` of the run that is not thrown in (the same hands as an unstratified
chart). :func:`screen` classifies the hands ``0 .. hands-1`` of the natural distribution (one
auction each, no evaluation); :func:`select` then keeps, per cell, the first ``min_hands`` of them
by hand index. A cell's natural probability is estimated by its share of the screened hands of its
position (thrown-in deals left out; the NT panel counts every hand, the suit panel only the deals
played in a suit), and a hand's weight is that probability over the hands evaluated in its cell,
so weighted means over cells are means under the natural distribution. Everything depends on the
seed and the options only: the classes of hand ``h`` come from deal indices of ``h``, the chunks
are put back in index order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...compiled.strategies.seating import Seating
from ...core.cards import NT, SUIT_MASKS
from ...core.rng import mix64
from ...core.rules import Rules
from .chart_classes import HCP_BANDS, N_CLASSES, NT_CLASS, TRUMP_LENGTHS, band_labels

__all__ = [
    "HCP_BANDS",
    "MIN_CELL",
    "MIN_PROB",
    "N_CLASSES",
    "NT_CLASS",
    "TRUMP_LENGTHS",
    "ScreenTask",
    "Selection",
    "band_of",
    "cell_key",
    "coverage_notes",
    "first_k",
    "hand_classes",
    "run_screen_chunk",
    "select",
    "trump_class_of",
]

MIN_CELL = 10  # hands needed to show a cell of a heat map or table
MIN_PROB = 1e-4  # cells at least this likely (within their position and panel) get the quota


def band_of(hcp: np.ndarray) -> np.ndarray:
    """HCP band index (0 .. len(HCP_BANDS)-1) of each number of high-card points."""
    return np.searchsorted(np.asarray(HCP_BANDS), np.asarray(hcp), side="right") - 1


def trump_class_of(hands: np.ndarray, trump: np.ndarray) -> np.ndarray:
    """Trump class (index into :data:`TRUMP_LENGTHS`) of each hand (``uint64``) in strain
    ``trump`` (0..3 suits: the length, 7 = seven or more; 4 = NT: :data:`NT_CLASS`)."""
    h = np.asarray(hands, dtype=np.uint64)
    t = np.asarray(trump)
    out = np.full(h.shape, NT_CLASS, dtype=np.int64)
    for s in range(4):
        m = t == s
        out[m] = np.minimum(np.bitwise_count(h[m] & np.uint64(SUIT_MASKS[s])), 7)
    return out


def cell_key(position, band, cls) -> np.ndarray:
    """One integer per cell: ``(position * n_bands + band) * N_CLASSES + cls``."""
    return (np.asarray(position) * len(HCP_BANDS) + np.asarray(band)) * N_CLASSES + np.asarray(cls)


@dataclass(frozen=True)
class ScreenTask:
    """Options of the screening pass (picklable): hands ``0 .. hands-1`` in chunks; ``bid`` and
    ``play`` (spec texts, every seat) are parsed once, into ``seating``, when the task is made."""

    hands: int
    seed: int
    rules: Rules
    bid: str
    play: str
    chunk_size: int
    seating: Seating = field(init=False)

    def __post_init__(self) -> None:
        p = self.rules.players
        object.__setattr__(self, "seating", Seating.of((self.bid,) * p, (self.play,) * p, p))


def run_screen_chunk(task: ScreenTask, index: int) -> dict[str, np.ndarray]:
    """Classes of hands ``index * chunk_size ..`` (at most ``chunk_size``): ``band`` (int8, -1:
    thrown in every time) and ``cls`` (int8 trump class in the deal's strain)."""
    from ...compiled.entry.advise import ScreenOut, chart_screen_kernel
    from ...compiled.entry.deal import loop_address
    from ...compiled.ground.layout import (
        Table,
        deck_array,
        new_deal,
        rules_array,
        sampler_scratch,
    )
    from ...compiled.strategies.dispatch import loop_mode
    from ..reports.tally import hcp as hcp_of

    rules = task.rules
    start = index * task.chunk_size
    count = max(0, min(task.chunk_size, task.hands - start))
    pol, par = task.seating.arrays()
    trump = np.zeros(count, dtype=np.int64)
    hand = np.zeros(count, dtype=np.uint64)
    chart_screen_kernel(loop_address(loop_mode(pol), pol), np.uint64(mix64(task.seed)),
                        np.int64(start), np.int64(count),
                        Table(rules_array(rules), deck_array(rules), pol, par),
                        new_deal(sampler_scratch()[0]), ScreenOut(trump, hand))
    thrown = trump < 0
    band = band_of(hcp_of(hand)).astype(np.int8)
    band[thrown] = -1
    cls = trump_class_of(hand, np.where(thrown, NT, trump)).astype(np.int8)
    return {"band": band, "cls": cls}


@dataclass
class Selection:
    """The hands a stratified chart evaluates and the cells' natural probabilities.

    ``ids`` (int64) / ``strain`` (int64: -1 = the deal's own strain, 4 = NT panel): the hands to
    evaluate, sorted; ``cells``: one row per cell with at least one screened hand, index
    ``key`` (:func:`cell_key`), columns ``position``, ``band``, ``cls``, ``screened`` (hands of
    the cell among the screened), ``prob`` (their share of the position's screened hands) and
    ``selected``; ``screened_per_position``: hands not thrown in, per position.
    """

    ids: np.ndarray
    strain: np.ndarray
    cells: pd.DataFrame
    screened_per_position: np.ndarray
    hands: int
    min_hands: int
    positions: Sequence[int] | None = None


def first_k(keys: np.ndarray, k: int, size: int, block: int = 1 << 20) -> np.ndarray:
    """Indices of the first ``k`` entries (by index) of every key ``0 .. size-1`` in ``keys``
    (-1: none), sorted. Done in blocks of ``block`` entries (memory: a block, not the screen)."""
    taken = np.zeros(size, dtype=np.int64)
    out = [np.zeros(0, dtype=np.int64)]
    for start in range(0, len(keys), block):
        kb = keys[start:start + block]
        idx = np.flatnonzero(kb >= 0)
        kk = kb[idx]
        order = np.argsort(kk, kind="stable")
        sk = kk[order]
        starts = np.r_[0, np.flatnonzero(np.diff(sk)) + 1]
        rank = np.arange(len(sk)) - np.repeat(starts, np.diff(np.r_[starts, len(sk)]))
        chosen = idx[order][rank + taken[sk] < k]
        taken += np.bincount(kk, minlength=size)
        out.append(np.sort(chosen).astype(np.int64) + start)
    return np.concatenate(out)


def select(band: np.ndarray, cls: np.ndarray, players: int, min_hands: int,
           nt: bool = True, positions: Sequence[int] | None = None) -> Selection:
    """Pick the hands of a stratified chart from the screened classes (see the module doc);
    ``positions``: evaluate only the hands of these bidding positions (default: all)."""
    hands = len(band)
    pos = (np.arange(hands, dtype=np.int64) % players).astype(np.int32)  # int32: big screens
    band = band.astype(np.int32)
    ok = band >= 0
    if positions is not None:
        ok &= np.isin(pos, np.asarray(list(positions), dtype=np.int32))
    suit_key = np.where(ok & (cls != NT_CLASS), cell_key(pos, band, cls.astype(np.int32)), -1)
    size = players * len(HCP_BANDS) * N_CLASSES
    parts = [(first_k(suit_key, min_hands, size), -1, suit_key)]
    if nt:
        nt_key = np.where(ok, cell_key(pos, band, np.int32(NT_CLASS)), -1)
        parts.append((first_k(nt_key, min_hands, size), NT, nt_key))
    per_pos = np.bincount(pos[band >= 0], minlength=players).astype(np.int64)
    # the suit panel's shares are of the deals played in a suit (a deal declared at NT has no
    # trump length); the NT panel's of every deal played
    per_pos_suit = np.bincount(pos[(band >= 0) & (cls != NT_CLASS)],
                               minlength=players).astype(np.int64)
    screened = np.zeros(size, dtype=np.int64)
    selected = np.zeros(size, dtype=np.int64)
    for chosen, _, key in parts:
        screened += np.bincount(key[key >= 0], minlength=size)
        selected += np.bincount(key[chosen], minlength=size)
    ids = np.concatenate([c for c, _, _ in parts])
    strain = np.concatenate([np.full(len(c), s, dtype=np.int64) for c, s, _ in parts])
    order = np.lexsort((strain, ids))
    keys = np.flatnonzero(screened)
    cls_k = keys % N_CLASSES
    band_k = keys // N_CLASSES % len(HCP_BANDS)
    pos_k = keys // (N_CLASSES * len(HCP_BANDS))
    with np.errstate(invalid="ignore", divide="ignore"):
        prob = screened[keys] / np.where(cls_k == NT_CLASS, per_pos[pos_k], per_pos_suit[pos_k])
    cells = pd.DataFrame({"position": pos_k, "band": band_k, "cls": cls_k,
                          "screened": screened[keys], "prob": prob,
                          "selected": selected[keys]}, index=pd.Index(keys, name="key"))
    return Selection(ids[order], strain[order], cells, per_pos, hands, min_hands,
                     None if positions is None else tuple(positions))


def coverage_notes(sel: Selection, players: int, nt: bool = True) -> list[str]:
    """One line per panel that has cells of probability >= :data:`MIN_PROB` with fewer than
    ``min_hands`` hands, and one when too few hands were screened to see such cells at all."""
    from ..reports.wording import bidding_position_name

    notes: list[str] = []
    need = math.ceil(sel.min_hands / MIN_PROB) * players
    if sel.hands < need:
        notes.append(
            f"screened {sel.hands:,} hands: cells of probability {MIN_PROB:g} need about "
            f"{need:,} (--hands) to get {sel.min_hands} hands each")
    c = sel.cells
    for pos in (range(players) if sel.positions is None else sel.positions):
        for panel, is_nt in (("suit", False), ("NT", True)):
            if is_nt and not nt:
                continue
            part = c[(c["position"] == pos) & ((c["cls"] == NT_CLASS) == is_nt)
                     & (c["prob"] >= MIN_PROB)]
            short = part[part["selected"] < sel.min_hands]
            if len(short):
                notes.append(
                    f"{bidding_position_name(pos, players)}, {panel} panel: {len(short)} of "
                    f"{len(part)} "
                    f"cells with probability >= {MIN_PROB:g} have fewer than {sel.min_hands} "
                    f"hands (fewest {int(short['selected'].min())})")
    return notes


def cell_weights(df: pd.DataFrame, cells: pd.DataFrame) -> dict[str, Any]:
    """Per evaluated hand (rows of a chart frame with ``position``, ``hcp``, ``trump_len``):
    ``cell`` key, ``cell_prob`` (natural probability of its cell within its position and panel)
    and ``weight`` (``cell_prob`` / hands evaluated in the cell)."""
    tl = df["trump_len"].to_numpy()
    cls = np.where(tl < 0, NT_CLASS, np.minimum(tl, 7))
    key = cell_key(df["position"].to_numpy(), band_of(df["hcp"].to_numpy()), cls)
    prob = cells["prob"].reindex(key).to_numpy(float)
    uniq, inv, counts = np.unique(key, return_inverse=True, return_counts=True)
    return {"cell": key, "cell_prob": prob, "weight": prob / counts[inv]}


def hand_classes(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` (one row per hand) with its ``hcp_band`` and ``trump_class`` columns: the cells of
    the chart, as ordered categoricals (the NT column only when NT hands occur)."""
    labels = band_labels(HCP_BANDS)
    band = np.searchsorted(np.asarray(HCP_BANDS), df["hcp"].to_numpy(), side="right") - 1
    tl = df["trump_len"].to_numpy()
    tcol = np.where(tl < 0, "NT", np.where(tl >= 7, "7+", tl.astype(str)))
    out = df.copy()
    out["hcp_band"] = pd.Categorical(np.asarray(labels)[band], categories=labels, ordered=True)
    classes = [c for c in TRUMP_LENGTHS if c != "NT" or (tl < 0).any()]  # NT only if it occurs
    out["trump_class"] = pd.Categorical(tcol, categories=classes, ordered=True)
    return out
