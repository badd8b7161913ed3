"""An advice checked against search: the recommended bid recomputed under another play.

:func:`check_advice` plays the answer's strongest candidates again under the check play (by
default the search over the answer's play,
:data:`whist_sim.analyses.answer_check.DEFAULT_CHECK_PLAY`) on the first deals of the advice's
sampled deals (the same deals: sampled deal ``j`` uses the stream ``(seed, j)`` whatever the
play) and sets the two side by side in an
:class:`AdviceCheck`: the check's own estimates beside the answer's, and the check's
**verdict** (:func:`whist_sim.analyses.answer_check.bid_verdict`): *confirmed* (the same best bid,
the runner-up excluded), *not contradicted* (the check cannot tell; it says how large a
difference it would have seen) or *contradicted* (it clearly prefers another bid, or reverses
the top two).

Size: unless given, the check plays enough deals to see a difference of
:data:`~whist_sim.analyses.answer_check.TARGET_DIFFERENCE` points per deal between the answer's
top two bids with :data:`~whist_sim.analyses.answer_check.POWER` power
(:func:`advice_check_size`, from the spread of their paired difference in the answer's own
deals), at least
:data:`~whist_sim.analyses.answer_check.CHECK_MIN_DEALS` and at most :data:`CHECK_MAX_DEALS` or the
advice's deals; a capped check says so and how large a difference it can see.

Screening (as a searching ``--play`` does): the answer already ranks every candidate under its own
play, so the check searches only the :data:`CHECK_KEEP` best of the recommended strain, the best
contract of every other strain (auction mode) and the zero bid when it is a candidate. The zero
bid's made rate against searching opponents is measured with the zero bidder playing the
answer's play and only the other seats the check's. Scores are points (RULES §6); intervals have
the advice's coverage and are paired over the common deals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ...compiled.strategies.spec import PlaySpec, parse_play
from ...core.cards import STRAINS
from ..answer_check import (
    CHECK_MIN_DEALS,
    CONTRADICTED,
    Verdict,
    bid_verdict,
    check_label,
    deals_for_power,
)
from .cells import json_number, pct_cell
from .options import AdviseOptions
from .sampling import RunResult, run_scenario
from .scenario import Scenario

__all__ = ["CHECK_KEEP", "CHECK_MAX_DEALS", "AdviceCheck", "CheckSize", "advice_check_size",
           "check_advice", "check_candidates"]

#: candidates of the recommended strain that the check searches (the answer's best by EV)
CHECK_KEEP = 3
#: the most deals a check plays unless told (a searching play is several hundred times slower
#: than the answer's; at this size a first advice's check takes seconds on two cores)
CHECK_MAX_DEALS = 2000


@dataclass(frozen=True)
class CheckSize:
    """How many deals a check plays and why: ``deals``; ``wanted``: the deals that would see a
    difference of ``target`` points per deal between the top two bids with the check's power
    (None when there is no runner-up); ``capped``: fewer than wanted (the advice's deals, or
    :data:`CHECK_MAX_DEALS`); ``given``: the size was asked for (``--check-deals``)."""

    deals: int
    wanted: int | None
    capped: bool
    given: bool


def advice_check_size(run: RunResult, answer_index: int, runner_index: int | None,
                      deals: int | None = None) -> CheckSize:
    """The size of the check of an advice whose raw results are ``run`` (see the module doc):
    ``deals`` when given (at most the advice's), else the deals for 80 % power on the answer's
    top two (candidate indices ``answer_index``, ``runner_index``)."""
    from ..answer_check import TARGET_DIFFERENCE

    n = int(run.tricks.shape[1])
    if deals is not None:
        return CheckSize(min(int(deals), n), None, False, True)
    if runner_index is None or n < 2:
        return CheckSize(min(n, CHECK_MIN_DEALS), None, False, False)
    d = run.score[answer_index].astype(np.float64) - run.score[runner_index].astype(np.float64)
    wanted = deals_for_power(float(d.std(ddof=1)), TARGET_DIFFERENCE)
    cap = min(n, CHECK_MAX_DEALS)
    return CheckSize(min(cap, max(CHECK_MIN_DEALS, wanted)), wanted, wanted > cap, False)


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
    verdict: Verdict | None = None
    label: str = ""
    runner_up: int | None = None
    runner_strain: str | None = None
    order_diff: float | None = None
    order_ci: tuple[float, float] | None = None
    play_shift: float | None = None
    size: CheckSize | None = None

    @property
    def same_bid(self) -> bool:
        return self.recommended == self.answer_bid and self.strain == self.answer_strain

    def to_dict(self) -> dict[str, Any]:
        """The JSON ``check`` object (docs/ADVISOR.md)."""
        v = self.verdict
        return {
            "play": self.play,
            "label": self.label,
            "deals": self.deals,
            "verdict": None if v is None else v.word,
            "verdict_why": None if v is None else v.why,
            "detectable": None if v is None or v.detectable is None else json_number(
                v.detectable),
            "runner_up": self.runner_up,
            "order_diff": json_number(self.order_diff),
            "order_ci": (None if self.order_ci is None
                         else [json_number(x) for x in self.order_ci]),
            "play_shift": json_number(self.play_shift),
            "deals_wanted": None if self.size is None else self.size.wanted,
            "capped": None if self.size is None else self.size.capped,
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
        """The check as text (the end of ``whist-sim advise``'s output): its verdict in words
        first, then its own estimates beside the answer's."""
        def text(bid: int, strain: str | None) -> str:
            return f"{bid}{strain}" if auction and strain else str(bid)

        ans = text(self.answer_bid, self.answer_strain)
        out = [""]
        if self.verdict is not None:
            out.append(f"check: {self.verdict.word} ({self.verdict.why}).")
        out.append(f"checked against {self.label or self.play}: on the first {self.deals:,} "
                   f"sampled deals, beside {answer_play} on the same deals")
        if self.size is not None and self.size.capped:
            out.append(f"  (capped at {self.deals:,} deals: {self.size.wanted:,} would see a "
                       "difference of 2 points per deal between the top two bids 4 times in 5)")
        w = max(len(answer_play), 8)
        out.append(f"  {'bid':>5}  {'E[score]':>{w}} {'':>{w}}  {'P(make)':>{w}} {'':>{w}}")
        out.append(f"  {'':>5}  {answer_play:>{w}} {'check':>{w}}  {answer_play:>{w}} "
                   f"{'check':>{w}}")
        for r in self.bids:
            label = text(r["bid"], r["strain"])
            mark = " <" if (r["bid"], r["strain"]) == (self.answer_bid, self.answer_strain) else ""
            out.append(f"  {label:>5}  {r['ev_answer']:{w}.1f} {r['ev_check']:{w}.1f}  "
                       f"{pct_cell(r['p_make_answer']).strip():>{w}} "
                       f"{pct_cell(r['p_make_check']).strip():>{w}}{mark}")
        chk = text(self.recommended, self.strain)
        if self.same_bid:
            out.append(f"the check's best bid is the answer's, {ans}")
        else:
            ci = ("" if self.diff_ci is None else
                  f", CI [{self.diff_ci[0]:+.1f}, {self.diff_ci[1]:+.1f}]")
            out.append(f"the check's best bid is {chk}, not {ans} ({self.diff:+.1f} points per "
                       f"deal{ci}, paired)")
        if self.runner_up is not None and self.order_ci is not None:
            run = text(self.runner_up, self.runner_strain)
            out.append(f"under the check, {ans} minus the runner-up {run}: "
                       f"{self.order_diff:+.1f} points per deal, CI [{self.order_ci[0]:+.1f}, "
                       f"{self.order_ci[1]:+.1f}]")
        if self.zero is not None:
            z = self.zero
            out.append(f"zero bid made: {pct_cell(z['p_make_answer']).strip()} against "
                       f"{answer_play} players ({z['deals_answer']:,} deals), "
                       f"{pct_cell(z['p_make_check']).strip()} against searching opponents "
                       f"({self.play}; the zero bidder playing {answer_play}, "
                       f"{z['deals_check']:,} deals)")
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
                 answer: AdviseOptions, play: PlaySpec | str,
                 on_deals: Callable[[int], None] | None = None,
                 deals: int | None = None) -> AdviceCheck:
    """Check the advice whose run (every candidate under ``answer.play``, the options it was
    asked with: seed, seats, reading of the table, threads, confidence) is ``run``, expected
    scores ``ev`` (points, a searched-out candidate ``-inf``) and recommended candidate index
    ``answer_index``: search the :func:`check_candidates` under ``play`` (a play spec, or its
    text) on the first ``deals`` sampled deals (default :func:`advice_check_size`)."""
    from ...core.stats import mean_interval

    seed, bid_policy, infer = answer.seed, answer.bid_spec, answer.inference
    threads, confidence, answer_play = answer.threads, answer.confidence, answer.play_spec
    play = parse_play(play)

    n_answer = int(run.tricks.shape[1])
    runner_index = _runner_up(ev, scen.candidates, answer_index)
    size = advice_check_size(run, answer_index, runner_index, deals)
    m = size.deals
    best_strain = scen.candidates[answer_index][0]
    rows = check_candidates(scen, ev, best_strain)
    must = {answer_index} | ({runner_index} if runner_index is not None else set())
    rows = np.array(sorted({*rows.tolist(), *must}), dtype=np.int64)
    cands = [scen.candidates[i] for i in rows]
    sub = replace(scen, candidates=tuple(cands))
    checked = run_scenario(sub, m, seed, play, bid_policy, infer, threads, on_deals)
    # the same deals: the check's deal j is the advice's deal j (stream (seed, j))
    tricks_c = checked.tricks.astype(np.int64)
    score_c = checked.score.astype(np.int64)
    tricks_a = run.tricks[rows, :m].astype(np.int64)
    score_a = run.score[rows, :m].astype(np.int64)
    ev_c = score_c.mean(axis=1)
    table = []
    for k, (t, b) in enumerate(cands):
        ci = None
        if m > 1:
            _mean, _sd, lo, hi = mean_interval(score_c[k], confidence)
            ci = [float(lo), float(hi)]
        table.append({
            "strain": STRAINS[t], "bid": int(b),
            "ev_answer": float(score_a[k].mean()), "ev_check": float(ev_c[k]),
            "ev_check_ci": ci,
            "p_make_answer": float((tricks_a[k] == b).mean()),
            "p_make_check": float((tricks_c[k] == b).mean()),
        })
    auction = scen.mode == "auction"
    top = _best(ev_c, cands)
    best_call = None
    if auction:  # the check's best call: its best contract over every strain
        best_call = "pass" if ev_c[top] < 0 else f"{scen.level}{STRAINS[cands[top][0]]}"
    a = int(np.flatnonzero(rows == answer_index)[0])

    def paired(i: int, j: int) -> tuple[float, tuple[float, float] | None]:
        d = score_c[i] - score_c[j]
        if m < 2:
            return float(d.mean()), None
        mean, _sd, lo, hi = mean_interval(d, confidence)
        return float(mean), (float(lo), float(hi))

    diff, diff_ci = (0.0, None) if top == a else paired(top, a)
    order_diff = order_ci = play_shift = None
    runner_up = runner_strain = None
    if runner_index is not None:
        r = int(np.flatnonzero(rows == runner_index)[0])
        order_diff, order_ci = paired(a, r)
        runner_up, runner_strain = int(cands[r][1]), STRAINS[cands[r][0]]
        # how far the gap between the top two moves when the play changes (same deals)
        play_shift = abs(order_diff - float((score_a[a] - score_a[r]).mean()))

    def name(k: int) -> str:
        return f"{cands[k][1]}{STRAINS[cands[k][0]]}" if auction else str(cands[k][1])

    verdict = bid_verdict(name(a), None if runner_index is None else name(
        int(np.flatnonzero(rows == runner_index)[0])), name(top), diff_ci, order_ci, confidence)
    zero = None
    z = [k for k, c in enumerate(cands) if c[1] == 0]
    if z:
        k = z[0]
        # against searching opponents: only the others search, the zero bidder plays the
        # answer's play (the check's own row above has every seat searching)
        zsub = replace(scen, candidates=(cands[k],))
        zrun = run_scenario(zsub, m, seed, play, bid_policy, infer, threads, None,
                            own_play=answer_play)
        zero = {
            "p_make_answer": float((run.tricks[rows[k]] == 0).mean()),
            "deals_answer": n_answer,
            "p_make_check": float((zrun.tricks[0] == 0).mean()),
            "deals_check": m,
        }
    return AdviceCheck(
        play=play.text, deals=m, answer_play=answer_play.text,
        answer_bid=int(scen.candidates[answer_index][1]),
        answer_strain=STRAINS[best_strain], recommended=int(cands[top][1]),
        strain=STRAINS[cands[top][0]], best_call=best_call, diff=diff, diff_ci=diff_ci,
        holds=verdict.word != CONTRADICTED, bids=table, zero=zero, verdict=verdict,
        label=check_label(play.text, answer_play.text), runner_up=runner_up,
        runner_strain=runner_strain, order_diff=order_diff, order_ci=order_ci,
        play_shift=play_shift, size=size)


def _runner_up(ev: np.ndarray, cands: tuple[tuple[int, int], ...], answer: int) -> int | None:
    """Index of the answer's runner-up: the best other candidate of the answer's strain by the
    answer's expected score (ties: the lower bid), or None when it has no other searched one."""
    others = [i for i in range(len(ev))
              if i != answer and ev[i] > -np.inf and cands[i][0] == cands[answer][0]]
    if not others:
        return None
    return min(others, key=lambda i: (-ev[i], cands[i][1], cands[i][0]))
