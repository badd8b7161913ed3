"""An advice checked against search: the recommended bid recomputed under a stronger play.

:func:`check_advice` plays the answer's strongest candidates again under the check play (a
searching policy, ``rollout:n=16`` by default; :mod:`whist_sim.analyses.check`) on the first
:func:`~whist_sim.analyses.check.check_deals` of the advice's sampled deals (the same deals: sampled
deal ``j`` uses the stream ``(seed, j)`` whatever the play) and sets the two side by side in an
:class:`AdviceCheck`: the recommended bid and its expected score under both plays, whether the
advice holds (:func:`whist_sim.analyses.check.bid_holds`), and the made rate of the zero bid against
the answer's field and against searching opponents.

Screening (as a searching ``--play`` does): the answer already ranks every candidate under its own
play, so the check searches only the :data:`CHECK_KEEP` best of the recommended strain, the best
contract of every other strain (auction mode) and the zero bid when it is a candidate. Scores are
points (RULES §6); intervals have the advice's coverage and are paired over the common deals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...core.cards import STRAINS
from ..check import bid_holds, check_deals
from .cells import json_number, pct_cell
from .sampling import Inference, RunResult, run_scenario
from .scenario import Scenario

__all__ = ["CHECK_KEEP", "AdviceCheck", "check_advice", "check_candidates"]

#: candidates of the recommended strain that the check searches (the answer's best by EV)
CHECK_KEEP = 3


@dataclass(frozen=True)
class AdviceCheck:
    """The check of an advice under ``play`` on its first ``deals`` sampled deals.

    ``bids``: one row per searched candidate, ``(strain, bid, ev_answer, ev_check, p_make_answer,
    p_make_check)``: the expected score (points) and made rate under the answer's play and under
    the check play, both on the check's deals. ``recommended``: the check's best bid in the
    answer's recommended strain (auction mode: ``best_call`` / ``best_strain`` over every strain);
    ``diff`` / ``diff_ci``: the check's expected score of its best bid minus the answer's
    recommended bid, paired (0 and ``None`` when they agree). ``holds``: :func:`bid_holds`.
    ``zero``: with the zero bid among the candidates, its made rate against the answer's field
    (``p_make_answer``, on every sampled deal of the advice) and against searching opponents
    (``p_make_check``, on the check's deals), else ``None``.
    """

    play: str
    deals: int
    answer_play: str
    answer_bid: int
    answer_strain: str
    recommended: int
    strain: str
    best_call: str | None
    diff: float
    diff_ci: tuple[float, float] | None
    holds: bool
    bids: list[dict[str, Any]]
    zero: dict[str, Any] | None

    @property
    def same_bid(self) -> bool:
        return self.recommended == self.answer_bid and self.strain == self.answer_strain

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``check`` object (docs/ADVISOR.md)."""
        return {
            "play": self.play,
            "deals": self.deals,
            "holds": self.holds,
            "recommended": self.recommended,
            "strain": self.strain,
            "best_call": self.best_call,
            "same_bid": self.same_bid,
            "diff": json_number(self.diff),
            "diff_ci": (None if self.diff_ci is None
                        else [json_number(x) for x in self.diff_ci]),
            "bids": [{k: (json_number(v) if isinstance(v, float) else v) for k, v in r.items()}
                     for r in self.bids],
            "zero": (None if self.zero is None else
                     {k: (json_number(v) if isinstance(v, float) else v)
                      for k, v in self.zero.items()}),
        }

    def lines(self, answer_play: str, auction: bool) -> list[str]:
        """The check as text (the end of ``whist-sim advise``'s output)."""
        w = max(len(answer_play), len(self.play), 8)
        out = ["", f"checked against search: {self.play} on the first {self.deals:,} sampled "
               f"deals, beside {answer_play} on the same deals"]
        out.append(f"  {'bid':>5}  {'E[score]':>{w}} {'':>{w}}  {'P(make)':>{w}} {'':>{w}}")
        out.append(f"  {'':>5}  {answer_play:>{w}} {self.play:>{w}}  {answer_play:>{w}} "
                   f"{self.play:>{w}}")
        for r in self.bids:
            label = f"{r['bid']}{r['strain']}" if auction else str(r["bid"])
            mark = " <" if (r["bid"], r["strain"]) == (self.answer_bid, self.answer_strain) else ""
            out.append(f"  {label:>5}  {r['ev_answer']:{w}.1f} {r['ev_check']:{w}.1f}  "
                       f"{pct_cell(r['p_make_answer']).strip():>{w}} "
                       f"{pct_cell(r['p_make_check']).strip():>{w}}{mark}")
        ans = f"{self.answer_bid}{self.answer_strain}" if auction else str(self.answer_bid)
        chk = f"{self.recommended}{self.strain}" if auction else str(self.recommended)
        if self.same_bid:
            out.append(f"{self.play} recommends the same bid, {ans}: the advice holds")
        else:
            ci = ("" if self.diff_ci is None else
                  f", CI [{self.diff_ci[0]:+.1f}, {self.diff_ci[1]:+.1f}]")
            verdict = ("not clearly better: the advice holds" if self.holds
                       else "the advice does not hold under stronger play")
            out.append(f"{self.play} recommends {chk} instead of {ans} ({self.diff:+.1f} points"
                       f"{ci}, paired): {verdict}")
        if self.zero is not None:
            z = self.zero
            out.append(f"zero bid made: {pct_cell(z['p_make_answer']).strip()} against "
                       f"{answer_play} players ({z['deals_answer']:,} deals), "
                       f"{pct_cell(z['p_make_check']).strip()} against searching {self.play} "
                       f"players ({z['deals_check']:,} deals)")
        return out


def check_candidates(scen: Scenario, ev: np.ndarray, best_strain: int,
                     keep: int = CHECK_KEEP) -> np.ndarray:
    """Indices (ascending) of the candidates a check searches: the ``keep`` best expected scores
    ``ev`` (the answer's, points; ties: the lower bid) of strain ``best_strain``, the best of every
    other strain, and the zero bid when it is a candidate."""
    strains = np.array([c[0] for c in scen.candidates])
    chosen: set[int] = set()
    for t in np.unique(strains):
        rows = np.flatnonzero(strains == t)
        order = sorted(rows, key=lambda i: (-ev[i], scen.candidates[i][1]))
        chosen.update(int(i) for i in order[:keep if t == best_strain else 1])
    chosen.update(i for i, c in enumerate(scen.candidates) if c[1] == 0)
    return np.array(sorted(chosen), dtype=np.int64)


def _best(ev: np.ndarray, cands: list[tuple[int, int]]) -> int:
    """Index of the highest value (ties: the lower bid, then the earlier strain)."""
    return min(range(len(ev)), key=lambda i: (-ev[i], cands[i][1], cands[i][0]))


def check_advice(scen: Scenario, run: RunResult, ev: np.ndarray, answer_index: int,
                 seed: int, answer_play: str, play: str, bid_policy: str, infer: Inference,
                 threads: int, confidence: float,
                 on_deals: Callable[[int], None] | None = None,
                 deals: int | None = None) -> AdviceCheck:
    """Check the advice whose run (every candidate under ``answer_play``) is ``run``, expected
    scores ``ev`` (points, a searched-out candidate ``-inf``) and recommended candidate index
    ``answer_index``: search the :func:`check_candidates` under ``play`` on the first ``deals``
    sampled deals (default :func:`~whist_sim.analyses.check.check_deals` of the advice's)."""
    from ...core.stats import mean_interval

    n_answer = int(run.tricks.shape[1])
    m = check_deals(n_answer) if deals is None else min(int(deals), n_answer)
    best_strain = scen.candidates[answer_index][0]
    rows = check_candidates(scen, ev, best_strain)
    if answer_index not in rows:  # the answer's own bid is always searched
        rows = np.array(sorted({*rows.tolist(), answer_index}), dtype=np.int64)
    cands = [scen.candidates[i] for i in rows]
    sub = replace(scen, candidates=tuple(cands))
    checked = run_scenario(sub, m, seed, play, bid_policy, infer, threads, on_deals)
    # the same deals: the check's deal j is the advice's deal j (stream (seed, j))
    bids = np.array([c[1] for c in cands])
    tricks_c = checked.tricks.astype(np.int64)
    score_c = checked.score.astype(np.int64)
    tricks_a = run.tricks[rows, :m].astype(np.int64)
    score_a = run.score[rows, :m].astype(np.int64)
    ev_c = score_c.mean(axis=1)
    table = []
    for k, (t, b) in enumerate(cands):
        table.append({
            "strain": STRAINS[t], "bid": int(b),
            "ev_answer": float(score_a[k].mean()), "ev_check": float(ev_c[k]),
            "p_make_answer": float((tricks_a[k] == b).mean()),
            "p_make_check": float((tricks_c[k] == b).mean()),
        })
    auction = scen.mode == "auction"
    if auction:  # the check's best call: its best contract over every strain
        top = _best(ev_c, cands)
        best_call = "pass" if ev_c[top] < 0 else f"{scen.level}{STRAINS[cands[top][0]]}"
    else:
        top = _best(ev_c, cands)
        best_call = None
    a = int(np.flatnonzero(rows == answer_index)[0])
    diff, diff_ci = 0.0, None
    if top != a:
        d = score_c[top] - score_c[a]
        diff = float(d.mean())
        if m > 1:
            _mean, _sd, lo, hi = mean_interval(d, confidence)
            diff_ci = (float(lo), float(hi))
    answer_bid = int(scen.candidates[answer_index][1])
    zero = None
    z = [k for k, c in enumerate(cands) if c[1] == 0]
    if z:
        k = z[0]
        zero = {
            "p_make_answer": float((run.tricks[rows[k]] == 0).mean()),
            "deals_answer": n_answer,
            "p_make_check": table[k]["p_make_check"],
            "deals_check": m,
        }
    return AdviceCheck(
        play=play, deals=m, answer_play=answer_play, answer_bid=answer_bid,
        answer_strain=STRAINS[best_strain], recommended=int(bids[top]),
        strain=STRAINS[cands[top][0]], best_call=best_call, diff=diff, diff_ci=diff_ci,
        holds=bid_holds(cands[a], cands[top], diff_ci),
        bids=table, zero=zero)
