"""The double-dummy view of the hand advisor (``advise --eval dd``).

The heuristic advisor (:mod:`whist_sim.analyses.advisor.evaluate`) plays every sampled deal out with
a play policy. This module takes the *first* ``dd_deals`` of the same sampled deals (same seed, same
streams: the very same cards) and asks the double-dummy solver (:mod:`whist_sim.dd`, docs/DD.md)
what the player could do with every hand in view and perfect play by all, alone against the other
three:

* ``whist-max``: the most tricks he can guarantee;
* ``whist-min``: the fewest he can hold himself to;
* ``whist-exact``: every ``k`` he can make exactly.

Over the deals it reports the distribution of whist-max and whist-min, for each ``k`` the share of
deals in which ``k`` is exactly reachable (Wilson intervals), and for each candidate contract
that share beside the heuristic P(make) ("DD-best bids").

The position solved is the start of play: the sampled hands as they are when the first card is
led (the advisor does not model a Frisch: the player's hand is the one he holds after any Frisch,
and cards he passed are ``known`` in the receiver's hand), trump and first leader as in the
advice: in contract mode the given trump and the declarer on lead (RULES §5); in auction mode
each strain with the player as declarer, so on lead.

Every solve has a node limit (``solve_batch(..., node_limit=...)``): a deal whose search needs
more card plays is *unsolved*; unsolved deals are counted and left out of that objective's
distribution (each objective has its own number of solved deals). Results depend only on the
inputs, never on threads.

Conventions: the deals are dealt by :func:`whist_sim.analyses.advisor.sampling.sample_play_hands`;
the view holds the solver's raw arrays and derives its tables on demand; its output (text lines, the
``dd`` key of the advice JSON, the plot panel) is made here, with the cells of
:mod:`whist_sim.analyses.advisor.cells`. The solver, scipy (the intervals) and tqdm are imported
where used. Bad options raise :class:`~whist_sim.analyses.advisor.scenario.AdviceError`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ...core.cards import STRAINS
from .cells import json_number, pct_cell
from .options import EVALUATIONS, AdviseOptions
from .sampling import sample_play_hands
from .scenario import AdviceError, Scenario

__all__ = [
    "DD_OBJECTIVES",
    "DEFAULT_DD_DEALS",
    "DEFAULT_DD_NODE_LIMIT",
    "EVALUATIONS",
    "DDView",
    "check_dd_options",
    "check_min_node_limit",
    "dd_view",
    "solve_dd",
]

DEFAULT_DD_DEALS = 100
DEFAULT_DD_NODE_LIMIT = 1_000_000
DD_OBJECTIVES = ("whist-max", "whist-min", "whist-exact")
_KEYS = {"whist-max": "max", "whist-min": "min", "whist-exact": "exact"}


# --------------------------------------------------------------------------- options


def check_dd_options(
    scen: Scenario, deals: int, dd_deals: Any, dd_node_limit: Any
) -> tuple[int, int]:
    """``(dd_deals, node_limit)`` checked (``None`` = the defaults; ``dd_deals`` defaults to
    ``min(DEFAULT_DD_DEALS, deals)``). Raises
    :class:`~whist_sim.analyses.advisor.scenario.AdviceError` for three-player rules (the solver
    plays the 52-card, four-player game only) and bad values."""
    if scen.rules.players != 4:
        raise AdviceError(
            f"the double-dummy evaluation plays the four-player game only (the 52-card deck, "
            f"RULES §1); these rules have {scen.rules.players} players (RULES §8): use the "
            "heuristic evaluation"
        )
    if dd_deals is None:
        dd_deals = min(DEFAULT_DD_DEALS, deals)
    if isinstance(dd_deals, bool) or not isinstance(dd_deals, int | np.integer) or dd_deals < 1:
        raise AdviceError(f"dd_deals must be a whole number >= 1, got {dd_deals!r}")
    if dd_deals > deals:
        raise AdviceError(
            f"dd_deals = {dd_deals} is more than the {deals} sampled deals: the double-dummy "
            "view solves the first dd_deals of them"
        )
    if dd_node_limit is None:
        dd_node_limit = DEFAULT_DD_NODE_LIMIT
    return int(dd_deals), _check_limit(dd_node_limit, "dd_node_limit", "solve")


def check_min_node_limit(dd_min_node_limit: Any) -> int | None:
    """whist-min's own node limit checked (``None``: whist-min uses ``dd_node_limit`` too)."""
    if dd_min_node_limit is None:
        return None
    return _check_limit(dd_min_node_limit, "dd_min_node_limit", "whist-min solve")


