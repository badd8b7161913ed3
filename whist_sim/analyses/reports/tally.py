"""Accumulated counts of a simulation dataset: the additive summary all report tables come from.

A :class:`Tally` holds three *count cubes*, DataFrames with one row per distinct combination of
small integer keys and a count ``n``:

* ``players``: one entry per player and played deal, keys ``seat, place, position, contract,
  tricks, score, over, trump, frisch`` (``place`` = the seat's place at the table, 0 = the dealer,
  1 = the dealer's left .. P-1, ``(seat - dealer) % P``, -1 for data without a ``dealer``
  column; ``position`` = bidding position, 0 = declarer .. P-1 = the hooked last bidder,
  ``(seat - declarer) % P``; ``over`` is 0/1);
* ``hands``: one entry per player and played deal, keys ``position, hcp, contract, tricks, score,
  over`` (``hcp`` = high-card points of the hand at the start of play, A=4 K=3 Q=2 J=1);
* ``deals``: one entry per deal, keys ``thrown_in, frisch, trump, level, bid_sum, over, missed``
  (``missed`` = players whose tricks differ from their contract; trump/bid_sum/missed are -1 and
  level is 0 for a thrown-in deal, as in the result schema);
* ``dd`` (only for data with the double-dummy columns of ``simulate --dd``): one entry per player
  and played deal, keys ``position, over, contract, tricks, score, dd_max, dd_min, dd_max_lo,
  dd_max_hi, dd_min_lo, dd_min_hi`` (the seat's whist-max and whist-min, -1 when unsolved, and the
  bounds the search proved on each, equal to the value when solved: they can settle a comparison
  with a contract, or a zero-bid question, when the value itself is unsolved).

Counts add up, so the tally of a dataset is the sum of the tallies of its chunks (``a + b``):
:func:`tally_dataset` reads one chunk file at a time and only the columns it needs, so datasets
larger than memory work. Every table in :mod:`whist_sim.analyses.reports.tables` is a pure function
of a tally, and also accepts a result DataFrame (it tallies it first).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...core.rules import Rules, RulesError

PLAYER_KEYS = ("seat", "place", "position", "contract", "tricks", "score", "over", "trump",
               "frisch")
HAND_KEYS = ("position", "hcp", "contract", "tricks", "score", "over")
DEAL_KEYS = ("thrown_in", "frisch", "trump", "level", "bid_sum", "over", "missed")
DEAL_COLUMNS = ("declarer", "trump", "level", "frisch", "thrown_in", "bid_sum", "over")
#: read when present: the dealer gives each seat its place at the table (``place``)
OPTIONAL_COLUMNS = ("dealer",)
SEAT_COLUMNS = ("hand", "contract", "tricks", "score")
DD_KEYS = ("position", "over", "contract", "tricks", "score", "dd_max", "dd_min",
           "dd_max_lo", "dd_max_hi", "dd_min_lo", "dd_min_hi")
DD_SEAT_COLUMNS = ("dd_max", "dd_min", "dd_max_lo", "dd_max_hi", "dd_min_lo", "dd_min_hi")
#: the most tricks a double-dummy value can be (the solver knows only the 52-card, 13-trick deal)
_DD_TRICKS = 13

# bits of the honours: rank 12 = A, 11 = K, 10 = Q, 9 = J in each of the four suits
_HCP_WEIGHTS = {12: 4, 11: 3, 10: 2, 9: 1}


class ReportError(ValueError):
    """Data that cannot be reported on (missing columns, mixed runs, bad options)."""


def needed_columns(players: int, dd: bool = False) -> list[str]:
    """The result-schema columns a tally reads, for ``players`` seats (``dd``: with the
    double-dummy columns)."""
    seat_cols = SEAT_COLUMNS + (DD_SEAT_COLUMNS if dd else ())
    return list(DEAL_COLUMNS) + list(OPTIONAL_COLUMNS) + [f"{c}_{s}" for c in seat_cols
                                                          for s in range(players)]


def _has_dd_columns(df: pd.DataFrame, players: int) -> bool:
    return all(f"{c}_{s}" in df.columns for c in DD_SEAT_COLUMNS for s in range(players))


def hcp(hands: np.ndarray | Sequence[int]) -> np.ndarray:
    """High-card points (A=4, K=3, Q=2, J=1) of each hand bitmask (docs/ENGINE.md §1), vectorised.

    ``hands``: an array of ``uint64`` masks (bit ``13*suit + rank``). Returns ``int8`` points
    (0..37 for a 13-card hand).
    """
    h = np.asarray(hands, dtype=np.uint64)
    out = np.zeros(h.shape, dtype=np.int8)
    for rank, weight in _HCP_WEIGHTS.items():
        for suit in range(4):
            bit = (h >> np.uint64(13 * suit + rank)) & np.uint64(1)
            out += bit.astype(np.int8) * np.int8(weight)
    return out


def popcount(masks: np.ndarray) -> np.ndarray:
    """Number of set bits of each ``uint64`` mask (cards in a hand), vectorised."""
    x = np.asarray(masks, dtype=np.uint64).copy()
    x -= (x >> np.uint64(1)) & np.uint64(0x5555555555555555)
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def count_rows(keys: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """Count the distinct combinations of integer key arrays (all the same length).

    Returns a DataFrame with one column per key (int64) and ``n`` (int64), sorted by the keys.
    Fast for many rows: the keys are packed into one int64 code and counted with ``np.unique``.
    """
    names = list(keys)
    arrays = [np.asarray(keys[k]).astype(np.int64, copy=False) for k in names]
    size = len(arrays[0]) if arrays else 0
    if size == 0:
        return pd.DataFrame({k: np.zeros(0, np.int64) for k in (*names, "n")})
    lows = [int(a.min()) for a in arrays]
    spans = [int(a.max()) - lo + 1 for a, lo in zip(arrays, lows, strict=True)]
    if float(np.prod([float(s) for s in spans])) >= 2.0**62:
        raise ReportError("too many distinct key combinations to count")
    code = np.zeros(size, dtype=np.int64)
    for a, lo, span in zip(arrays, lows, spans, strict=True):
        code = code * span + (a - lo)
    uniq, counts = np.unique(code, return_counts=True)
    cols: dict[str, np.ndarray] = {}
    rest = uniq
    for name, lo, span in reversed(list(zip(names, lows, spans, strict=True))):
        cols[name] = rest % span + lo
        rest = rest // span
    out = pd.DataFrame({k: cols[k] for k in names})
    out["n"] = counts.astype(np.int64)
    return out


def _merge_cubes(a: pd.DataFrame, b: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    if a.empty:
        return b.copy()
    if b.empty:
        return a.copy()
    both = pd.concat([a, b], ignore_index=True)
    return both.groupby(list(keys), as_index=False, sort=True)["n"].sum()


def policy_labels(manifest: Mapping[str, Any] | None, players: int) -> tuple[str, ...]:
    """One label per seat naming its policies, from a dataset manifest.

    A seat whose bidding and play policies have the same name gets that name (``"heuristic"``);
    otherwise ``"<bid>/<play>"``. Without policy information every seat is ``"unknown"``.
    """
    if not manifest:
        return ("unknown",) * players
    src: Mapping[str, Any] = manifest
    if isinstance(manifest.get("policies"), Mapping):
        src = manifest["policies"]
    bid, play = src.get("bid"), src.get("play")
    if not isinstance(bid, Sequence) or isinstance(bid, str):
        bid = None
    if not isinstance(play, Sequence) or isinstance(play, str):
        play = None
    if bid is None and play is None:
        return ("unknown",) * players
    bid = list(bid) if bid is not None else ["?"] * players
    play = list(play) if play is not None else ["?"] * players
    if len(bid) != players or len(play) != players:
        return ("unknown",) * players
    return tuple(str(b) if b == p else f"{b}/{p}" for b, p in zip(bid, play, strict=True))


def _players_in(df: pd.DataFrame) -> int:
    for p in (4, 3):
        if all(f"contract_{s}" in df.columns for s in range(p)):
            return p
    raise ReportError(
        "the data has no per-seat columns contract_0 .. contract_2: "
        "is it a whist-sim result DataFrame (whist_sim.load)?"
    )


@dataclass(frozen=True, eq=False)
class Tally:
    """Additive counts of a (part of a) simulation dataset; see the module docstring.

    ``players`` is the number of seats, ``n_tricks`` the tricks per deal, ``policies`` one label per
    seat (:func:`policy_labels`). ``manifest`` is the dataset manifest when known (not compared
    when adding). ``dd_counts`` is the ``dd`` cube, or ``None`` for data without double-dummy
    columns. Build one with :meth:`from_frame` or :func:`tally_dataset`; add tallies of
    chunks of the same run with ``+``.
    """

    players: int
    n_tricks: int
    policies: tuple[str, ...]
    player_counts: pd.DataFrame
    hand_counts: pd.DataFrame
    deal_counts: pd.DataFrame
    manifest: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    dd_counts: pd.DataFrame | None = None

    @property
    def has_dd(self) -> bool:
        """Whether the tally holds double-dummy counts (data from ``simulate --dd``)."""
        return self.dd_counts is not None

    @property
    def n_deals(self) -> int:
        """Number of deals tallied (thrown-in deals included)."""
        return int(self.deal_counts["n"].sum())

    @property
    def n_played(self) -> int:
        """Number of deals that were played (not thrown in)."""
        d = self.deal_counts
        return int(d.loc[d["thrown_in"] == 0, "n"].sum())

    @classmethod
    def empty(
        cls,
        players: int = 4,
        n_tricks: int = 13,
        policies: Sequence[str] | None = None,
        manifest: dict[str, Any] | None = None,
        dd: bool = False,
    ) -> Tally:
        """A tally of no deals (the start of an accumulation); ``dd``: with an empty ``dd`` cube."""

        def cube(keys: Sequence[str]) -> pd.DataFrame:
            return pd.DataFrame({k: np.zeros(0, np.int64) for k in (*keys, "n")})

        return cls(
            players,
            n_tricks,
            tuple(policies) if policies is not None else ("unknown",) * players,
            cube(PLAYER_KEYS),
            cube(HAND_KEYS),
            cube(DEAL_KEYS),
            manifest,
            cube(DD_KEYS) if dd else None,
        )

    @classmethod
    def from_frame(cls, df: pd.DataFrame, manifest: Mapping[str, Any] | None = None) -> Tally:
        """Tally a result DataFrame (the schema of :mod:`whist_sim.runs.dataset`, one row per deal).

        The manifest (for the rules and the policies) is taken from ``manifest`` or else from
        ``df.attrs["manifest"]``; without one, the player count comes from the columns and the
        tricks per deal from the hand sizes.
        """
        if not isinstance(df, pd.DataFrame):
            raise ReportError(f"expected a result DataFrame, got {type(df).__name__}")
        if manifest is None:
            manifest = df.attrs.get("manifest")
        manifest = dict(manifest) if manifest else None
        players, n_tricks = _shape_of(df, manifest)
        missing = [c for c in needed_columns(players)
                   if c not in df.columns and c not in OPTIONAL_COLUMNS]
        if missing:
            raise ReportError(
                f"the data lacks column(s) {', '.join(missing)} needed for reports "
                "(load the dataset with these columns, or all of them)"
            )
        policies = policy_labels(manifest, players)
        return cls(
            players,
            n_tricks,
            policies,
            *_cubes(df, players),
            manifest,
            _dd_cube(df, players) if _has_dd_columns(df, players) else None,
        )

    def __eq__(self, other: object) -> bool:
        """Same game, policies and counts (the manifest is not compared)."""
        if not isinstance(other, Tally):
            return NotImplemented
        if self.has_dd != other.has_dd:
            return False
        pairs = [(self.player_counts, other.player_counts),
                 (self.hand_counts, other.hand_counts),
                 (self.deal_counts, other.deal_counts)]
        if self.has_dd:
            pairs.append((self.dd_counts, other.dd_counts))
        return (self.players, self.n_tricks, self.policies) == (
            other.players, other.n_tricks, other.policies
        ) and all(
            a.reset_index(drop=True).astype(np.int64).equals(b.reset_index(drop=True)
                                                             .astype(np.int64))
            for a, b in pairs
        )

    __hash__ = None  # type: ignore[assignment]  # mutable DataFrames inside

    def __add__(self, other: Tally) -> Tally:
        if not isinstance(other, Tally):
            return NotImplemented
        if (self.players, self.n_tricks) != (other.players, other.n_tricks):
            raise ReportError(
                f"cannot add tallies of different games ({self.players} players / "
                f"{self.n_tricks} tricks vs {other.players} / {other.n_tricks})"
            )
        if self.policies != other.policies:
            raise ReportError(
                f"cannot add tallies of different policies ({', '.join(self.policies)} vs "
                f"{', '.join(other.policies)})"
            )
        if self.has_dd != other.has_dd:
            raise ReportError(
                "cannot add a tally with double-dummy counts to one without (data from "
                "simulate --dd and data without the dd columns)"
            )
        return Tally(
            self.players,
            self.n_tricks,
            self.policies,
            _merge_cubes(self.player_counts, other.player_counts, PLAYER_KEYS),
            _merge_cubes(self.hand_counts, other.hand_counts, HAND_KEYS),
            _merge_cubes(self.deal_counts, other.deal_counts, DEAL_KEYS),
            self.manifest if self.manifest is not None else other.manifest,
            _merge_cubes(self.dd_counts, other.dd_counts, DD_KEYS) if self.has_dd else None,
        )


def _shape_of(df: pd.DataFrame, manifest: Mapping[str, Any] | None) -> tuple[int, int]:
    if manifest and isinstance(manifest.get("rules"), Mapping):
        try:
            rules = Rules.from_dict(dict(manifest["rules"]))
        except (RulesError, TypeError) as e:
            raise ReportError(f"the manifest's rules are invalid: {e}") from None
        return rules.players, rules.n_tricks
    players = _players_in(df)
    if "hand_0" in df.columns and len(df):
        sizes = np.unique(popcount(df["hand_0"].to_numpy()))
        if sizes.size != 1:
            raise ReportError(f"hands of different sizes {list(sizes)} in one dataset")
        return players, int(sizes[0])
    return players, Rules(players=players).n_tricks


def _cubes(df: pd.DataFrame, players: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    thrown = df["thrown_in"].to_numpy().astype(bool)
    trump = df["trump"].to_numpy()
    frisch = df["frisch"].to_numpy()
    over = df["over"].to_numpy().astype(np.int64)
    contract = np.stack([df[f"contract_{s}"].to_numpy() for s in range(players)], axis=1)
    tricks = np.stack([df[f"tricks_{s}"].to_numpy() for s in range(players)], axis=1)
    missed = np.where(thrown, -1, (contract != tricks).sum(axis=1))
    deals = count_rows(
        {
            "thrown_in": thrown,
            "frisch": frisch,
            "trump": np.where(thrown, -1, trump),
            "level": np.where(thrown, 0, df["level"].to_numpy()),
            "bid_sum": np.where(thrown, -1, df["bid_sum"].to_numpy()),
            "over": np.where(thrown, 0, over),
            "missed": missed,
        }
    )
    played = ~thrown
    k = int(played.sum())
    declarer = df["declarer"].to_numpy()[played].astype(np.int64)
    if k and (declarer.min() < 0 or declarer.max() >= players):
        raise ReportError("a played deal has no valid declarer seat (column declarer)")
    seats = np.arange(players, dtype=np.int64)
    seat = np.broadcast_to(seats, (k, players))
    position = (seat - declarer[:, None]) % players
    if "dealer" in df.columns:
        dealer = df["dealer"].to_numpy()[played].astype(np.int64)
        place = (seat - dealer[:, None]) % players
    else:  # no dealer column: the place at the table is unknown
        place = np.full((k, players), -1, dtype=np.int64)
    rep = lambda a: np.repeat(a[played], players)  # noqa: E731  deal value for each player row
    hands = np.stack([df[f"hand_{s}"].to_numpy() for s in range(players)], axis=1)[played]
    scores = np.stack([df[f"score_{s}"].to_numpy() for s in range(players)], axis=1)[played]
    common = {
        "contract": contract[played].ravel(),
        "tricks": tricks[played].ravel(),
        "score": scores.ravel(),
        "over": rep(over),
    }
    if k and (common["contract"].min() < 0 or common["tricks"].min() < 0):
        raise ReportError("a played deal has a negative contract or trick count")
    player_cube = count_rows(
        {
            "seat": seat.ravel(),
            "place": place.ravel(),
            "position": position.ravel(),
            **common,
            "trump": rep(trump),
            "frisch": rep(frisch),
        }
    )
    player_cube = player_cube[list(PLAYER_KEYS) + ["n"]]
    hand_cube = count_rows({"position": position.ravel(), "hcp": hcp(hands.ravel()), **common})
    hand_cube = hand_cube[list(HAND_KEYS) + ["n"]]
    return player_cube, hand_cube, deals


def _dd_cube(df: pd.DataFrame, players: int) -> pd.DataFrame:
    """The ``dd`` cube: one entry per player and played deal with its whist-max and whist-min and
    the bounds proved on them (the values are -1 when unsolved)."""
    played = ~df["thrown_in"].to_numpy().astype(bool)
    k = int(played.sum())

    def seats(name: str) -> np.ndarray:
        return np.stack([df[f"{name}_{s}"].to_numpy() for s in range(players)], axis=1)[played]

    declarer = df["declarer"].to_numpy()[played].astype(np.int64)
    position = (np.arange(players, dtype=np.int64)[None, :] - declarer[:, None]) % players
    over = np.repeat(df["over"].to_numpy().astype(np.int64)[played], players)
    values = {name: seats(name) for name in DD_SEAT_COLUMNS}
    if k:
        _check_dd(values)
    cube = count_rows({
        "position": position.ravel(),
        "over": over,
        "contract": seats("contract").ravel(),
        "tricks": seats("tricks").ravel(),
        "score": seats("score").ravel(),
        **{name: v.ravel() for name, v in values.items()},
    })
    return cube[list(DD_KEYS) + ["n"]]


def _check_dd(values: Mapping[str, np.ndarray]) -> None:
    """Refuse double-dummy values and bounds of played seats that cannot be right: a value below
    -1, bounds outside 0..13 or crossed (lo > hi), or a solved value outside its bounds."""
    for tag in ("dd_max", "dd_min"):
        v, lo, hi = values[tag], values[f"{tag}_lo"], values[f"{tag}_hi"]
        if v.min() < -1 or v.max() > _DD_TRICKS:
            raise ReportError(f"a double-dummy value outside -1..{_DD_TRICKS} ({tag}_s)")
        if lo.min() < 0 or hi.max() > _DD_TRICKS:
            raise ReportError(f"a played seat has a double-dummy bound outside 0..{_DD_TRICKS} "
                              f"({tag}_lo_s / {tag}_hi_s)")
        if (lo > hi).any():
            raise ReportError(f"a played seat has crossed double-dummy bounds: {tag}_lo_s > "
                              f"{tag}_hi_s")
        solved = v >= 0
        if ((solved & (lo > v)) | (solved & (v > hi))).any():
            raise ReportError(f"a solved {tag}_s lies outside its bounds {tag}_lo_s .. {tag}_hi_s")


def tally_dataset(
    path: str | Path,
    partial: bool = False,
    progress: bool = False,
    on_chunk: Callable[[int], None] | None = None,
) -> Tally:
    """Tally a dataset directory written by ``simulate``, one chunk file at a time.

    Reads only the columns the reports need (:func:`needed_columns`), so memory is bounded by one
    chunk whatever the size of the run. ``partial=True`` accepts an unfinished run (its finished
    chunks). ``progress`` shows a tqdm bar over chunks; ``on_chunk(rows)`` is called after each.
    """
    from ...runs.dataset import has_dd, iter_chunks, load_manifest  # optional for the tables

    manifest = load_manifest(path)
    try:
        rules = Rules.from_dict(dict(manifest["rules"]))
    except (KeyError, TypeError, RulesError) as e:
        raise ReportError(f"{path}: the manifest has no valid rules ({e})") from None
    dd = has_dd(manifest)
    total = Tally.empty(rules.players, rules.n_tricks, policy_labels(manifest, rules.players),
                        manifest, dd=dd)
    chunks = iter_chunks(path, columns=needed_columns(rules.players, dd), partial=partial)
    if progress:
        from tqdm.auto import tqdm

        chunks = tqdm(chunks, total=manifest.get("n_chunks"), desc="report", unit="chunk")
    for df in chunks:
        total = total + Tally.from_frame(df, manifest)
        if on_chunk is not None:
            on_chunk(len(df))
    return total


def as_tally(data: pd.DataFrame | Tally) -> Tally:
    """``data`` itself if it is a :class:`Tally`, else the tally of a result DataFrame."""
    if isinstance(data, Tally):
        return data
    if isinstance(data, pd.DataFrame):
        return Tally.from_frame(data)
    raise ReportError(
        f"expected a result DataFrame (whist_sim.load) or a Tally, got {type(data).__name__}"
    )
