"""Double-dummy report tables: contracts and tricks taken against each seat's whist-max and min.

For data with the double-dummy columns of ``whist-sim simulate --dd``
(:mod:`whist_sim.runs.dd_columns`)
every played seat has ``dd_max`` (whist-max: the most tricks it can guarantee when the other three
play together against it) and ``dd_min`` (whist-min: the fewest it can hold itself to when the
other three push tricks on it), both for the hands at the start of play, the deal's trump and the
declarer on lead (RULES §5); docs/DD.md.

Every function takes a result DataFrame with those columns or a :class:`Tally` of one and, like
the other tables (:mod:`whist_sim.analyses.reports.tables`), returns a DataFrame with counts and 95
% confidence intervals. A solve over the run's node limit is *unsolved* (``-1``), but the search
still proved bounds ``lo <= value <= hi`` on it (``dd_max_lo_s`` .. ``dd_min_hi_s``; on a solved
seat both equal the value), and those often settle a comparison with the contract: ``contract <
dd_min`` holds whenever ``contract < dd_min_lo``, ``contract >= dd_min`` whenever ``contract >=
dd_min_hi``. So the comparisons (:func:`dd_contract_range`, the comparison rows of
:func:`dd_summary`) count every seat they are *decided* for, by the solved value or by the proved
bounds (``base`` / ``n``; ``by_bounds`` says how many have a needed value unsolved), and
:func:`dd_zero_bids` sorts the seats with whist-min unsolved by their bounds, while the
differences and means (:func:`dd_contract_vs_max`, :func:`dd_tricks_vs_max`, the mean rows of
:func:`dd_summary`) need exact values and count only the seats whose whist-max is solved.
:func:`dd_unsolved` says how many solves are unsolved.

Neither set is a random sample of the seats. Solved seats over-represent deals that are quick to
solve (short searches, often clear-cut hands); the decided seats are a larger and less biased set,
but still not every seat: a comparison stays undecided when the contract lies inside the proved
bounds of an unsolved value, which is likelier when the contract is close to it.

Player entries are one per player and played deal; ``by`` accepts ``position``, ``over``,
``role`` and ``contract`` (as in :func:`whist_sim.analyses.reports.contract_success`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ...core.stats import mean_interval_from_sums, wilson_interval
from .tables import Data, _key_series, _keys, _mean_columns, _rate_columns
from .tally import ReportError, Tally, as_tally

__all__ = [
    "DD_GROUP_KEYS",
    "dd_contract_range",
    "dd_contract_vs_max",
    "dd_summary",
    "dd_tricks_vs_max",
    "dd_unsolved",
    "dd_zero_bids",
]

#: grouping keys the double-dummy tables accept (``by=``)
DD_GROUP_KEYS = ("position", "over", "role", "contract")

DDBy = str | Sequence[str] | None


def _dd(data: Data) -> tuple[Tally, pd.DataFrame]:
    t = as_tally(data)
    if not t.has_dd:
        raise ReportError(
            "the data has no double-dummy columns dd_max_s / dd_min_s: make the dataset with "
            "`whist-sim simulate --dd` (and load those columns)"
        )
    return t, t.dd_counts


def _by(by: DDBy) -> list[str]:
    return [] if by is None else _keys(by, DD_GROUP_KEYS)


def _group(cube: pd.DataFrame, keys: list[str], t: Tally, values: dict[str, np.ndarray],
           squares: Sequence[str] = ()) -> pd.DataFrame:
    """n-weighted sums of ``values`` per group of ``keys`` (one row ``all`` without keys)."""
    n = cube["n"].to_numpy(np.int64)
    frame = pd.DataFrame({"n": n}, index=cube.index)
    for name, v in values.items():
        v = np.asarray(v).astype(np.int64)
        frame[name] = n * v
        if name in squares:
            frame[f"{name}_sq"] = n * v * v
    if not keys:
        out = frame.sum().to_frame().T
        out.index = pd.Index(["all"], name="seats")
        return out
    groups = [_key_series(cube, k, t) for k in keys]
    out = frame.groupby(groups, observed=True, sort=True).sum()
    out.index.names = keys
    return out


def _share(k, n) -> dict[str, np.ndarray]:
    return _rate_columns(pd.Series(np.asarray(k)), pd.Series(np.asarray(n)), prefix="share_")


# --------------------------------------------------------------------------- unsolved


def dd_unsolved(data: Data, by: DDBy = None) -> pd.DataFrame:
    """How many double-dummy solves were left unsolved (over the node limit), per objective.

    Index ``objective`` (``whist-max``, ``whist-min``; with ``by``, the group keys first).
    Columns: ``n`` (solves: one per player and played deal), ``unsolved``, ``share`` of the
    solves (with ``ci_low``/``ci_high``).
    """
    t, cube = _dd(data)
    keys = _by(by)
    parts = []
    for objective, col in (("whist-max", "dd_max"), ("whist-min", "dd_min")):
        g = _group(cube, keys, t, {"unsolved": cube[col].to_numpy() < 0})
        part = pd.DataFrame({"n": g["n"].to_numpy(np.int64),
                             "unsolved": g["unsolved"].to_numpy(np.int64)}, index=g.index)
        part["objective"] = objective
        parts.append(part)
    both = pd.concat(parts)
    names = ["objective"] if not keys else [*keys, "objective"]
    both = both.reset_index(drop=not keys).set_index(names)
    if keys:
        both = both.sort_index(level=keys, sort_remaining=False)
    cols = {"n": both["n"].to_numpy(), "unsolved": both["unsolved"].to_numpy()}
    share = _share(both["unsolved"], both["n"])
    cols.update({"share": share["share"], "ci_low": share["share_ci_low"],
                 "ci_high": share["share_ci_high"]})
    return pd.DataFrame(cols, index=both.index)


# --------------------------------------------------------------------------- contract vs. range


def _bounds(cube: pd.DataFrame) -> dict[str, np.ndarray]:
    """Per cube row: the contract ``c``, whether whist-max / whist-min are solved (``max_ok``,
    ``min_ok``) and the bounds on each (``max_lo``, ``max_hi``, ``min_lo``, ``min_hi``: the value
    itself when solved, else the bounds the search proved)."""
    out = {"c": cube["contract"].to_numpy(np.int64)}
    for tag in ("max", "min"):
        v = cube[f"dd_{tag}"].to_numpy(np.int64)
        ok = v >= 0
        out[f"{tag}_ok"] = ok
        out[f"{tag}_lo"] = np.where(ok, v, cube[f"dd_{tag}_lo"].to_numpy(np.int64))
        out[f"{tag}_hi"] = np.where(ok, v, cube[f"dd_{tag}_hi"].to_numpy(np.int64))
    return out


def _le_max(b: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(decided true, decided false) of ``contract <= dd_max``."""
    return b["c"] <= b["max_lo"], b["c"] > b["max_hi"]


