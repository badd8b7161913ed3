"""Report tables: pure functions of a result DataFrame or of a
:class:`~whist_sim.analyses.reports.Tally`.

Every function takes ``data``, either what :func:`whist_sim.load` returns (one row per deal, the
result schema of :mod:`whist_sim.runs.dataset`) or a tally of it (:func:`tally_dataset` for datasets
larger than memory), and returns a DataFrame with one row per group, the group's value as index.

Conventions (shared by all tables):

* ``n`` is the number of observations behind a row (players, deals or bids, as the docstring says).
* Rates and shares are fractions in ``[0, 1]``; every rate or mean comes with a 95 % confidence
  interval, ``ci_low`` / ``ci_high`` for the table's main statistic and ``<stat>_ci_low`` /
  ``<stat>_ci_high`` for the others. Rates use the Wilson score interval, means the Student-t
  interval (:mod:`whist_sim.core.stats`); an empty group has ``nan`` bounds.
* Scores are game points (RULES §6), tricks are tricks. Thrown-in deals (RULES §3) have no
  contracts: player tables count played deals only.
* Group values: ``contract``, ``tricks``, ``seat``, ``frisch``, ``level``, ``bid_sum`` are ints;
  ``place`` is the seat's place at the table, 0 = the dealer, 1 = the dealer's left (who calls
  first) .. P-1 (labelled dealer, second, third, fourth); ``position`` is the bidding position
  0 = declarer .. P-1 = the hooked last bidder (RULES §4);
  ``trump`` is the strain name ``C D H S NT`` (an ordered categorical); ``over`` is a bool (True =
  over deal, sum of contracts above the tricks in the deal); ``role`` is ``declarer``/``other``;
  ``policy`` is the seat's policy label from the manifest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
import pandas as pd

from ...core.cards import STRAINS
from ...core.stats import (
    diff_interval,
    mean_interval_from_sums,
    weighted_quantile,
    wilson_interval,
    z_value,
)
from .tally import ReportError, Tally, as_tally

__all__ = [
    "DEFAULT_HCP_BANDS",
    "GROUP_KEYS",
    "bid_sum_distribution",
    "calibration_error",
    "compare_summaries",
    "contract_success",
    "contract_vs_tricks",
    "failed_zero_outcomes",
    "frisch_distribution",
    "frisch_effect",
    "hooked_cost",
    "level_distribution",
    "misses_per_deal",
    "over_under",
    "play_headline",
    "score_distribution",
    "score_summary",
    "strain_distribution",
    "summary",
    "zero_bids",
    "zero_success",
    "zero_value_by_hcp",
]

#: Grouping keys accepted by the player tables (``by=``), see the module docstring.
GROUP_KEYS = ("contract", "position", "trump", "over", "seat", "place", "role", "frisch", "tricks",
              "policy")
#: Lower edges of the high-card-point bands of :func:`zero_value_by_hcp`.
DEFAULT_HCP_BANDS = (0, 3, 5, 7, 9, 11, 13)

Data: TypeAlias = pd.DataFrame | Tally
By = str | Sequence[str]

_TRUMP_TYPE = pd.CategoricalDtype(list(STRAINS), ordered=True)
_ROLE_TYPE = pd.CategoricalDtype(["declarer", "other"], ordered=True)


# --------------------------------------------------------------------------- helpers


def _keys(by: By, allowed: Sequence[str] = GROUP_KEYS) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by)
    if not keys:
        raise ReportError("by needs at least one grouping key")
    bad = [k for k in keys if k not in allowed]
    if bad:
        raise ReportError(
            f"cannot group by {', '.join(map(repr, bad))}; use one or more of {', '.join(allowed)}"
        )
    if len(set(keys)) != len(keys):
        raise ReportError(f"repeated grouping key in {keys}")
    return keys


def _key_series(cube: pd.DataFrame, key: str, t: Tally) -> pd.Series:
    if key == "trump":
        codes = cube["trump"].to_numpy()
        return pd.Series(pd.Categorical.from_codes(codes, dtype=_TRUMP_TYPE), index=cube.index,
                         name="trump")
    if key == "over":
        return cube["over"].astype(bool).rename("over")
    if key == "role":
        role = np.where(cube["position"].to_numpy() == 0, 0, 1)
        return pd.Series(pd.Categorical.from_codes(role, dtype=_ROLE_TYPE), index=cube.index,
                         name="role")
    if key == "policy":
        labels = np.asarray(t.policies, dtype=object)
        return pd.Series(labels[cube["seat"].to_numpy()], index=cube.index, name="policy")
    return cube[key].rename(key)


def _sums(cube: pd.DataFrame, keys: list[str], t: Tally, values: dict[str, np.ndarray],
          squares: Sequence[str] = ()) -> pd.DataFrame:
    """Group a count cube by ``keys``: ``n`` and the n-weighted sums (and sums of squares)."""
    n = cube["n"].to_numpy(np.int64)
    frame = pd.DataFrame({"n": n}, index=cube.index)
    for name, v in values.items():
        v = np.asarray(v)
        frame[name] = n * v
        if name in squares:
            frame[f"{name}_sq"] = n * v.astype(np.int64) ** 2
    groups = [_key_series(cube, k, t) for k in keys]
    out = frame.groupby(groups, observed=True, sort=True).sum()
    out.index.names = keys
    return out


def _rate_columns(made: pd.Series, n: pd.Series, prefix: str = "") -> dict[str, np.ndarray]:
    lo, hi = wilson_interval(made.to_numpy(), n.to_numpy())
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = made.to_numpy() / n.to_numpy()
    name = prefix.rstrip("_") if prefix else "rate"
    ci = f"{prefix}ci" if prefix else "ci"
    return {name: rate, f"{ci}_low": lo, f"{ci}_high": hi}


def _mean_columns(n, total, total_sq, name: str = "mean", main: bool = True) -> dict:
    mean, sd, lo, hi = mean_interval_from_sums(np.asarray(n), np.asarray(total),
                                               np.asarray(total_sq))
    ci = "ci" if main else f"{name}_ci"
    cols = {name: mean}
    if main:
        cols["sd"] = sd
    cols[f"{ci}_low"] = lo
    cols[f"{ci}_high"] = hi
    return cols


def _finish(index: pd.Index, columns: dict) -> pd.DataFrame:
    return pd.DataFrame(columns, index=index)


def _players(data: Data) -> tuple[Tally, pd.DataFrame]:
    t = as_tally(data)
    return t, t.player_counts


def _made(cube: pd.DataFrame) -> np.ndarray:
    return (cube["contract"].to_numpy() == cube["tricks"].to_numpy()).astype(np.int64)


def _distribution(counts: pd.Series) -> pd.DataFrame:
    """n, share of the total and its Wilson interval, for a Series of counts."""
    n = counts.astype(np.int64)
    total = np.full(len(n), int(n.sum()))
    cols = {"n": n.to_numpy()}
    cols.update(_rate_columns(n, pd.Series(total, index=n.index), prefix="share_"))
    cols["ci_low"] = cols.pop("share_ci_low")
    cols["ci_high"] = cols.pop("share_ci_high")
    return _finish(n.index, cols)


def _deals(data: Data) -> tuple[Tally, pd.DataFrame]:
    t = as_tally(data)
    return t, t.deal_counts


# --------------------------------------------------------------------------- contract success


def contract_success(data: Data, by: By = "contract") -> pd.DataFrame:
    """How often players make their contract exactly (tricks == contract, RULES §6), by group.

    ``by``: one key or a list of keys from :data:`GROUP_KEYS` (``"contract"``, ``"position"``,
    ``"trump"``, ``"over"``, ``"role"`` (declarer vs. others), ``"seat"``, ``"frisch"``,
    ``"tricks"``, ``"policy"``). One row per player and played deal is counted. Columns: ``n``
    (players), ``made``, ``rate`` (= made / n), ``ci_low``, ``ci_high`` (95 % Wilson).

    >>> contract_success(df, by="position").loc[0, "rate"]   # doctest: +SKIP
    0.61...                                                  # the declarer's success rate
    """
    t, cube = _players(data)
    g = _sums(cube, _keys(by), t, {"made": _made(cube)})
    return _finish(g.index, {"n": g["n"].to_numpy(), "made": g["made"].to_numpy(),
                             **_rate_columns(g["made"], g["n"])})


def score_summary(data: Data, by: By = "position") -> pd.DataFrame:
    """Mean score per player and played deal (game points, RULES §6) by group.

    ``by`` as in :func:`contract_success` (``"seat"`` and ``"position"`` are the usual ones).
    Columns: ``n`` (players), ``mean``, ``sd``, ``ci_low``, ``ci_high`` (95 % t interval of the
    mean). Thrown-in deals, which score 0 for everybody, are not counted.
    """
    t, cube = _players(data)
    g = _sums(cube, _keys(by), t, {"score": cube["score"].to_numpy(np.int64)}, squares=("score",))
    return _finish(g.index, {"n": g["n"].to_numpy(),
                             **_mean_columns(g["n"], g["score"], g["score_sq"])})


def score_distribution(data: Data, by: By = "contract") -> pd.DataFrame:
    """The distribution of one player's score (game points) by group (default: by contract).

    Columns: ``n``, ``mean``, ``sd``, ``min``, ``p05``, ``p25``, ``median``, ``p75``, ``p95``,
    ``max`` (quantiles by the inverted empirical CDF, so always scores that occurred).
    """
    t, cube = _players(data)
    keys = _keys(by)
    frame = cube.assign(**{k: _key_series(cube, k, t) for k in keys})
    qs = [0.05, 0.25, 0.5, 0.75, 0.95]
    rows, index = [], []
    for value, grp in frame.groupby(keys if len(keys) > 1 else keys[0], observed=True, sort=True):
        per = grp.groupby("score")["n"].sum()
        s, w = per.index.to_numpy(np.int64), per.to_numpy(np.int64)
        n, total, sq = int(w.sum()), int((s * w).sum()), int((s * s * w).sum())
        mean, sd, _, _ = mean_interval_from_sums(n, total, sq)
        q = weighted_quantile(s, w, qs)
        rows.append([n, mean, sd, s.min(), *q, s.max()])
        index.append(value)
    cols = ["n", "mean", "sd", "min", "p05", "p25", "median", "p75", "p95", "max"]
    if len(keys) > 1:
        idx = pd.MultiIndex.from_tuples(index, names=keys)
    else:
        idx = pd.Index(index, name=keys[0])
        if keys[0] == "trump":
            idx = pd.CategoricalIndex(index, dtype=_TRUMP_TYPE, name="trump")
    out = pd.DataFrame(rows, index=idx, columns=cols)
    for c in ("n", "min", "p05", "p25", "median", "p75", "p95", "max"):
        out[c] = out[c].astype(np.int64)
    return out


# --------------------------------------------------------------------------- over / under


def over_under(data: Data) -> pd.DataFrame:
    """Over vs. under deals (RULES §4): one row each (index ``over``: False = under, True = over).

    Columns: ``n`` (played deals), ``share`` of played deals with ``ci_low``/``ci_high``,
    ``bid_sum_mean`` (mean sum of contracts), and ``missed_mean`` with ``missed_mean_ci_low`` /
    ``missed_mean_ci_high``: the mean number of players per deal who miss their contract.
    """
    _, deals = _deals(data)
    played = deals[deals["thrown_in"] == 0]
    n = played["n"].to_numpy(np.int64)
    frame = pd.DataFrame({
        "over": played["over"].astype(bool).to_numpy(),
        "n": n,
        "bid_sum": n * played["bid_sum"].to_numpy(np.int64),
        "missed": n * played["missed"].to_numpy(np.int64),
        "missed_sq": n * played["missed"].to_numpy(np.int64) ** 2,
    })
    g = frame.groupby("over", sort=True).sum().reindex([False, True], fill_value=0)
    out = _distribution(g["n"])
    with np.errstate(invalid="ignore", divide="ignore"):
        out["bid_sum_mean"] = g["bid_sum"] / g["n"].replace(0, np.nan)
    m = _mean_columns(g["n"], g["missed"], g["missed_sq"], name="missed_mean", main=False)
    for k, v in m.items():
        out[k] = v
    return out


def bid_sum_distribution(data: Data) -> pd.DataFrame:
    """Distribution of the sum of the contracts over played deals (index ``bid_sum``).

    Columns: ``n`` (deals), ``share`` with ``ci_low``/``ci_high``, and ``over`` (the sum is above
    the tricks in the deal). The sum never equals the number of tricks (RULES §4).
    """
    t, deals = _deals(data)
    played = deals[deals["thrown_in"] == 0]
    counts = played.groupby("bid_sum", sort=True)["n"].sum()
    out = _distribution(counts)
    out["over"] = out.index.to_numpy() > t.n_tricks
    return out


def misses_per_deal(data: Data) -> pd.DataFrame:
    """How many players miss their contract per played deal, in under and over deals.

    Index ``(over, missed)``; columns ``n`` (deals), ``share`` of the deals of that kind (over or
    under) with ``ci_low``/``ci_high``. At least one player misses in every deal (the contracts
    cannot sum to the number of tricks, RULES §4), so ``missed`` runs from 1 to P.
    """
    t, deals = _deals(data)
    played = deals[deals["thrown_in"] == 0]
    counts = played.groupby([played["over"].astype(bool), "missed"], sort=True)["n"].sum()
    full = pd.MultiIndex.from_product([[False, True], range(t.players + 1)],
                                      names=["over", "missed"])
    counts = counts.reindex(full, fill_value=0)
    totals = counts.groupby(level="over").transform("sum")
    cols = {"n": counts.to_numpy()}
    cols.update(_rate_columns(counts, totals, prefix="share_"))
    cols["ci_low"] = cols.pop("share_ci_low")
    cols["ci_high"] = cols.pop("share_ci_high")
    return _finish(full, cols)


def hooked_cost(data: Data) -> pd.DataFrame:
    """The cost of being the last (hooked) contract bidder, who may not make the sum equal the
    number of tricks (RULES §4), compared with the other non-declarers (positions 1 .. P-2).

    Index ``deals`` = ``all``, ``under``, ``over``. Columns: ``n_last``, ``rate_last`` (success
    rate, with ``rate_last_ci_low/high``), ``mean_last`` (mean score, with CI), the same for
    ``other``, and ``cost = mean_other - mean_last`` in game points per deal with
    ``cost_ci_low``/``cost_ci_high`` (normal interval of a difference of independent means;
    positive = being hooked costs points).
    """
    t, cube = _players(data)
    last = t.players - 1
    rows = {}
    for name, sel in (("all", None), ("under", 0), ("over", 1)):
        c = cube if sel is None else cube[cube["over"] == sel]
        row = {}
        for who, mask in (("last", c["position"] == last),
                          ("other", (c["position"] > 0) & (c["position"] < last))):
            part = c[mask]
            n = part["n"].to_numpy(np.int64)
            s = part["score"].to_numpy(np.int64)
            made = int((n * _made(part)).sum())
            tot_n, tot, sq = int(n.sum()), int((n * s).sum()), int((n * s * s).sum())
            lo, hi = wilson_interval(made, tot_n)
            mean, sd, mlo, mhi = mean_interval_from_sums(tot_n, tot, sq)
            row.update({
                f"n_{who}": tot_n,
                f"rate_{who}": made / tot_n if tot_n else np.nan,
                f"rate_{who}_ci_low": lo, f"rate_{who}_ci_high": hi,
                f"mean_{who}": mean, f"mean_{who}_ci_low": mlo, f"mean_{who}_ci_high": mhi,
                f"_se_{who}": sd / np.sqrt(tot_n) if tot_n > 1 else np.nan,
            })
        d, lo, hi = diff_interval(row["mean_other"], row["_se_other"], row["mean_last"],
                                  row["_se_last"])
        row.update({"cost": d, "cost_ci_low": lo, "cost_ci_high": hi})
        del row["_se_last"], row["_se_other"]
        rows[name] = row
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index.name = "deals"
    return out


# --------------------------------------------------------------------------- zero bids


def _non_declarers(cube: pd.DataFrame) -> pd.DataFrame:
    return cube[cube["position"] > 0]


def zero_bids(data: Data, by: By = "position") -> pd.DataFrame:
    """How often a zero contract is bid, among non-declarers (the declarer's contract is at least
    his auction level, RULES §4), by group (``by`` as in :func:`contract_success`; typically
    ``"position"``, ``"over"`` or both).

    Columns: ``n`` (non-declarer contracts), ``zeros``, ``rate`` (= zeros / n), ``ci_low``,
    ``ci_high``.
    """
    t, cube = _players(data)
    cube = _non_declarers(cube)
    g = _sums(cube, _keys(by), t, {"zeros": (cube["contract"].to_numpy() == 0).astype(np.int64)})
    return _finish(g.index, {"n": g["n"].to_numpy(), "zeros": g["zeros"].to_numpy(),
                             **_rate_columns(g["zeros"], g["n"])})


def zero_success(data: Data, by: By = "over") -> pd.DataFrame:
    """Success of zero contracts (no trick taken, RULES §6) by group (default: over vs. under).

    Columns: ``n`` (zero bids), ``made``, ``rate``, ``ci_low``, ``ci_high``, and ``score_mean``
    (game points per zero bid) with ``score_mean_ci_low``/``score_mean_ci_high``.
    """
    t, cube = _players(data)
    cube = cube[cube["contract"] == 0]
    g = _sums(cube, _keys(by), t, {"made": _made(cube), "score": cube["score"].to_numpy(np.int64)},
              squares=("score",))
    cols = {"n": g["n"].to_numpy(), "made": g["made"].to_numpy(),
            **_rate_columns(g["made"], g["n"]),
            **_mean_columns(g["n"], g["score"], g["score_sq"], name="score_mean", main=False)}
    return _finish(g.index, cols)


def _band_labels(edges: Sequence[int]) -> list[str]:
    labels = []
    for i, lo in enumerate(edges):
        if i + 1 < len(edges):
            hi = edges[i + 1] - 1
            labels.append(str(lo) if hi == lo else f"{lo}-{hi}")
        else:
            labels.append(f"{lo}+")
    return labels


def zero_value_by_hcp(data: Data, bands: Sequence[int] = DEFAULT_HCP_BANDS) -> pd.DataFrame:
    """Mean score of zero bids vs. non-zero bids on comparable hands, by high-card-point band.

    Non-declarers only (they are the ones who choose between zero and a number). HCP: A=4, K=3,
    Q=2, J=1 of the hand at the start of play. ``bands``: increasing lower edges of the bands, the
    first 0 (default ``0, 3, 5, 7, 9, 11, 13``: bands ``0-2, 3-4, ..., 13+``). Index ``hcp_band``
    (labels, in order). Columns: ``n_zero``, ``mean_zero`` (+ ``mean_zero_ci_low/high``),
    ``n_nonzero``, ``mean_nonzero`` (+ CI), ``diff = mean_zero - mean_nonzero`` (+ CI, normal
    interval of a difference of independent means). Scores in game points per deal.
    """
    edges = [int(b) for b in bands]
    if not edges or edges[0] != 0 or any(b <= a for a, b in zip(edges, edges[1:], strict=False)):
        raise ReportError(f"hcp bands must be increasing lower edges starting at 0, got {edges}")
    t = as_tally(data)
    cube = _non_declarers(t.hand_counts)
    labels = _band_labels(edges)
    band = np.searchsorted(np.asarray(edges), cube["hcp"].to_numpy(), side="right") - 1
    n = cube["n"].to_numpy(np.int64)
    s = cube["score"].to_numpy(np.int64)
    zero = cube["contract"].to_numpy() == 0
    frame = pd.DataFrame({"band": band, "zero": zero, "n": n, "s": n * s, "sq": n * s * s})
    g = frame.groupby(["band", "zero"]).sum()
    full = pd.MultiIndex.from_product([range(len(edges)), [True, False]], names=["band", "zero"])
    g = g.reindex(full, fill_value=0)
    out: dict[str, np.ndarray] = {}
    se = {}
    for flag, name in ((True, "zero"), (False, "nonzero")):
        part = g.xs(flag, level="zero")
        mean, sd, lo, hi = mean_interval_from_sums(part["n"].to_numpy(), part["s"].to_numpy(),
                                                   part["sq"].to_numpy())
        out[f"n_{name}"] = part["n"].to_numpy()
        out[f"mean_{name}"] = mean
        out[f"mean_{name}_ci_low"] = lo
        out[f"mean_{name}_ci_high"] = hi
        with np.errstate(invalid="ignore", divide="ignore"):
            se[name] = sd / np.sqrt(part["n"].to_numpy())
    d, lo, hi = diff_interval(out["mean_zero"], se["zero"], out["mean_nonzero"], se["nonzero"])
    out.update({"diff": d, "diff_ci_low": lo, "diff_ci_high": hi})
    index = pd.CategoricalIndex(labels, categories=labels, ordered=True, name="hcp_band")
    return _finish(index, out)


def failed_zero_outcomes(data: Data) -> pd.DataFrame:
    """What failed zero contracts cost: tricks taken ``1``, ``2``, ``3+`` (index ``tricks``).

    Columns: ``n`` (failed zero bids), ``share`` of failed zeros with ``ci_low``/``ci_high``, and
    ``score_mean`` (game points, RULES §6: -50, -40, -30 ... by default).
    """
    _, cube = _players(data)
    cube = cube[(cube["contract"] == 0) & (cube["tricks"] > 0)]
    labels = ["1", "2", "3+"]
    bucket = np.minimum(cube["tricks"].to_numpy(), 3) - 1
    n = cube["n"].to_numpy(np.int64)
    frame = pd.DataFrame({"b": bucket, "n": n, "s": n * cube["score"].to_numpy(np.int64)})
    g = frame.groupby("b").sum().reindex(range(3), fill_value=0)
    out = _distribution(pd.Series(g["n"].to_numpy(), index=pd.Index(labels, name="tricks")))
    with np.errstate(invalid="ignore", divide="ignore"):
        out["score_mean"] = g["s"].to_numpy() / np.where(g["n"] > 0, g["n"], np.nan)
    return out


# --------------------------------------------------------------------------- auction and Frisch


def strain_distribution(data: Data) -> pd.DataFrame:
    """Trump strain of played deals (index ``trump``: C D H S NT). Columns: ``n`` (deals),
    ``share`` with ``ci_low``/``ci_high``."""
    _, deals = _deals(data)
    played = deals[deals["thrown_in"] == 0]
    counts = played.groupby("trump")["n"].sum().reindex(range(len(STRAINS)), fill_value=0)
    counts.index = pd.CategoricalIndex(list(STRAINS), dtype=_TRUMP_TYPE, name="trump")
    return _distribution(counts)


def level_distribution(data: Data) -> pd.DataFrame:
    """Auction level of the winning bid over played deals (index ``level``). Columns: ``n``
    (deals), ``share`` with ``ci_low``/``ci_high``."""
    _, deals = _deals(data)
    played = deals[deals["thrown_in"] == 0]
    return _distribution(played.groupby("level", sort=True)["n"].sum())


def frisch_distribution(data: Data) -> pd.DataFrame:
    """Number of Frisches per deal (index ``frisch``, 0..3, RULES §3) over all deals.

    Columns: ``n`` (deals), ``share`` of all deals with ``ci_low``/``ci_high``, ``thrown_in``
    (deals thrown in after that many Frisches) and ``thrown_in_share`` of all deals with its CI.
    """
    t, deals = _deals(data)
    g = deals.groupby("frisch", sort=True)
    counts = g["n"].sum().reindex(range(4), fill_value=0)
    thrown = deals[deals["thrown_in"] == 1].groupby("frisch")["n"].sum()
    thrown = thrown.reindex(range(4), fill_value=0)
    out = _distribution(counts)
    out.index.name = "frisch"
    out["thrown_in"] = thrown.to_numpy()
    total = pd.Series(np.full(4, int(counts.sum())), index=out.index)
    for k, v in _rate_columns(thrown.set_axis(out.index), total, prefix="thrown_in_share_").items():
        out[k] = v
    return out


def frisch_effect(data: Data) -> pd.DataFrame:
    """How Frisch changes the auction and the play, by number of Frisches (index ``frisch``).

    Columns: ``deals``, ``played``, ``level_mean`` (+ CI) of the winning bid, ``declarer_rate``
    (declarer's success, + CI), ``player_rate`` (all players' success, + CI), ``over_share``
    (share of over deals among played, + CI).
    """
    t = as_tally(data)
    deals = t.deal_counts
    n = deals["n"].to_numpy(np.int64)
    lv = deals["level"].to_numpy(np.int64)
    played = deals["thrown_in"].to_numpy() == 0
    frame = pd.DataFrame({
        "frisch": deals["frisch"].to_numpy(), "deals": n, "played": n * played,
        "over": n * (played & (deals["over"].to_numpy() == 1)),
        "lv": n * lv * played, "lv_sq": n * lv * lv * played,
    })
    g = frame.groupby("frisch").sum().reindex(range(4), fill_value=0)
    g.index.name = "frisch"
    cube = t.player_counts
    pn = cube["n"].to_numpy(np.int64)
    made = pn * _made(cube)
    decl = cube["position"].to_numpy() == 0
    pf = pd.DataFrame({"frisch": cube["frisch"].to_numpy(), "n": pn, "made": made,
                       "dn": pn * decl, "dmade": made * decl})
    p = pf.groupby("frisch").sum().reindex(range(4), fill_value=0)
    out = {"deals": g["deals"].to_numpy(), "played": g["played"].to_numpy()}
    out.update(_mean_columns(g["played"], g["lv"], g["lv_sq"], name="level_mean", main=False))
    out.update(_rate_columns(p["dmade"], p["dn"], prefix="declarer_rate_"))
    out.update(_rate_columns(p["made"], p["n"], prefix="player_rate_"))
    out.update(_rate_columns(g["over"], g["played"], prefix="over_share_"))
    return _finish(g.index, out)


# --------------------------------------------------------------------------- calibration


def contract_vs_tricks(data: Data, normalize: bool = False) -> pd.DataFrame:
    """Contract (rows, index ``contract``) against tricks actually taken (columns ``0..N``).

    Counts of players over played deals; ``normalize=True`` gives each row as fractions of that
    contract's players (rows sum to 1). The diagonal is the made contracts.
    """
    t, cube = _players(data)
    tab = cube.pivot_table(index="contract", columns="tricks", values="n", aggfunc="sum",
                           fill_value=0)
    tab = tab.reindex(columns=range(t.n_tricks + 1), fill_value=0).astype(np.int64)
    tab.columns.name = "tricks"
    if normalize:
        return tab.div(tab.sum(axis=1), axis=0)
    return tab


def calibration_error(data: Data, by: By = "policy") -> pd.DataFrame:
    """How far tricks taken land from the contract, by group (default: by the seat's policy).

    Columns: ``n`` (players), ``mae`` = mean ``|tricks - contract|`` (tricks per deal) with
    ``ci_low``/``ci_high``, and ``bias`` = mean ``tricks - contract`` (positive = more tricks than
    bid) with ``bias_ci_low``/``bias_ci_high``.
    """
    t, cube = _players(data)
    err = cube["tricks"].to_numpy(np.int64) - cube["contract"].to_numpy(np.int64)
    g = _sums(cube, _keys(by), t, {"abs": np.abs(err), "err": err}, squares=("abs", "err"))
    cols = {"n": g["n"].to_numpy()}
    m = _mean_columns(g["n"], g["abs"], g["abs_sq"], name="mae")
    m.pop("sd")
    cols.update(m)
    cols.update(_mean_columns(g["n"], g["err"], g["err_sq"], name="bias", main=False))
    return _finish(g.index, cols)


# --------------------------------------------------------------------------- headline


def summary(data: Data) -> pd.DataFrame:
    """Headline numbers of a dataset, one row per metric (index ``metric``).

    Columns: ``value`` (a fraction for rates and shares, game points for scores), ``ci_low``,
    ``ci_high``, ``n`` (the observations behind it), ``unit`` (``share``, ``points``, ``count``).
    """
    t = as_tally(data)
    rows: dict[str, tuple] = {}
    deals = t.deal_counts
    thrown = int(deals.loc[deals["thrown_in"] == 1, "n"].sum())
    rows["deals"] = (t.n_deals, np.nan, np.nan, t.n_deals, "count")
    lo, hi = wilson_interval(thrown, t.n_deals)
    rows["thrown-in deals"] = (thrown / t.n_deals if t.n_deals else np.nan, lo, hi, t.n_deals,
                               "share")
    ou = over_under(t)
    rows["over deals (of played)"] = (ou.loc[True, "share"], ou.loc[True, "ci_low"],
                                      ou.loc[True, "ci_high"], int(ou["n"].sum()), "share")
    role = contract_success(t, by="role")
    for r, label in (("declarer", "declarer makes contract"), ("other", "others make contract")):
        if r in role.index:
            x = role.loc[r]
            rows[label] = (x["rate"], x["ci_low"], x["ci_high"], int(x["n"]), "share")
    allp = contract_success(t, by="over")
    made, n = int(allp["made"].sum()), int(allp["n"].sum())
    lo, hi = wilson_interval(made, n)
    rows["any player makes contract"] = (made / n if n else np.nan, lo, hi, n, "share")
    z = zero_bids(t, by="over")
    zn, zz = int(z["n"].sum()), int(z["zeros"].sum())
    lo, hi = wilson_interval(zz, zn)
    rows["zero bids (of non-declarer contracts)"] = (zz / zn if zn else np.nan, lo, hi, zn, "share")
    zs = zero_success(t, by="role")
    zs_n, zs_m = int(zs["n"].sum()), int(zs["made"].sum())
    lo, hi = wilson_interval(zs_m, zs_n)
    rows["zero bids made"] = (zs_m / zs_n if zs_n else np.nan, lo, hi, zs_n, "share")
    hc = hooked_cost(t).loc["all"]
    rows["cost of being hooked (points/deal)"] = (hc["cost"], hc["cost_ci_low"],
                                                  hc["cost_ci_high"], int(hc["n_last"]), "points")
    sc = score_summary(t, by="role")
    for r in sc.index:
        x = sc.loc[r]
        rows[f"mean score, {r} (points/deal)"] = (x["mean"], x["ci_low"], x["ci_high"],
                                                  int(x["n"]), "points")
    out = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["value", "ci_low", "ci_high", "n", "unit"])
    out.index.name = "metric"
    return out



def play_headline(data: Data) -> pd.DataFrame:
    """The headline numbers that the card play moves, one row per metric (index ``metric``),
    columns as :func:`summary` (``value``, ``ci_low``, ``ci_high``, ``n``, ``unit``).

    Contracts made by role (the declarer; the other players with a contract above zero; zero
    bidders), by under and over deals, by everybody; the share of over deals and of zero bids
    (set by the bidding alone: equal under two play policies when the bidding is the same); mean
    score per player and deal by role and overall.
    """
    t, cube = _players(data)
    n = cube["n"].to_numpy(np.int64)
    made = _made(cube) * n
    score = cube["score"].to_numpy(np.int64)
    decl = cube["position"].to_numpy() == 0
    zero = (cube["contract"].to_numpy() == 0) & ~decl
    over = cube["over"].to_numpy() == 1
    rows: dict[str, tuple] = {}

    def share(label: str, mask: np.ndarray) -> None:
        k, m = int(n[mask].sum()), int(made[mask].sum())
        lo, hi = wilson_interval(m, k)
        rows[label] = (m / k if k else np.nan, lo, hi, k, "share")

    def mean(label: str, mask: np.ndarray) -> None:
        k = int(n[mask].sum())
        tot, sq = int((n * score)[mask].sum()), int((n * score * score)[mask].sum())
        m, _, lo, hi = mean_interval_from_sums(k, tot, sq)
        rows[label] = (m, lo, hi, k, "points")

    share("declarer makes contract", decl)
    share("others (contract above 0) make contract", ~decl & ~zero)
    share("zero bidders make contract", zero)
    share("contracts made in under deals", ~over)
    share("contracts made in over deals", over)
    share("any player makes contract", np.ones(len(n), dtype=bool))
    mean("mean score, declarer (points/deal)", decl)
    mean("mean score, others above 0 (points/deal)", ~decl & ~zero)
    mean("mean score, zero bidders (points/deal)", zero)
    mean("mean score, every player (points/deal)", np.ones(len(n), dtype=bool))
    played = int(n[decl].sum())
    k_over = int(n[decl & over].sum())
    lo, hi = wilson_interval(k_over, played)
    rows["over deals (of played; set by the bids)"] = (
        k_over / played if played else np.nan, lo, hi, played, "share")
    nd, nz = int(n[~decl].sum()), int(n[zero].sum())
    lo, hi = wilson_interval(nz, nd)
    rows["zero bids (of non-declarers; set by the bids)"] = (
        nz / nd if nd else np.nan, lo, hi, nd, "share")
    out = pd.DataFrame.from_dict(rows, orient="index",
                                 columns=["value", "ci_low", "ci_high", "n", "unit"])
    out.index.name = "metric"
    return out


def compare_summaries(datasets: Sequence[tuple[str, Data]]) -> pd.DataFrame:
    """The headline numbers of :func:`play_headline` side by side, one column per dataset, and
    the change from the first dataset to the last.

    ``datasets``: ``(label, data)`` pairs, at least two (for the play models: the same deals and
    bids under two play policies). Index ``metric``; columns ``n`` (observations of the first
    dataset), ``unit``, then per label ``<label>`` with ``<label>_ci_low`` / ``<label>_ci_high``,
    then ``change`` (last minus first; shares in percentage points as a fraction) with
    ``change_ci_low`` / ``change_ci_high``: a normal interval for two independent samples
    (shares: the binomial standard error; points: from the Student-t half-widths). On the same
    deals the two samples are positively correlated, so the interval is conservative.
    """
    if len(datasets) < 2:
        raise ReportError("compare_summaries needs at least two datasets")
    labels = [label for label, _ in datasets]
    if len(set(labels)) != len(labels) or {"n", "unit", "change"} & set(labels):
        raise ReportError(f"labels must be distinct and not n, unit or change, got {labels}")
    heads = [play_headline(data) for _, data in datasets]
    rows = list(heads[0].index)
    z = z_value(0.95)
    cols: dict[str, list] = {"n": list(heads[0]["n"]), "unit": list(heads[0]["unit"])}
    ses = []
    for label, h in zip(labels, heads, strict=True):
        h = h.reindex(rows)
        v = h["value"].to_numpy(float)
        cols[label] = list(v)
        cols[f"{label}_ci_low"] = list(h["ci_low"].to_numpy(float))
        cols[f"{label}_ci_high"] = list(h["ci_high"].to_numpy(float))
        k = h["n"].to_numpy(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            se_share = np.sqrt(v * (1.0 - v) / k)
        se_points = (h["ci_high"].to_numpy(float) - h["ci_low"].to_numpy(float)) / (2 * z)
        ses.append(np.where(h["unit"].to_numpy() == "share", se_share, se_points))
    first, last = labels[0], labels[-1]
    d, lo, hi = diff_interval(np.array(cols[last]), ses[-1], np.array(cols[first]), ses[0])
    cols["change"], cols["change_ci_low"], cols["change_ci_high"] = list(d), list(lo), list(hi)
    out = pd.DataFrame(cols, index=pd.Index(rows, name="metric"))
    out["n"] = out["n"].astype(np.int64)
    return out