def _check_limit(value: Any, name: str, per: str) -> int:
    """A node limit as an int >= 1, or :class:`~whist_sim.analyses.advisor.scenario.AdviceError`."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
        raise AdviceError(
            f"{name} must be a whole number >= 1 (card plays per {per}), got {value!r}"
        )
    return int(value)


# --------------------------------------------------------------------------- solving


def solve_dd(
    hands: np.ndarray,
    seat: int,
    leader: int,
    strains: tuple[int, ...],
    node_limit: int,
    threads: int = 1,
    progress: bool = False,
    min_node_limit: int | None = None,
) -> dict[int, dict[str, np.ndarray]]:
    """Whist-max, whist-min and whist-exact of ``seat`` on every deal of ``hands`` for each of
    ``strains`` with ``leader`` on lead, each solve limited to ``node_limit`` card plays
    (whist-min's to ``min_node_limit`` when given).

    Returns ``{strain: {"max": int8[n], "max_lo": int8[n], "max_hi": int8[n], "min": int8[n],
    "min_lo": int8[n], "min_hi": int8[n], "exact": int8[n, 14]}}`` with ``UNSOLVED`` (-1) for an
    unsolved deal (in every column of ``exact``). ``min_lo`` / ``min_hi``: the bounds proved on
    whist-min (equal to ``min`` on a solved deal; on an unsolved one, the tricks the player was
    shown to be unable to avoid, and the most the others were shown unable to push on him).
    ``max_lo`` / ``max_hi``: the bounds proved on whist-max (both equal to ``max`` on a solved
    deal; whist-max narrows an unsolved one from both ends, docs/DD.md). ``progress``: a tqdm
    bar over the solves on stderr.
    """
    from ...dd import solve_batch

    n = hands.shape[0]
    chunk = max(16, 8 * threads)  # rows per solver call: progress steps; results do not change
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n * len(strains) * len(DD_OBJECTIVES), unit="solve",
                   desc="double dummy", dynamic_ncols=True)
    out: dict[int, dict[str, np.ndarray]] = {}
    limits = {o: node_limit for o in DD_OBJECTIVES}
    if min_node_limit is not None:
        limits["whist-min"] = min_node_limit
    try:
        for t in strains:
            parts: dict[str, list[np.ndarray]] = {_KEYS[o]: [] for o in DD_OBJECTIVES}
            for key in ("max_lo", "max_hi", "min_lo", "min_hi"):
                parts[key] = []
            for obj in DD_OBJECTIVES:
                limit = limits[obj]
                for a in range(0, n, chunk):
                    b = min(n, a + chunk)
                    r, lo, hi = solve_batch(hands[a:b], t, leader, obj, seat, threads=threads,
                                            node_limit=limit, return_bounds=True)
                    parts[_KEYS[obj]].append(np.asarray(r, dtype=np.int8))
                    if obj == "whist-max":
                        parts["max_lo"].append(np.asarray(lo, dtype=np.int8))
                        parts["max_hi"].append(np.asarray(hi, dtype=np.int8))
                    elif obj == "whist-min":
                        parts["min_lo"].append(np.asarray(lo, dtype=np.int8))
                        parts["min_hi"].append(np.asarray(hi, dtype=np.int8))
                    if bar is not None:
                        bar.update(b - a)
            out[t] = {key: np.concatenate(v) for key, v in parts.items()}
    finally:
        if bar is not None:
            bar.close()
    return out


# --------------------------------------------------------------------------- the view


@dataclass(frozen=True)
class DDView:
    """The double-dummy view of an advice.

    ``raw``: :func:`solve_dd`'s arrays by strain code. ``deals``: sampled deals solved (the first
    ones of the advice); ``of_deals``: the advice's sampled deals. ``candidates``: the legal
    contracts of the player by strain; ``p_make``: the heuristic P(make) of each (over all the
    advice's deals), same order. ``seat`` / ``leader``: the player and the first leader.
    """

    raw: dict[int, dict[str, np.ndarray]]
    deals: int
    of_deals: int
    node_limit: int
    seat: int
    leader: int
    n_tricks: int
    confidence: float
    candidates: dict[int, tuple[int, ...]]
    p_make: dict[int, tuple[float, ...]]
    elapsed_s: float
    min_node_limit: int | None = None  # whist-min's own limit (None: node_limit)

    @property
    def strains(self) -> tuple[int, ...]:
        return tuple(self.raw)

    @property
    def whist_min_limit(self) -> int:
        """The node limit of the whist-min solves."""
        return self.node_limit if self.min_node_limit is None else self.min_node_limit

    @property
    def limit_text(self) -> str:
        """The node limit(s) in words: ``"1,000,000"`` or ``"1,000,000 (30,000 for whist-min)"``."""
        text = f"{self.node_limit:,}"
        if self.whist_min_limit != self.node_limit:
            text += f" ({self.whist_min_limit:,} for whist-min)"
        return text

    def solved(self, strain: int, key: str) -> np.ndarray:
        """Boolean mask of the deals solved for ``key`` (``"max"``, ``"min"``, ``"exact"``)."""
        v = self.raw[strain][key]
        return (v[:, 0] if v.ndim == 2 else v) >= 0

    def max_at_least(self, strain: int) -> tuple[np.ndarray, np.ndarray]:
        """``(proved, possible)``, ``float[N + 1]``: for ``k = 0..N``, the share of *all* the
        deals whose whist-max is proved to be at least ``k`` (``max_lo >= k``), and of those where
        it is not ruled out (``max_hi >= k``). A solved deal counts by its value, an unsolved one by
        the bounds its searches proved, so the true share over every deal lies between the two
        (the distribution of the solved deals alone leans to the deals that solve quickly)."""
        ks = np.arange(self.n_tricks + 1)
        lo = self.raw[strain]["max_lo"].astype(np.int64)
        hi = self.raw[strain]["max_hi"].astype(np.int64)
        proved = (lo[:, None] >= ks).mean(axis=0)
        possible = (hi[:, None] >= ks).mean(axis=0)
        return proved, possible

    def min_at_most(self, strain: int) -> tuple[np.ndarray, np.ndarray]:
        """``(proved, possible)``, ``float[N + 1]``: for ``k = 0..N``, the share of *all* the
        deals whose whist-min is proved to be at most ``k`` (``min_hi <= k``: the player can hold
        himself to ``k`` tricks), and of those where it is not ruled out (``min_lo <= k``). As
        :meth:`max_at_least`: the true share over every deal lies between the two."""
        ks = np.arange(self.n_tricks + 1)
        lo = self.raw[strain]["min_lo"].astype(np.int64)
        hi = self.raw[strain]["min_hi"].astype(np.int64)
        proved = (hi[:, None] <= ks).mean(axis=0)
        possible = (lo[:, None] <= ks).mean(axis=0)
        return proved, possible

    def table(self) -> pd.DataFrame:
        """Index ``(strain, k)``, ``k = 0..N``: ``p_max`` (share of the solved deals with
        whist-max = k), ``p_min`` (whist-min = k), ``p_exact`` (k exactly reachable), each with
        ``_lo`` / ``_hi`` Wilson bounds."""
        from ...core.stats import wilson_interval

        ks = np.arange(self.n_tricks + 1)
        frames = []
        for t in self.strains:
            cols: dict[str, Any] = {}
            for key in ("max", "min", "exact"):
                ok = self.solved(t, key)
                v = self.raw[t][key][ok]
                n = int(ok.sum())
                if key == "exact":
                    hits = (v == 1).sum(axis=0).astype(np.int64)
                else:
                    hits = np.bincount(v.astype(np.int64), minlength=self.n_tricks + 1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    p = hits / n if n else np.full(ks.size, np.nan)
                lo, hi = wilson_interval(hits, np.full(ks.size, n), self.confidence)
                cols[f"p_{key}"] = p
                cols[f"p_{key}_lo"] = lo
                cols[f"p_{key}_hi"] = hi
            df = pd.DataFrame(cols)
            df.insert(0, "k", ks)
            df.insert(0, "strain", STRAINS[t])
            frames.append(df)
        return pd.concat(frames, ignore_index=True).set_index(["strain", "k"])

    def summary(self) -> pd.DataFrame:
        """One row per strain: ``max_solved``, ``min_solved``, ``exact_solved`` (deals solved),
        ``max_mean``, ``min_mean`` (over the solved deals), ``p_none`` (share of the solved
        whist-exact deals where no number is exactly reachable), ``min_unsolved_ge1`` (deals whose
        whist-min search was stopped but had proved at least 1 trick), ``zero_impossible`` (deals
        where whist-min is proved >= 1, solved or not: a zero bid cannot be made there even with
        perfect play) and ``best_bid`` (the candidate contract most often exactly reachable; ties:
        the lower; ``-1`` when none is)."""
        rows = []
        for t in self.strains:
            row: dict[str, Any] = {"strain": STRAINS[t]}
            for key in ("max", "min", "exact"):
                row[f"{key}_solved"] = int(self.solved(t, key).sum())
            for key in ("max", "min"):
                ok = self.solved(t, key)
                row[f"{key}_mean"] = float(self.raw[t][key][ok].mean()) if ok.any() else math.nan
            ok = self.solved(t, "exact")
            ex = self.raw[t]["exact"][ok]
            row["p_none"] = float((ex.max(axis=1) <= 0).mean()) if ok.any() else math.nan
            # zero bids: deals where whist-min is proved >= 1, solved or not
            mn = self.raw[t]["min"]
            unsolved_min = mn < 0
            row["min_unsolved_ge1"] = int((self.raw[t]["min_lo"][unsolved_min] >= 1).sum())
            row["zero_impossible"] = int((mn >= 1).sum()) + row["min_unsolved_ge1"]
            row["best_bid"] = self._best_bid(t)
            rows.append(row)
        return pd.DataFrame(rows).set_index("strain")

    def bids(self) -> pd.DataFrame:
        """Index ``(strain, bid)`` over the candidate contracts: ``p_exact`` (+ ``_lo``/``_hi``)
        from the double-dummy deals, ``p_make`` the heuristic P(make) of the advice."""
        tab = self.table()
        rows = []
        for t in self.strains:
            for b, pm in zip(self.candidates[t], self.p_make[t], strict=True):
                r = tab.loc[(STRAINS[t], b)]
                rows.append({"strain": STRAINS[t], "bid": b, "p_exact": r["p_exact"],
                             "p_exact_lo": r["p_exact_lo"], "p_exact_hi": r["p_exact_hi"],
                             "p_make": pm})
        return pd.DataFrame(rows).set_index(["strain", "bid"])

    def _best_bid(self, t: int) -> int:
        ok = self.solved(t, "exact")
        if not ok.any() or not self.candidates[t]:
            return -1
        ex = self.raw[t]["exact"][ok]
        counts = [int((ex[:, b] == 1).sum()) for b in self.candidates[t]]
        best = max(range(len(counts)), key=lambda i: (counts[i], -i))
        return self.candidates[t][best] if counts[best] > 0 else -1

    # ------------------------------------------------------------------ output

    def to_dict(self) -> dict[str, Any]:
        """The ``dd`` key of the advice JSON (docs/ADVISOR.md)."""
        tab = self.table()
        summ = self.summary()
        bids = self.bids()
        strains = []
        for t in self.strains:
            part = tab.xs(STRAINS[t], level="strain")
            s = summ.loc[STRAINS[t]]
            entry: dict[str, Any] = {"strain": STRAINS[t]}
            for key, name in (("max", "whist_max"), ("min", "whist_min"), ("exact", "exact")):
                solved = int(s[f"{key}_solved"])
                entry[name] = {
                    "solved": solved,
                    "unsolved": self.deals - solved,
                    "p": [json_number(x) for x in part[f"p_{key}"]],
                    "ci": [[json_number(a), json_number(b)] for a, b in zip(part[f"p_{key}_lo"],
                                                              part[f"p_{key}_hi"], strict=True)],
                }
                if key != "exact":
                    entry[name]["mean"] = json_number(s[f"{key}_mean"])
            proved, possible = self.max_at_least(t)
            entry["whist_max"]["at_least"] = [[json_number(a), json_number(b)]
                                              for a, b in zip(proved, possible, strict=True)]
            proved, possible = self.min_at_most(t)
            entry["whist_min"]["at_most"] = [[json_number(a), json_number(b)]
                                             for a, b in zip(proved, possible, strict=True)]
            entry["exact"]["p_none"] = json_number(s["p_none"])
            entry["whist_min"]["unsolved_proved_ge1"] = int(s["min_unsolved_ge1"])
            entry["zero_impossible"] = int(s["zero_impossible"])
            entry["bids"] = [
                {"bid": int(b), "p_exact": json_number(r["p_exact"]),
                 "p_exact_ci": [json_number(r["p_exact_lo"]), json_number(r["p_exact_hi"])],
                 "p_make": json_number(r["p_make"])}
                for b, r in bids.xs(STRAINS[t], level="strain").iterrows()
            ]
            entry["best_bid"] = None if s["best_bid"] < 0 else int(s["best_bid"])
            strains.append(entry)
        return {
            "deals": self.deals,
            "of_deals": self.of_deals,
            "node_limit": self.node_limit,
            "min_node_limit": self.whist_min_limit,
            "seat": self.seat,
            "leader": self.leader,
            "strains": strains,
        }

    def lines(self, mode: str) -> list[str]:
        """The text block printed under the heuristic advice."""
        tab = self.table()
        summ = self.summary()
        bids = self.bids()
        pct = round(self.confidence * 100)
        n = self.n_tricks
        who = (f"seat {self.seat} leads" if self.leader == self.seat
               else f"declarer seat {self.leader} leads")
        if mode == "contract":
            where = f"trump {STRAINS[self.strains[0]]}, {who}"
        else:
            where = "each strain with you declaring, so you lead"
        out = [
            "",
            f"double dummy (every hand seen, perfect play; you, seat {self.seat}, against the "
            "other three):",
            f"{where}; the first {self.deals:,} of the {self.of_deals:,} sampled deals",
            f"at most {self.limit_text} card plays per solve; unsolved deals are left out, so "
            "each row has its own count",
            "  % of solved deals     solved" + "".join(f"{k:>4}" for k in range(n + 1))
            + "   mean",
        ]
        ranges: set[str] = set()
        for t in self.strains:
            part = tab.xs(STRAINS[t], level="strain")
            s = summ.loc[STRAINS[t]]
            for key, label in (("max", "whist-max = k"), ("min", "whist-min = k"),
                               ("exact", "k exactly")):
                head = f"{STRAINS[t]:>2} {label}" if mode == "auction" else f"   {label}"
                solved = f"{int(s[f'{key}_solved'])}/{self.deals}"
                mean = s.get(f"{key}_mean", math.nan)
                mean_text = "" if key == "exact" else (
                    "      -" if math.isnan(mean) else f"{mean:7.2f}")
                out.append(f"  {head:<18} {solved:>9}" + _grid(part[f"p_{key}"]) + mean_text)
                if key in ("max", "min") and int(s[f"{key}_solved"]) < self.deals:
                    # over every deal, the unsolved ones by their proved range
                    if key == "max":
                        proved, possible = self.max_at_least(t)
                        rel = ">="
                    else:
                        proved, possible = self.min_at_most(t)
                        rel = "<="
                    pre = f"{STRAINS[t]:>2} " if mode == "auction" else "   "
                    for label, share in ((f"{key}{rel}k proved", proved),
                                         (f"{key}{rel}k possible", possible)):
                        out.append(f"  {pre + label:<18} {'all':>9}" + _grid(share))
                    ranges.add(key)
        unsolved = sum(self.deals - int(summ.loc[STRAINS[t], f"{key}_solved"])
                       for t in self.strains for key in ("max", "min", "exact"))
        if unsolved:
            total = self.deals * len(self.strains) * len(DD_OBJECTIVES)
            out.append(f"  {unsolved:,} of {total:,} solves left unsolved (over the node limit); "
                       "a higher limit solves more, slower")
        if "max" in ranges:
            out.append("  max>=k proved / possible: % of all the deals whose whist-max is proved "
                       ">= k / not proved < k")
        if "min" in ranges:
            out.append("  min<=k proved / possible: % of all the deals whose whist-min is proved "
                       "<= k / not proved > k")
        if ranges:
            out.append("  (an unsolved deal counts by the range its searches proved; the true "
                       "share lies between)")
        for t in self.strains:
            lead = f"{STRAINS[t]}: " if mode == "auction" else ""
            ge1 = int(summ.loc[STRAINS[t], "min_unsolved_ge1"])
            if ge1:
                zero_out = int(summ.loc[STRAINS[t], "zero_impossible"])
                out.append(f"  {lead}whist-min unsolved but proved >= 1 in {ge1:,} deals; a zero "
                           f"bid cannot be made double dummy in {zero_out:,} of {self.deals:,} "
                           "deals")
        for t in self.strains:
            none = summ.loc[STRAINS[t], "p_none"]
            if not math.isnan(none) and none > 0:
                lead = f"{STRAINS[t]}: " if mode == "auction" else ""
                out.append(f"  {lead}in {pct_cell(none).strip()} of the solved deals no number of "
                           "tricks is exactly makeable (docs/DD.md)")
        out.append("")
        if mode == "contract":
            t = self.strains[0]
            out.append("  DD-best bids: share of the solved deals in which you can make exactly "
                       "the bid")
            out.append(f"  ({pct}% Wilson CI), beside the heuristic P(make) over all "
                       f"{self.of_deals:,} deals:")
            out.append(f"  {'bid':>3}  {'DD exact':>8} {'CI':>14}  {'P(make)':>7}")
            best = int(summ.loc[STRAINS[t], "best_bid"])
            for b, r in bids.xs(STRAINS[t], level="strain").iterrows():
                star = " <" if b == best else ""
                out.append(f"  {int(b):>3}  {pct_cell(r['p_exact']):>8} "
                           f"{_ci(r['p_exact_lo'], r['p_exact_hi'])}  "
                           f"{pct_cell(r['p_make']):>7}{star}")
        else:
            out.append("  DD-best bids: per strain the contract most often exactly makeable")
            out.append(f"  ({pct}% Wilson CI), beside its heuristic P(make) over all "
                       f"{self.of_deals:,} deals:")
            out.append(f"  {'strain':>6}  {'bid':>3}  {'DD exact':>8} {'CI':>14}  {'P(make)':>7}")
            for t in self.strains:
                b = int(summ.loc[STRAINS[t], "best_bid"])
                if b < 0:
                    why = ("no contract exactly makeable in a solved deal"
                           if summ.loc[STRAINS[t], "exact_solved"] else "no deal solved")
                    out.append(f"  {STRAINS[t]:>6}    -  ({why})")
                    continue
                r = bids.loc[(STRAINS[t], b)]
                out.append(f"  {STRAINS[t]:>6}  {b:>3}  {pct_cell(r['p_exact']):>8} "
                           f"{_ci(r['p_exact_lo'], r['p_exact_hi'])}  {pct_cell(r['p_make']):>7}")
        return out

    def draw(self, ax, mode: str) -> None:
        """P(k exactly reachable) by ``k`` on a matplotlib axis: in contract mode with Wilson
        error bars and the heuristic P(make) of each candidate beside it; in auction mode one
        line per strain."""
        tab = self.table()
        pct = round(self.confidence * 100)
        for t in self.strains:
            part = tab.xs(STRAINS[t], level="strain")
            k = part.index.to_numpy()
            p = part["p_exact"].to_numpy(float)
            err = np.nan_to_num(np.vstack([p - part["p_exact_lo"], part["p_exact_hi"] - p]))
            if mode == "contract":
                ax.bar(k - 0.2, p, width=0.4, yerr=err, capsize=2, color="#55a868",
                       error_kw={"elinewidth": 1}, label="double dummy: exactly makeable")
                bids = np.array(self.candidates[t])
                ax.bar(bids + 0.2, self.p_make[t], width=0.4, color="#4c72b0",
                       label="heuristic play: P(make)")
            else:  # five strains: lines without error bars (they would hide each other)
                ax.plot(k, p, marker="o", ms=3, label=STRAINS[t])
        ax.set_xticks(np.arange(self.n_tricks + 1))
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("tricks k")
        ax.set_ylabel("share of deals")
        ax.legend(fontsize=8, title=None if mode == "contract" else "trump, exactly makeable")
        ax.set_title("double dummy: k exactly makeable against the other three", fontsize=10)
        note = f"{self.deals:,} deals, node limit {self.limit_text}"
        if mode == "contract":
            note += f"; bars: {pct}% CI"
        ax.text(0.99, 0.97, note, transform=ax.transAxes, ha="right", va="top", fontsize=8,
                color="0.35")


def _ci(lo: float, hi: float) -> str:
    if math.isnan(lo) or math.isnan(hi):
        return "[   -   ]".rjust(14)
    return f"[{100 * lo:5.1f}, {100 * hi:5.1f}]"


def _grid(values) -> str:
    cells = []
    for v in values:
        if math.isnan(v):
            cells.append(f"{'-':>4}")
        elif v == 0:
            cells.append(f"{'.':>4}")
        else:
            cells.append(f"{round(100 * v):>4}" if v >= 0.005 else f"{'0':>4}")
    return "".join(cells)


def dd_view(scen: Scenario, summary: pd.DataFrame, options: AdviseOptions,
            pilot_rate: float | None, progress: bool = False) -> DDView:
    """The :class:`DDView` of an advice: ``summary`` is the table of its heuristic run
    (:func:`whist_sim.analyses.advisor.evaluate.summarize`, for P(make)), ``options`` the
    advice's (:class:`~whist_sim.analyses.advisor.options.AdviseOptions`, its double-dummy
    fields resolved: ``dd_deals``, ``dd_node_limit``, ``dd_min_node_limit``), ``pilot_rate`` its
    run's acceptance rate; a tqdm bar on stderr when ``progress``."""
    o = options
    deals, dd_deals, node_limit = o.deals, o.dd_deals, o.dd_node_limit
    assert dd_deals is not None and node_limit is not None  # resolved by advise
    min_node_limit, confidence = o.dd_min_node_limit, o.confidence
    t0 = time.perf_counter()
    sampled = sample_play_hands(scen, dd_deals, o.seed, o.play_spec, o.bid_spec, o.inference,
                                pilot_rate)
    strains = (scen.trump,) if scen.mode == "contract" else tuple(range(len(STRAINS)))
    leader = scen.declarer  # RULES §5: the declarer leads to the first trick
    raw = solve_dd(sampled.hands, scen.seat, leader, strains, node_limit, o.threads, progress,
                   min_node_limit)
    candidates: dict[int, tuple[int, ...]] = {}
    p_make: dict[int, tuple[float, ...]] = {}
    for t in strains:
        rows = summary[summary["strain"] == STRAINS[t]]
        candidates[t] = tuple(int(b) for b in rows["bid"])
        p_make[t] = tuple(float(x) for x in rows["p_make"])
    return DDView(
        raw=raw, deals=dd_deals, of_deals=deals, node_limit=node_limit, seat=scen.seat,
        leader=leader, n_tricks=scen.rules.n_tricks, confidence=confidence,
        candidates=candidates, p_make=p_make, elapsed_s=time.perf_counter() - t0,
        min_node_limit=min_node_limit,
    )
