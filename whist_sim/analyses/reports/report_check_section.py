"""A dataset report checked against search: the headline numbers of the run beside those of a
check run (the first deals of the same run, same seed, rules and bidding, every seat playing a
searching policy; :mod:`whist_sim.analyses.answer_check`), and the zero bids made against both
fields.

:func:`check_headline` and :func:`zero_success_both` are the tables; :func:`check_section` the
report's section "Checked against search"; :func:`check_object` its JSON form (``check.json`` of
the default report). A headline number **holds** when the interval of its change (check minus
run; shares in percentage points, points per deal) contains 0: the conservative interval of
:func:`whist_sim.analyses.reports.tables.compare_summaries`, which treats the runs as independent
samples. In words (:mod:`whist_sim.analyses.answer_check`'s verdicts) a number that holds is
*not contradicted*, with the smallest change the check would have seen with 80 % power; one that
does not is *contradicted*. A headline number has no rival answer for the check to exclude, so it
is never *confirmed*. The check names its play with the ladder's measured edge over the run's
play, or as *another play* (:func:`whist_sim.analyses.answer_check.check_label`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from . import tables
from .items import Section, TableItem
from .tally import Tally, as_tally
from .wording import number_text

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
    out["verdict"] = [_verdict_text(h, lo, hi, unit) for h, lo, hi, unit in
                      zip(out["holds"], out["change_ci_low"], out["change_ci_high"], out["unit"],
                          strict=True)]
    return out


def _verdict_text(holds: bool, lo: float, hi: float, unit: str) -> str:
    """A headline number's verdict in words: *contradicted* (the check moves it clearly), else
    *not contradicted* with the smallest change the check would have seen (80 % power)."""
    from ...core.stats import z_value
    from ..answer_check import CONTRADICTED, NOT_CONTRADICTED, detectable_difference

    if not holds:
        return CONTRADICTED
    if math.isnan(lo) or math.isnan(hi):
        return NOT_CONTRADICTED
    seen = detectable_difference((hi - lo) / (2 * z_value(0.95)))
    size = (f"{number_text(100 * seen, 1)} percentage points" if unit == "share"
            else f"{number_text(seen, 1)} points")
    return f"{NOT_CONTRADICTED} (would have seen a change of {size})"


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
    verdict = (f"none of the {len(head)} headline numbers is contradicted (every change's "
               "interval contains 0)" if not changed
               else f"{len(changed)} of {len(head)} headline numbers are contradicted: "
               + "; ".join(changed))
    text = (
        f"The answers of this run (`{answer_label}` play, {t.n_deals:,} deals) checked against "
        f"search: the first {c.n_deals:,} deals of the same run (same seed, rules and bidding) "
        f"with every seat searching: {_check_name(t, check_label, answer_label)}. Change = "
        "check minus this run (shares in percentage points), with a 95 % interval that treats "
        "the runs as independent samples (conservative). A number is *contradicted* when that "
        "interval excludes 0 (the searching play moves it clearly), else *not contradicted*, "
        "with the smallest change the check would have seen (80 % power); a single number has "
        f"no rival answer to exclude, so none is *confirmed*. With every seat searching: "
        f"{verdict}."
    )
    return Section("Checked against search", text, (
        TableItem("check_headline", f"Headline numbers under {answer_label} play and with "
                  f"every seat playing {check_label}", head.drop(columns=["holds"])),
    ))


def _check_name(t: Tally, check_play: str, answer_label: str) -> str:
    """The check play named with the ladder's measured edge over the run's play, or as another
    play (:func:`whist_sim.analyses.answer_check.check_label`)."""
    from ..answer_check import check_label

    m = t.manifest or {}
    src = m.get("policies", m) if isinstance(m.get("policies", m), dict) else m
    plays = src.get("play") if isinstance(src, dict) else None
    answer = plays[0] if isinstance(plays, list) and len(set(plays)) == 1 else answer_label
    try:
        return check_label(check_play, str(answer))
    except Exception:  # noqa: BLE001  a play the registry does not know: name it as it is
        return f"another play, {check_play}"


def zero_table(answer: tables.Data, check: tuple[str, tables.Data], answer_label: str):
    """The "Zero bids" section's table of the zero bids made against the run's field and against
    searching opponents (a :class:`~whist_sim.analyses.reports.items.TableItem`)."""
    check_label, data = check
    table = zero_success_both(answer, data, answer_label, check_label)
    shown = {c: f"made_rate_{c}" for c in table.columns if not c.startswith("n_")}
    return TableItem(
        "zero_success_check", "Zero bids made in this run and with every seat searching",
        table.rename(columns=shown),
        f"share of the zero bids (non-declarers) made in this run, every seat playing "
        f"`{answer_label}`, and in the check run, its first {as_tally(data).n_deals:,} deals "
        f"with every seat playing `{check_label}` (the zero bidder searching too, not only his "
        "opponents); Wilson 95 % intervals")


def _num(v: Any) -> float | None:
    v = float(v)
    return None if math.isnan(v) else round(v, 6)


def check_object(answer: Tally, check: Tally, answer_label: str, check_label: str
                 ) -> dict[str, Any]:
    """The JSON ``check`` object of a report: ``play``, ``deals`` (the check run's), ``holds``
    (every headline number holds), ``verdict`` (``contradicted`` when a headline number is, else
    ``not contradicted``), ``headline`` (per metric: ``value``, ``check_value``, ``change``,
    ``change_ci``, ``holds``, ``verdict``) and ``zero_made`` (``under``, ``over``, ``all``: the
    made rate of zero bids against the run's field and against the check's, ``holds``: the
    Wilson intervals overlap)."""
    head = check_headline(answer, check, answer_label, check_label)
    a, c = head.columns[2], head.columns[5]
    zero = zero_success_both(answer, check, answer_label, check_label)
    za, zc = zero.columns[1], zero.columns[5]
    from ..answer_check import CONTRADICTED, NOT_CONTRADICTED

    return {
        "play": check_label,
        "deals": int(check.n_deals),
        "holds": bool(head["holds"].all()),
        "verdict": NOT_CONTRADICTED if bool(head["holds"].all()) else CONTRADICTED,
        "headline": {m: {"value": _num(r[a]), "check_value": _num(r[c]),
                         "change": _num(r["change"]),
                         "change_ci": [_num(r["change_ci_low"]), _num(r["change_ci_high"])],
                         "holds": bool(r["holds"]),
                         "verdict": NOT_CONTRADICTED if r["holds"] else CONTRADICTED}
                     for m, r in head.iterrows()},
        "zero_made": {k: {"value": _num(r[za]), "check_value": _num(r[zc]),
                          "zero_bids": int(r[zero.columns[0]]),
                          "check_zero_bids": int(r[zero.columns[4]]),
                          "holds": not (r[f"{za}_ci_high"] < r[f"{zc}_ci_low"]
                                        or r[f"{zc}_ci_high"] < r[f"{za}_ci_low"])}
                      for k, r in zero.iterrows()},
    }
