"""The hand advisor: which contract to bid with a given hand, by simulation.

:func:`advise` samples the hidden hands (every card the player cannot see is dealt uniformly
among the places he cannot see, optionally under constraints), then plays each sampled deal once
per candidate bid with the *same* cards and random numbers (common random numbers), so the
differences between bids are measured on the same deals. The player's play is contract-aware (it
plays for the number it bid), the later bidders bid by their strategy on their sampled hands, the
last bidder is hooked (RULES §4), so over/under and the value of a zero bid come out of the
simulation. Docs: docs/ADVISOR.md (the JSON schema is documented there).

Two modes:

* **contract mode** (``trump`` given): the auction is over; ``declarer`` won it at ``level`` in
  ``trump``, ``bids`` are the contracts already bid (bidding order, the declarer's first), and the
  player bids next. One row per legal contract: P(make) with its Wilson interval, the expected
  score (points, RULES §6) with its t interval, expected tricks, P(over) and the distribution of
  the tricks taken. The recommended bid is the one with the highest expected score (ties: the
  lower bid); the interval of its difference to the runner-up is paired over the common deals.
* **auction mode** (no ``trump``): for each strain, the player declares in it (contracts from
  ``level`` up); per strain the best contract, its expected score and trick distribution, and the
  best call.

Seats are ``0..P-1`` clockwise (RULES §1); the player's bidding position is
``(seat - declarer) % P`` (0 = declarer, ``P-1`` = the hooked last bidder). Sampled deal ``j``
of an advice uses the random stream ``(seed, j)`` (docs/ENGINE.md §2), so results depend only on
the seed and the options, not on threads.

This module runs the candidates and builds the :class:`Advice`; the scenario comes from
:mod:`whist_sim.analyses.advisor.scenario`, the sampled deals from
:mod:`whist_sim.analyses.advisor.sampling`, the double-dummy view from
:mod:`whist_sim.analyses.advisor.dd_view` and the outputs (text, JSON, plot) from
:mod:`whist_sim.analyses.advisor.render`. Conventions: scores are points (RULES §6); every interval
has the coverage ``confidence`` (P(make): Wilson; expected scores: t, from
:mod:`whist_sim.core.stats`); ties between contracts go to the lower bid.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from ...compiled.strategies.spec import parse_play
from ...core.cards import NT, STRAINS, CardSet
from .advice_check import AdviceCheck, check_advice
from .dd_view import DDView, check_dd_options, check_min_node_limit, dd_view
from .options import DEFAULT_DEALS, DEFAULT_SCREEN, AdviseOptions, checked_check_play
from .render import AdviceOutput
from .sampling import Inference, RunResult, run_scenario
from .scenario import AdviceError, Scenario, check_int, resolve_scenario

__all__ = ["DEFAULT_DEALS", "DEFAULT_SCREEN", "Advice", "AdviseOptions", "advise", "summarize",
           "with_check"]


# --------------------------------------------------------------------------- summaries


def summarize(run: RunResult, scen: Scenario, confidence: float = 0.95) -> pd.DataFrame:
    """One row per candidate: ``strain``, ``bid``, ``n``, ``p_make`` (+ ``p_make_lo/hi``, Wilson),
    ``ev`` (+ ``ev_lo/hi``, t interval; points), ``ev_sd``, ``e_tricks``, ``p_over``, and the
    trick distribution ``t0 .. tN`` (fractions)."""
    from ...core.stats import mean_interval_from_sums, wilson_interval

    n_tricks = scen.rules.n_tricks
    k, n = run.tricks.shape
    bids = np.array([c[1] for c in scen.candidates])
    tr = run.tricks.astype(np.int64)
    sc = run.score.astype(np.int64)
    made = (tr == bids[:, None]).sum(axis=1)
    lo, hi = wilson_interval(made, np.full(k, n), confidence)
    mean, sd, elo, ehi = mean_interval_from_sums(np.full(k, n), sc.sum(axis=1),
                                                 (sc * sc).sum(axis=1), confidence)
    dist = np.stack([np.bincount(tr[i], minlength=n_tricks + 1) / n for i in range(k)])
    df = pd.DataFrame({
        "strain": [STRAINS[c[0]] for c in scen.candidates],
        "bid": bids,
        "n": n,
        "p_make": made / n,
        "p_make_lo": np.atleast_1d(lo),
        "p_make_hi": np.atleast_1d(hi),
        "ev": np.atleast_1d(mean),
        "ev_lo": np.atleast_1d(elo),
        "ev_hi": np.atleast_1d(ehi),
        "ev_sd": np.atleast_1d(sd),
        "e_tricks": tr.mean(axis=1),
        "p_over": run.over.mean(axis=1),
    })
    for t in range(n_tricks + 1):
        df[f"t{t}"] = dist[:, t]
    return df


def _screened(scen: Scenario, ev: np.ndarray, keep: int) -> np.ndarray:
    """Mask of the candidates kept by the screen: per strain the ``keep`` best expected scores
    (ties: the lower bid)."""
    strains = np.array([c[0] for c in scen.candidates])
    kept = np.zeros(len(ev), dtype=bool)
    for t in np.unique(strains):
        rows = np.flatnonzero(strains == t)
        order = sorted(rows, key=lambda i: (-ev[i], scen.candidates[i][1]))
        kept[order[:keep]] = True
    return kept


def _run(scen: Scenario, o: AdviseOptions,
         on_deals: Callable[[int], None] | None) -> tuple[RunResult, np.ndarray]:
    """The run of every candidate and the mask of those played with the options' play. With a
    screening plan (``o.plan``), every candidate is first played with the plan's policy on the
    same sampled deals; only the kept ones are then played with the play (the others keep the
    screen's results)."""
    if o.plan is None:
        run = run_scenario(scen, o.deals, o.seed, o.play_spec, o.bid_spec, o.inference, o.threads,
                           on_deals)
        return run, np.ones(len(scen.candidates), dtype=bool)
    base, keep = o.plan
    first = run_scenario(scen, o.deals, o.seed, base, o.bid_spec, o.inference, o.threads)
    searched = _screened(scen, summarize(first, scen, o.confidence)["ev"].to_numpy(), keep)
    if searched.all():
        return run_scenario(scen, o.deals, o.seed, o.play_spec, o.bid_spec, o.inference,
                            o.threads, on_deals), searched
    rows = np.flatnonzero(searched)
    sub = replace(scen, candidates=tuple(scen.candidates[i] for i in rows))
    second = run_scenario(sub, o.deals, o.seed, o.play_spec, o.bid_spec, o.inference, o.threads,
                          on_deals)
    # the same sampled deals: both runs draw deal j from the stream (seed, j) whatever the play
    assert second.tries == first.tries
    for name in ("tricks", "score", "over"):
        getattr(first, name)[rows] = getattr(second, name)
    return first, searched


def _best_two(ev: np.ndarray) -> tuple[int, int | None]:
    """Indices of the highest and second-highest values (ties: the earlier index)."""
    order = sorted(range(len(ev)), key=lambda i: (-ev[i], i))
    second = order[1] if len(order) > 1 and ev[order[1]] > -np.inf else None
    return order[0], second


# --------------------------------------------------------------------------- the advice


@dataclass(frozen=True)
class Advice(AdviceOutput):
    """The answer of :func:`advise`.

    ``table``: one row per candidate (:func:`summarize` columns); in contract mode indexed by
    ``bid``, in auction mode by ``(strain, bid)``. ``recommended``: the contract with the highest
    expected score (in auction mode: in the best strain); ``runner_up`` the next; ``ev_diff`` /
    ``ev_diff_ci``: expected score of the recommended minus the runner-up, paired over the
    common deals (points). ``strains`` (auction mode): one row per strain with its best contract;
    ``best_call``: e.g. ``'5S'`` or ``'pass'``. ``acceptance``: accepted / dealt sampled deals
    (1.0 without conditions). ``evaluation``: ``'heuristic'`` or ``'dd'``; ``dd``: with
    ``'dd'``, the double-dummy view of the first sampled deals
    (:class:`whist_sim.analyses.advisor.dd_view.DDView`). ``screen_play`` / ``screen``: with a
    searching play policy, the base policy that screened the candidates and how many per strain were
    searched (``None`` / ``0``: every candidate was played with ``play``; the table's ``searched``
    column). ``run``: the raw results behind ``table`` (what a later check pairs with);
    ``options``: the :class:`~whist_sim.analyses.advisor.options.AdviseOptions` it answers.
    ``check``:
    the advice checked against search
    (:class:`whist_sim.analyses.advisor.advice_check.AdviceCheck`),
    ``None`` unchecked. ``str(advice)``, ``to_dict()``, ``to_json()``, ``figure()`` and
    ``plot(path)``:
    :class:`whist_sim.analyses.advisor.render.AdviceOutput`.
    """

    scenario: Scenario
    table: pd.DataFrame
    recommended: int
    runner_up: int | None
    ev_diff: float | None
    ev_diff_ci: tuple[float, float] | None
    deals: int
    tries: int
    seed: int
    play: str
    bid_policy: str
    infer: Inference
    confidence: float
    elapsed_s: float
    strains: pd.DataFrame | None = None
    best_call: str | None = None
    best_strain: int | None = None
    evaluation: str = "heuristic"
    dd: DDView | None = None
    screen_play: str | None = None
    screen: int = 0
    check: AdviceCheck | None = None
    run: RunResult | None = field(default=None, repr=False, compare=False)
    options: AdviseOptions | None = field(default=None, repr=False, compare=False)

    @property
    def reads_table(self) -> bool:
        """True when the sampled deals were conditioned on earlier decisions (reading the table
        was asked for and there were earlier contracts to read)."""
        return self.infer.on and (self.scenario.position > 0 or bool(self.scenario.calls))

    @property
    def mode(self) -> str:
        return self.scenario.mode

    @property
    def acceptance(self) -> float:
        """Share of the dealt deals that met the conditions (constraints, the table read)."""
        return self.deals / self.tries if self.tries else math.nan

    @property
    def close_call(self) -> str | None:
        """Why the recommended bid and the runner-up are a close call, or None when they are
        not: their paired interval holds 0 (the sampling cannot tell them apart), or the check
        moves the gap between them by more than the gap itself (the error of the play model is
        larger than the difference)."""
        if self.runner_up is None or self.ev_diff is None:
            return None
        if self.ev_diff_ci is not None and self.ev_diff_ci[0] <= 0:
            return (f"their interval, {self.ev_diff_ci[0]:+.1f} to {self.ev_diff_ci[1]:+.1f} "
                    "points per deal, holds 0")
        check = self.check
        if check is not None and check.play_shift is not None and abs(
                self.ev_diff) < check.play_shift:
            return (f"{self.ev_diff:.1f} points per deal apart, less than the "
                    f"{check.play_shift:.1f} the gap moves under {check.play}: the play model's "
                    "error is larger than the difference")
        return None

    def bids_table(self) -> pd.DataFrame:
        """The rows of the recommended strain (contract mode: the whole table), by ``bid``."""
        if self.mode == "contract":
            return self.table
        return self.table.xs(STRAINS[self.best_strain], level="strain")


def advise(
    hand: str | int | CardSet,
    options: AdviseOptions | None = None,
    *,
    progress: bool = False,
    notify: Callable[[str], None] | None = None,
    on_deals: Callable[[int], None] | None = None,
    on_check_deals: Callable[[int], None] | None = None,
    **keywords: Any,
) -> Advice:
    """Advise the contract to bid with ``hand`` (see the module doc for the method).

    ``options``: an :class:`~whist_sim.analyses.advisor.options.AdviseOptions`, or its fields as
    keywords (``advise(hand, trump="S", deals=2000)``), from which one is built and checked once;
    the fields are described below. ``progress``, ``notify``, ``on_deals`` and
    ``on_check_deals`` say how the advice is watched, not what it answers.

    ``hand``: the player's cards (RULES §9 text, a mask or a :class:`CardSet`). ``trump`` (C, D,
    H, S, NT or 0..4) selects contract mode; without it the advisor answers for the auction.
    ``declarer`` / ``level``: who won the auction and at which level (default 5); ``bids``: the
    contracts already bid in bidding order starting with the declarer (``[7, 0]`` or ``"7,0"``);
    ``seat``: the player (default: the next bidder after ``bids``; checked when both are given).
    ``play``: the play policy of every seat, a spec or its text (default
    :data:`~whist_sim.compiled.strategies.registry.DEFAULT_PLAY`); ``bid_policy``: the bidding
    strategy of the other seats (one of
    :data:`~whist_sim.analyses.advisor.sampling.MODEL_BID_POLICIES`). ``deals``: sampled deals (each
    candidate is played on all of them); ``seed``: deal ``j`` uses stream ``(seed, j)``. ``infer``
    (default True): read the table, i.e. condition the hidden hands on the earlier contracts: a
    sampled deal in which the ``model`` (a bidding strategy spec; default ``bid_policy``) would have
    bid ``k`` of them otherwise is kept with probability ``eps ** k`` (docs/STRATEGIES.md, "Reading
    the table"). ``constraints``: on the
    hidden hands, e.g. ``["1:hcp=10-15", "2:S=5-", "3:void=H"]`` (see
    :func:`~whist_sim.analyses.advisor.scenario.parse_constraint`) or ``{1: {"hcp": (10, 15)}}``;
    ``known``: cards known to be in other seats' hands, ``{1: "AS KH"}``. ``confidence``:
    coverage of the intervals. ``auction``: the whole trump auction, every call from the seat
    after ``dealer`` (default: the last seat), e.g. ``"pass,5S,pass,6H,pass,pass,pass"``
    (:func:`~whist_sim.analyses.advisor.scenario.parse_auction`); the declarer, trump and level
    follow from it, and with ``infer`` the others' calls are read as well as their contracts.
    ``threads``: local threads (results do not depend on it).

    ``evaluation``: ``"heuristic"`` (the play policy's results only) or ``"dd"``: also the
    double-dummy view of the first ``dd_deals`` sampled deals (default ``min(100, deals)``),
    every solve limited to ``dd_node_limit`` card plays (default 1,000,000; whist-min's to
    ``dd_min_node_limit`` when given: it nearly always runs into the limit on full deals, so a
    lower one makes the view several times faster), with a tqdm bar on stderr when ``progress``
    (see :mod:`whist_sim.analyses.advisor.dd_view`; four players only).
    ``notify`` gets one-line notices, e.g. that the solver is being compiled (a minute or two on
    a first run, :func:`whist_sim.dd.warm_up`), once every input has been checked.
    ``on_deals(m)`` is told every time ``m`` more sampled deals are done (progress; an exception
    it raises stops the advice: how the web page cancels, docs/WEB.md); it changes no result.

    ``screen``: with a searching play policy (``rollout``), every candidate is first played
    with its base policy on the same sampled deals, and only the ``screen`` best per strain
    (default :data:`DEFAULT_SCREEN`) are played with the search; the others keep the base
    policy's numbers, are flagged in the table (column ``searched``) and are never recommended.
    ``0`` searches every candidate; ``on_deals`` then follows the searched run only.

    ``check``: a play policy spec (e.g. :data:`whist_sim.analyses.answer_check.DEFAULT_CHECK_PLAY`):
    the
    advice is checked against it on the first ``check_deals`` sampled deals (default
    :func:`whist_sim.analyses.answer_check.check_deals` of ``deals``), searching only the answer's
    best candidates and the zero bid (:func:`whist_sim.analyses.advisor.advice_check.check_advice`);
    ``on_check_deals`` follows that run as ``on_deals`` does the answer's. ``None``: no check.

    Raises :class:`AdviceError` for bad input and for impossible or too rare conditions.
    """
    from ...core.stats import mean_interval

    o = AdviseOptions.of(options, **keywords)
    t0 = time.perf_counter()
    scen = resolve_scenario(hand, o.trump, o.declarer, o.level, o.seat, o.bids, o.rules,
                            o.constraints, o.known, o.auction, o.dealer)
    if o.evaluation == "dd":
        deals = check_int("deals", o.deals, 1, 100_000_000)
        dd_deals, dd_node_limit = check_dd_options(scen, deals, o.dd_deals, o.dd_node_limit)
        # the options as the view reads them (the specs pass through as parsed)
        o = replace(o, deals=deals, dd_deals=dd_deals, dd_node_limit=dd_node_limit,
                    dd_min_node_limit=check_min_node_limit(o.dd_min_node_limit))
    run, searched = _run(scen, o, on_deals)
    table = summarize(run, scen, o.confidence)
    table["searched"] = searched
    dd = None
    if o.evaluation == "dd":
        from ...dd import warm_up

        warm_up(notify)
        dd = dd_view(scen, table, o, run.pilot_rate, progress)
    strains = best_call = best_strain = None
    # a candidate the screen left out is never recommended (its numbers are the base play's)
    ev_all = np.where(searched, table["ev"].to_numpy(), -np.inf)
    if scen.mode == "contract":
        i, j = _best_two(ev_all)
        idx = [i] if j is None else [i, j]
        table = table.drop(columns="strain").set_index("bid")
    else:
        best_rows = []
        # the strains that are candidates (no clubs with the no_suit deck, RULES §8)
        present = [t for t in range(NT + 1) if (table["strain"] == STRAINS[t]).any()]
        for t in present:
            rows = np.flatnonzero(table["strain"].to_numpy() == STRAINS[t])
            best_rows.append(rows[_best_two(ev_all[rows])[0]])
        strains = table.iloc[best_rows].set_index("strain")
        k = _best_two(strains["ev"].to_numpy())[0]
        top = present[k]
        best_strain = top
        rows = np.flatnonzero(table["strain"].to_numpy() == STRAINS[top])
        a, b = _best_two(ev_all[rows])
        idx = [rows[a]] if b is None else [rows[a], rows[b]]
        ev_top = float(strains["ev"].iloc[k])
        best_call = "pass" if ev_top < 0 else f"{scen.level}{STRAINS[top]}"
        table = table.set_index(["strain", "bid"])
    bids_col = np.array([c[1] for c in scen.candidates])
    recommended = int(bids_col[idx[0]])
    runner_up = ev_diff = ev_diff_ci = None
    if len(idx) > 1:
        runner_up = int(bids_col[idx[1]])
        d = run.score[idx[0]].astype(np.int64) - run.score[idx[1]].astype(np.int64)
        if len(d) > 1:
            mean, _sd, lo, hi = mean_interval(d, o.confidence)
            ev_diff, ev_diff_ci = float(mean), (float(lo), float(hi))
        else:
            ev_diff = float(d.mean())
    advice = Advice(
        scenario=scen, table=table, recommended=recommended, runner_up=runner_up,
        ev_diff=ev_diff, ev_diff_ci=ev_diff_ci, deals=int(run.tricks.shape[1]), tries=run.tries,
        seed=int(o.seed), play=o.play_spec.text, bid_policy=o.bid_spec.text, infer=o.inference,
        confidence=float(o.confidence), elapsed_s=time.perf_counter() - t0, strains=strains,
        best_call=best_call, best_strain=best_strain, evaluation=o.evaluation, dd=dd,
        screen_play=None if o.plan is None else o.plan[0],
        screen=0 if o.plan is None else o.plan[1],
        run=run, options=o,
    )
    if o.check is None:
        return advice
    return with_check(advice, o.check, o.check_deals, o.threads, on_check_deals)


def with_check(advice: Advice, check: str, check_deals: int | None = None, threads: int = 1,
               on_deals: Callable[[int], None] | None = None) -> Advice:
    """``advice`` checked against the play ``check`` (a play policy spec) on its first
    ``check_deals`` sampled deals (default: enough for 80 % power on its top two bids,
    :func:`whist_sim.analyses.advisor.advice_check.advice_check_size`): the same advice with
    ``check``
    set
    (:func:`whist_sim.analyses.advisor.advice_check.check_advice`). ``on_deals(m)`` follows the
    check's
    run; ``threads`` do not change the result."""
    if advice.run is None:
        raise AdviceError("this advice has no raw results to check against (advise() keeps them)")
    play = parse_play(checked_check_play(check))  # the check's play, parsed once
    if check_deals is not None:
        check_deals = check_int("check_deals", check_deals, 1, 100_000_000)
    threads = check_int("threads", threads, 1, 1024)
    answer = advice.options if advice.options is not None else AdviseOptions(
        play=advice.play, bid_policy=advice.bid_policy, seed=advice.seed,
        infer=advice.infer.on, model=advice.infer.model, eps=advice.infer.eps,
        confidence=advice.confidence)
    scen = advice.scenario
    # the table's rows are the scenario's candidates, in order
    ev = np.where(advice.table["searched"].to_numpy(bool), advice.table["ev"].to_numpy(float),
                  -np.inf)
    rec = _recommended_index(advice)
    t0 = time.perf_counter()
    checked = check_advice(scen, advice.run, ev, rec, replace(answer, threads=threads), play,
                           on_deals, check_deals)
    return replace(advice, check=checked,
                   elapsed_s=advice.elapsed_s + time.perf_counter() - t0)


def planned_check_deals(advice: Advice, check_deals: int | None = None) -> int:
    """The deals the check of ``advice`` will play (:func:`with_check` with ``check_deals``):
    for a progress bar sized before the check starts."""
    from .advice_check import _runner_up, advice_check_size

    if advice.run is None:
        raise AdviceError("this advice has no raw results to check against (advise() keeps them)")
    scen = advice.scenario
    ev = np.where(advice.table["searched"].to_numpy(bool), advice.table["ev"].to_numpy(float),
                  -np.inf)
    rec = _recommended_index(advice)
    return advice_check_size(advice.run, rec, _runner_up(ev, scen.candidates, rec),
                             check_deals).deals


def _recommended_index(advice: Advice) -> int:
    """The index of the recommended bid among the scenario's candidates (the table's rows)."""
    scen = advice.scenario
    return next(i for i, c in enumerate(scen.candidates)
                if c[1] == advice.recommended
                and (scen.mode == "contract" or c[0] == advice.best_strain))