def _ge_min(b: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(decided true, decided false) of ``contract >= dd_min``."""
    return b["c"] >= b["min_hi"], b["c"] < b["min_lo"]


def _inside(b: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(decided true, decided false) of ``dd_min <= contract <= dd_max``."""
    c = b["c"]
    return ((b["min_hi"] <= c) & (c <= b["max_lo"]),
            (c < b["min_lo"]) | (c > b["max_hi"]))


_COMPARISONS = (
    # (label, which values it needs, decided (true, false), whether this row is the false side)
    ("contract <= dd_max", "max", _le_max, False),
    ("contract > dd_max", "max", _le_max, True),
    ("contract >= dd_min", "min", _ge_min, False),
    ("contract < dd_min", "min", _ge_min, True),
    ("dd_min <= contract <= dd_max", "both", _inside, False),
    ("outside [dd_min, dd_max]", "both", _inside, True),
)


def dd_contract_range(data: Data, by: DDBy = None) -> pd.DataFrame:
    """Where contracts lie against the double-dummy values, and how often each kind is made.

    Index ``comparison`` (with ``by``, the group keys first): ``contract <= dd_max`` /
    ``contract > dd_max``, ``contract >= dd_min`` / ``contract < dd_min``, ``dd_min <= contract
    <= dd_max`` / ``outside [dd_min, dd_max]``. A contract above whist-max cannot be guaranteed
    against perfect opposition, one below whist-min cannot be guaranteed against three players
    pushing tricks on the seat.

    A comparison counts the seats it is *decided* for: by the solved values or, where a value is
    unsolved, by the bounds proved on it (module docstring). With bounds ``[lo, hi]`` on each
    value (``lo = hi =`` the value when solved), ``contract <= dd_max`` is true when contract <=
    max_lo and false when contract > max_hi; ``contract >= dd_min`` is true when contract >=
    min_hi and false when contract < min_lo; ``dd_min <= contract <= dd_max`` is true when min_hi
    <= contract <= max_lo and false when contract < min_lo or contract > max_hi; otherwise the
    seat is left out. A comparison and its complement share their seats.

    Columns: ``base`` (seats compared: those the comparison is decided for), ``n`` (seats in this
    row), ``by_bounds`` (of the ``n``, the seats with a needed value unsolved, which a count over
    solved seats only leaves out: ``n - by_bounds`` is that count; for the range rows a seat with
    one value solved and the other not is counted here even when the solved one alone decides
    it), ``share`` = n / base (+ ``share_ci_low/high``), ``made`` and ``rate`` = P(make) of
    these contracts (+ ``ci_low``/``ci_high``).
    """
    t, cube = _dd(data)
    keys = _by(by)
    b = _bounds(cube)
    made = b["c"] == cube["tricks"].to_numpy(np.int64)
    solved = {"max": b["max_ok"], "min": b["min_ok"], "both": b["max_ok"] & b["min_ok"]}
    parts = []
    for label, needs, decide, negated in _COMPARISONS:
        yes, no = decide(b)
        inside = no if negated else yes
        g = _group(cube, keys, t, {"base": yes | no, "in": inside,
                                   "bounds": inside & ~solved[needs], "made": inside & made})
        part = pd.DataFrame({"base": g["base"], "n": g["in"], "by_bounds": g["bounds"],
                             "made": g["made"]}, index=g.index)
        part["comparison"] = label
        parts.append(part)
    both = pd.concat(parts)
    names = ["comparison"] if not keys else [*keys, "comparison"]
    both = both.reset_index(drop=not keys).set_index(names)
    if keys:
        both = both.sort_index(level=keys, sort_remaining=False)
    cols: dict[str, np.ndarray] = {"base": both["base"].to_numpy(np.int64),
                                   "n": both["n"].to_numpy(np.int64),
                                   "by_bounds": both["by_bounds"].to_numpy(np.int64)}
    cols.update(_share(both["n"], both["base"]))
    cols["made"] = both["made"].to_numpy(np.int64)
    cols.update(_rate_columns(both["made"], both["n"]))
    return pd.DataFrame(cols, index=both.index)


# --------------------------------------------------------------------------- differences


def _difference(data: Data, what: str, by: DDBy) -> pd.DataFrame:
    t, cube = _dd(data)
    keys = _by(by)
    cube = cube[cube["dd_max"] >= 0]
    diff = cube[what].to_numpy(np.int64) - cube["dd_max"].to_numpy(np.int64)
    n = cube["n"].to_numpy(np.int64)
    frame = pd.DataFrame({"diff": diff, "n": n}, index=cube.index)
    name = f"{what}_minus_dd_max"
    groups = [_key_series(cube, k, t) for k in keys] + [frame["diff"].rename(name)]
    counts = frame["n"].groupby(groups, observed=True, sort=True).sum()
    if keys:
        totals = counts.groupby(level=list(range(len(keys))), observed=True).transform("sum")
    else:
        totals = pd.Series(np.full(len(counts), int(counts.sum())), index=counts.index)
    cols: dict[str, np.ndarray] = {"n": counts.to_numpy(np.int64)}
    share = _share(counts, totals)
    cols.update({"share": share["share"], "ci_low": share["share_ci_low"],
                 "ci_high": share["share_ci_high"]})
    return pd.DataFrame(cols, index=counts.index)


def dd_tricks_vs_max(data: Data, by: DDBy = None) -> pd.DataFrame:
    """Tricks taken minus whist-max, over seats whose whist-max is solved: how far real play
    falls short of (< 0) or exceeds (> 0) what the seat could guarantee with every card in view.

    Below 0 the seat took fewer tricks than it could have forced (often on purpose: it bid
    fewer); above 0 the others did not play perfectly together against it. Index
    ``tricks_minus_dd_max`` (with ``by``, the group keys first). Columns: ``n`` (seats), ``share``
    of the group's seats with ``ci_low``/``ci_high``.
    """
    return _difference(data, "tricks", by)


def dd_contract_vs_max(data: Data, by: DDBy = None) -> pd.DataFrame:
    """Contract minus whist-max, over seats whose whist-max is solved (> 0: the contract asks for
    more tricks than the seat can guarantee against perfect opposition).

    Index ``contract_minus_dd_max`` (with ``by``, the group keys first). Columns: ``n`` (seats),
    ``share`` of the group's seats with ``ci_low``/``ci_high``.
    """
    return _difference(data, "contract", by)


# --------------------------------------------------------------------------- zero bids

_ZERO_CLASSES = ("0", "1", "2+", "unsolved, >= 1 by its bound", "unsolved, undecided")


def dd_zero_bids(data: Data) -> pd.DataFrame:
    """Zero bids against whist-min, among non-declarers (who choose between zero and a number).

    Whist-min 0 means the seat can lose every trick even when the other three try to give it
    tricks: a zero bid that perfect play always makes; whist-min >= 1 means they can always give
    it a trick. Index ``dd_min``: ``0``, ``1``, ``2+`` (solved; ``0`` also takes an unsolved seat
    whose proved upper bound ``dd_min_hi_s`` is already 0), and for the other seats whose
    whist-min is unsolved, shown apart: ``unsolved, >= 1 by its bound`` (the search still proved
    whist-min >= 1, column ``dd_min_lo_s``) and ``unsolved, undecided``.
    Columns: ``n`` (non-declarer seats), ``zeros`` (zero bids), ``zero_share`` = zeros / n (+
    ``zero_share_ci_low/high``), ``made`` (zero bids made) and ``rate`` = made / zeros (+
    ``ci_low``/``ci_high``), ``score_mean`` of the zero bids in game points (+ CI, RULES §6).
    """
    t, cube = _dd(data)
    cube = cube[cube["position"] > 0]
    b = _bounds(cube)
    value = cube["dd_min"].to_numpy(np.int64)
    cls = np.where(b["min_ok"], np.minimum(value, 2),
                   np.where(b["min_hi"] == 0, 0, np.where(b["min_lo"] >= 1, 3, 4)))
    zero = cube["contract"].to_numpy() == 0
    made = zero & (cube["tricks"].to_numpy() == 0)
    n = cube["n"].to_numpy(np.int64)
    s = cube["score"].to_numpy(np.int64) * zero
    frame = pd.DataFrame({"cls": cls, "n": n, "zeros": n * zero, "made": n * made,
                          "s": n * s, "sq": n * s * s})
    g = frame.groupby("cls").sum().reindex(range(len(_ZERO_CLASSES)), fill_value=0)
    cols: dict[str, np.ndarray] = {"n": g["n"].to_numpy(np.int64),
                                   "zeros": g["zeros"].to_numpy(np.int64)}
    cols.update(_rate_columns(g["zeros"], g["n"], prefix="zero_share_"))
    cols["made"] = g["made"].to_numpy(np.int64)
    cols.update(_rate_columns(g["made"], g["zeros"]))
    cols.update(_mean_columns(g["zeros"], g["s"], g["sq"], name="score_mean", main=False))
    index = pd.CategoricalIndex(_ZERO_CLASSES, categories=_ZERO_CLASSES, ordered=True,
                                name="dd_min")
    return pd.DataFrame(cols, index=index)


# --------------------------------------------------------------------------- headline


def dd_summary(data: Data) -> pd.DataFrame:
    """Headline double-dummy numbers, one row per metric (index ``metric``), in the format of
    :func:`whist_sim.analyses.reports.summary`: ``value``, ``ci_low``, ``ci_high``, ``n``, ``unit``
    (``share`` or ``tricks``).

    ``n`` is the observations behind the value: solves for the unsolved shares; for the
    comparison rows (``contract <= dd_max``, ``dd_min <= contract <= dd_max``, ``made | contract
    <= dd_max``, ``made | contract > dd_max``, ``zero bids with dd_min = 0``) the seats the
    comparison is decided for, by the solved value or the proved bounds, as in
    :func:`dd_contract_range` (``dd_min = 0`` is decided true when dd_min_hi is 0, false when
    dd_min_lo >= 1); for the means, which need exact values, the seats with whist-max solved. The
    two rows ``mean tricks - dd_max, all seats, low end`` / ``high end`` count every seat, an
    unsolved one by its proved upper / lower bound on whist-max: the mean over all the seats
    (which the solved seats alone may miss, as quick solves are not a random sample) lies between
    them."""
    t, cube = _dd(data)
    rows: dict[str, tuple] = {}
    n = cube["n"].to_numpy(np.int64)
    b = _bounds(cube)
    c = b["c"]
    tr = cube["tricks"].to_numpy(np.int64)
    hi = cube["dd_max"].to_numpy(np.int64)
    made = c == tr

    def share(label: str, k_mask: np.ndarray, n_mask: np.ndarray) -> None:
        k, m = int(n[k_mask & n_mask].sum()), int(n[n_mask].sum())
        a, b_ = wilson_interval(k, m)
        rows[label] = (k / m if m else np.nan, a, b_, m, "share")

    def mean(label: str, x: np.ndarray, mask: np.ndarray) -> None:
        w = n[mask]
        v = x[mask]
        m, _, a, b_ = mean_interval_from_sums(int(w.sum()), int((w * v).sum()),
                                              int((w * v * v).sum()))
        rows[label] = (float(m), float(a), float(b_), int(w.sum()), "tricks")

    everyone = np.ones_like(made)
    le_yes, le_no = _le_max(b)
    in_yes, in_no = _inside(b)
    share("whist-max solves unsolved", ~b["max_ok"], everyone)
    share("whist-min solves unsolved", ~b["min_ok"], everyone)
    share("contract <= dd_max", le_yes, le_yes | le_no)
    share("dd_min <= contract <= dd_max", in_yes, in_yes | in_no)
    share("made | contract <= dd_max", made, le_yes)
    share("made | contract > dd_max", made, le_no)
    mean("mean contract - dd_max", c - hi, b["max_ok"])
    mean("mean tricks - dd_max", tr - hi, b["max_ok"])
    # over every seat, an unsolved one by its proved bounds: the true mean lies between the two
    mean("mean tricks - dd_max, all seats, low end", tr - b["max_hi"], everyone)
    mean("mean tricks - dd_max, all seats, high end", tr - b["max_lo"], everyone)
    zero_bid = (cube["position"].to_numpy() > 0) & (c == 0)
    min_zero, min_not_zero = b["min_hi"] == 0, b["min_lo"] >= 1
    share("zero bids with dd_min = 0", min_zero, zero_bid & (min_zero | min_not_zero))
    out = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["value", "ci_low", "ci_high", "n", "unit"])
    out.index.name = "metric"
    return out
