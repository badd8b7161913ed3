"""A dataset report checked against search: the headline numbers of the run beside those of a
check run (the first deals of the same run, same seed, rules and bidding, every seat playing a
searching policy; :mod:`whist_sim.analyses.answer_check`), and the zero bids made against both
fields.

:func:`check_headline` and :func:`zero_success_both` are the tables; :func:`check_section` the
report's section "Checked against search"; :func:`check_object` its JSON form (``check.json`` of
the default report). A headline number **holds** when the interval of its change (check minus
run; shares in percentage points, points per deal) contains 0: the conservative interval of
:func:`whist_sim.analyses.reports.tables.compare_summaries`, which treats the runs as independent
samples.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from . import tables
from .items import Section, TableItem
from .tally import Tally, as_tally

__all__ = ["check_headline", "check_object", "check_section", "zero_success_both", "zero_table"]


def _holds(lo: float, hi: float) -> bool:
    """A change holds when its interval contains 0 (or cannot be computed)."""
    if math.isnan(lo) or math.isnan(hi):
        return True
    return bool(lo <= 0.0 <= hi)


def check_headline(answer: tables.Data, check: tables.Data, answer_label: str,
                   check_label: str) -> pd.DataFrame:
    """The headline numbers (:func:`whist_sim.analyses.reports.tables.play_headline`) of ``answer``
    and ``check`` side by side (:func:`~whist_sim.analyses.reports.tables.compare_summaries`, the
    run first), with ``holds``: the change's interval contains 0."""
    if answer_label == check_label:
        check_label = f"{check_label} (check)"
    out = tables.compare_summaries([(answer_label, answer), (check_label, check)])
    out["holds"] = [_holds(lo, hi) for lo, hi in
                    zip(out["change_ci_low"], out["change_ci_high"], strict=True)]
    return out


def zero_success_both(answer: tables.Data, check: tables.Data, answer_label: str,
                      check_label: str) -> pd.DataFrame:
    """Zero bids made against the run's field and against searching opponents (the check run),
    by under and over deals and overall: index ``deals`` (``under``, ``over``, ``all``); per
    label ``n_<label>`` (zero bids), ``<label>`` (made rate) with ``<label>_ci_low`` /
    ``<label>_ci_high`` (Wilson)."""
    from ...core.stats import wilson_interval

    if answer_label == check_label:
        check_label = f"{check_label} (check)"
    cols: dict[str, list[Any]] = {}
    for label, data in ((answer_label, answer), (check_label, check)):
        z = tables.zero_success(data, "over")
        n = {int(k): int(v) for k, v in z["n"].items()}
        made = {int(k): int(v) for k, v in z["made"].items()}
        ns = [n.get(0, 0), n.get(1, 0), sum(n.values())]
        ms = [made.get(0, 0), made.get(1, 0), sum(made.values())]
        rate = [m / k if k else np.nan for m, k in zip(ms, ns, strict=True)]
        lo, hi = wilson_interval(np.array(ms), np.array(ns))
        cols[f"n_{label}"] = ns
        cols[label] = rate
        cols[f"{label}_ci_low"] = list(np.atleast_1d(lo))
        cols[f"{label}_ci_high"] = list(np.atleast_1d(hi))
    return pd.DataFrame(cols, index=pd.Index(["under", "over", "all"], name="deals"))


def check_section(answer: tables.Data, check: tuple[str, tables.Data], answer_label: str):
    """The report's section "Checked against search" (a :class:`~whist_sim.analyses.reports.items.
    Section`): the headline numbers of the run and the check side by side with ``holds`` (the
    zero bids made against both fields are in the section "Zero bids": :func:`zero_table`)."""
    check_label, data = check
    c = as_tally(data)
    t = as_tally(answer)
    head = check_headline(t, c, answer_label, check_label)
    changed = [m for m, h in head["holds"].items() if not h]
    verdict = ("every headline number holds (its change's interval contains 0)" if not changed
               else f"{len(changed)} of {len(head)} headline numbers do not hold: "
               + "; ".join(changed))
    text = (
        f"The answers of this run (`{answer_label}` play, {t.n_deals:,} deals) checked against "
        f"search: the first {c.n_deals:,} deals of the same run (same seed, rules and bidding) "
        f"with every seat playing `{check_label}`. Change = check minus this run (shares in "
        "percentage points), with a 95 % interval that treats the runs as independent samples "
        "(conservative); a number holds when that interval contains 0. Under stronger play: "
        f"{verdict}."
    )
    return Section("Checked against search", text, (
        TableItem("check_headline", f"Headline numbers under {answer_label} and {check_label} "
                  "play", head),
    ))


def zero_table(answer: tables.Data, check: tuple[str, tables.Data], answer_label: str):
    """The "Zero bids" section's table of the zero bids made against the run's field and against
    searching opponents (a :class:`~whist_sim.analyses.reports.items.TableItem`)."""
    check_label, data = check
    return TableItem(
        "zero_success_check", "Zero bids made against the default field and against searching "
        "opponents", zero_success_both(answer, data, answer_label, check_label),
        f"made rate of the zero bids (non-declarers) against `{answer_label}` players (this run) "
        f"and against searching `{check_label}` players (the check run: its first "
        f"{as_tally(data).n_deals:,} deals, every seat searching), Wilson 95 % intervals")


def _num(v: Any) -> float | None:
    v = float(v)
    return None if math.isnan(v) else round(v, 6)


def check_object(answer: Tally, check: Tally, answer_label: str, check_label: str
                 ) -> dict[str, Any]:
    """The JSON ``check`` object of a report: ``play``, ``deals`` (the check run's), ``holds``
    (every headline number holds), ``headline`` (per metric: ``value``, ``check_value``,
    ``change``, ``change_ci``, ``holds``) and ``zero_made`` (``under``, ``over``, ``all``: the
    made rate of zero bids against the run's field and against the check's, ``holds``: the
    Wilson intervals overlap)."""
    head = check_headline(answer, check, answer_label, check_label)
    a, c = head.columns[2], head.columns[5]
    zero = zero_success_both(answer, check, answer_label, check_label)
    za, zc = zero.columns[1], zero.columns[5]
    return {
        "play": check_label,
        "deals": int(check.n_deals),
        "holds": bool(head["holds"].all()),
        "headline": {m: {"value": _num(r[a]), "check_value": _num(r[c]),
                         "change": _num(r["change"]),
                         "change_ci": [_num(r["change_ci_low"]), _num(r["change_ci_high"])],
                         "holds": bool(r["holds"])}
                     for m, r in head.iterrows()},
        "zero_made": {k: {"value": _num(r[za]), "check_value": _num(r[zc]),
                          "zero_bids": int(r[zero.columns[0]]),
                          "check_zero_bids": int(r[zero.columns[4]]),
                          "holds": not (r[f"{za}_ci_high"] < r[f"{zc}_ci_low"]
                                        or r[f"{zc}_ci_high"] < r[f"{za}_ci_low"])}
                      for k, r in zero.iterrows()},
    }
