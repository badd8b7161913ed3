"""Dealing the hidden hands of a scenario and playing every candidate on them (the kernel calls).

:func:`run_scenario` samples the deals of an advice and plays each candidate contract on every
one of them (:func:`whist_sim.compiled.entry.advise.advise_kernel`); :func:`sample_play_hands`
deals the first ones again, one by one, and keeps the hands at the start of play (what the
double-dummy view solves). Both build the kernel's arrays the same way (:func:`_kernel_inputs`),
so deal ``j`` is the same deal in both.

Conventions:

* every card the player cannot see is dealt uniformly among the places he cannot see, under the
  scenario's constraints and known cards; reading the table (:class:`Inference`, on by default),
  a deal in which the model would have bid ``k`` of the earlier contracts otherwise is kept with
  probability ``eps ** k`` (docs/STRATEGIES.md, "Reading the table"), so the kept deals follow
  the model's posterior and each counts fully (rejection sampling; a pilot run of
  :data:`PILOT_TRIES` deals estimates the acceptance rate and sets how many tries a deal may
  take, at most :data:`MAX_TRIES_CAP`);
* sampled deal ``j`` uses the random stream ``(seed, j)`` (docs/ENGINE.md §2), so results depend
  only on the seed and the options, never on threads or on the block size :data:`BLOCK`;
* results are arrays ``[candidate, deal]`` in the order of ``Scenario.candidates``;
* the compiled kernels (numba: ``advise_batch``, ``conditional``) are imported inside the
  functions that call them, so importing the advisor does not load them (``kernels.layout``, plain
  numpy, is imported here).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ...compiled.ground.layout import H_START, N_PARAMS, Table, deck_array, rules_array
from ...compiled.strategies.registry import BID, policy_names
from ...compiled.strategies.seating import Seating
from ...compiled.strategies.spec import StrategyError, StrategySpec, parse_strategy
from ...core.rng import mix64
from .scenario import AdviceError, Scenario, auction_text, check_int

__all__ = [
    "DEFAULT_EPS",
    "Inference",
    "MODEL_BID_POLICIES",
    "RunResult",
    "SampledDeals",
    "check_model",
    "policy_arrays",
    "run_scenario",
    "sample_play_hands",
]

#: bidding strategies that can model the other bidders: every registered one (the advisor's
#: deals play through the one deal loop, searching strategies included)
MODEL_BID_POLICIES = tuple(policy_names(BID))
BLOCK = 20_000  # sampled deals per kernel call (bounds the scratch of a thread)
PROGRESS_BLOCK = 500  # sampled deals per kernel call when progress is reported (``on_deals``)
PILOT_TRIES = 20_000  # independent tries that estimate the acceptance rate of the conditions
MAX_TRIES_CAP = 10_000_000  # per sampled deal
PILOT_SALT = 0x5EED_AB1E_0F_C0FFEE
_MAX_SEED = (1 << 64) - 1
#: the calls of a model tuple when no auction is read (the deal starts at its contracts)
NO_CALLS = np.zeros(0, dtype=np.int64)
#: the weight of one earlier decision the model would have made otherwise (the searches' default)
DEFAULT_EPS = 0.2


@dataclass(frozen=True)
class Inference:
    """How the advisor reads the table: ``on`` (condition the hidden hands on the earlier
    contracts), ``model`` (the bidding strategy spec assumed for the bidders; ``None``: the
    advice's ``bid_policy``, the table's strategy) and ``eps`` (the weight of one decision the
    model would have made otherwise; 0: keep only deals the model explains exactly)."""

    on: bool = True
    model: str | None = None
    eps: float = DEFAULT_EPS

    @classmethod
    def of(cls, value: Inference | bool | None) -> Inference:
        """An :class:`Inference` from itself, a bool (on / off with the defaults) or None (the
        default: on, as :func:`~whist_sim.analyses.advisor.advise`)."""
        if isinstance(value, Inference):
            return value
        return cls() if value is None else cls(on=bool(value))


@dataclass(frozen=True)
class RunResult:
    """Raw results of a run: ``tricks``, ``score`` (``int16``), ``over`` (bool), each
    ``[candidate, deal]``; ``tries``: deals dealt in total (accepted and rejected)."""

    tricks: np.ndarray
    score: np.ndarray
    over: np.ndarray
    tries: int
    pilot_rate: float | None


@dataclass(frozen=True)
class SampledDeals:
    """The first ``count`` sampled deals of an advice.

    ``hands``: ``uint64[count, P]``, every seat's hand at the start of play (the player's is his
    HAND; known cards in their seats); ``tricks``: ``int8[candidate, count]``, the player's
    tricks when each candidate of the scenario is played out on the deal (what
    :func:`run_scenario` gives for the same deals: a check that these are its deals); ``tries``:
    ``int64[count]``, deals dealt until each was accepted.
    """

    hands: np.ndarray
    tricks: np.ndarray
    tries: np.ndarray


# --------------------------------------------------------------------------- kernel inputs


def policy_arrays(players: int, bid_policy: str | StrategySpec, play: str | StrategySpec,
                  own: tuple[int, str | StrategySpec] | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``(pol, par)``: the policy ids ``int64[2, P]`` and parameters ``float64[2, P, N_PARAMS]``
    of every seat (row 0: bidding, row 1: play), from a bidding strategy spec and a play policy
    spec (parsed, or their texts: ``"hcp:margin=1"``, ``"heuristic"``); ``own = (seat, play)``:
    that seat plays its own play policy. Unknown names raise ``ValueError``."""
    p = players
    plays = [play] * p
    if own is not None:
        plays[own[0]] = own[1]
    return Seating.of((bid_policy,) * p, plays, p).arrays()


def check_model(bid_policy: str | StrategySpec, chart: bool = False) -> str:
    """Check a bidding strategy spec for the model of the bidders (``chart``: of a bid chart);
    its canonical text. Raises ``ValueError``
    (:class:`~whist_sim.compiled.strategies.spec.StrategyError`) for a bad spec or a strategy the
    model does not support."""
    name = bid_policy.name if isinstance(bid_policy, StrategySpec) else (
        bid_policy.split(":")[0].strip() if isinstance(bid_policy, str) else bid_policy)
    if name not in MODEL_BID_POLICIES:
        use = "bid charts use" if chart else "the advisor models the other bidders with one of"
        raise StrategyError(
            f"bid policy {name!r}: {use} {', '.join(MODEL_BID_POLICIES)} (with any parameters, "
            "e.g. hcp:margin=1)"
        )
    return parse_strategy(bid_policy).text


def _arrays(scen: Scenario, bid_policy: str | StrategySpec, play: str | StrategySpec,
            own_play: str | StrategySpec | None = None):
    try:
        check_model(bid_policy)
        own = None if own_play is None else (scen.seat, own_play)
        return policy_arrays(scen.rules.players, bid_policy, play, own)
    except ValueError as e:
        raise AdviceError(str(e)) from None


def model_arrays(players: int, spec: str | StrategySpec) -> tuple[np.ndarray, np.ndarray]:
    """``(mpol, mpar)``: the model's seating for the kernels (``model_rows`` of the strategy
    ``spec`` at every seat: a ``random`` seat tells nothing, ``montecarlo`` is read as the
    heuristic)."""
    from ...compiled.search.inference import MODEL_TABLE, model_rows

    pol, par = Seating.of((spec,) * players, ("random",) * players, players).arrays()
    mpol = np.empty((2, players), dtype=np.int64)
    mpar = np.zeros((2, players, N_PARAMS), dtype=np.float64)
    model_rows(pol, par, players, np.int64(MODEL_TABLE), mpol, mpar)
    return mpol, mpar


def _kernel_inputs(scen: Scenario, bid_policy: str | StrategySpec, play: str | StrategySpec,
                   infer: Inference | bool | None, own_play: str | StrategySpec | None = None):
    """``(table, smp, cands)``: the advisor kernels' :class:`~whist_sim.compiled.ground.layout.
    Table`, :class:`~whist_sim.compiled.entry.advise.Sampling` (with ``max_tries`` 1; the model
    ``(on, mpol, mpar, eps, calls, dealer)`` is on only when there is something to read: earlier
    contracts, or the auction's calls when given) and
    :class:`~whist_sim.compiled.entry.advise.Candidates`."""
    from ...compiled.entry.advise import Candidates, Sampling
    from ...compiled.ground.conditional import unconstrained

    pol, par = _arrays(scen, bid_policy, play, own_play)
    rules = scen.rules
    check = scen.cons is not None
    cons = scen.cons if scen.cons is not None else unconstrained(rules.players, rules.hand_size)
    inf = Inference.of(infer)
    mpol, mpar = model_arrays(rules.players, inf.model or bid_policy)
    model = (bool(inf.on and (scen.position > 0 or scen.calls)), mpol, mpar, float(inf.eps),
             np.array(scen.calls, dtype=np.int64), np.int64(max(scen.dealer, 0)))
    cand_trump = np.array([c[0] for c in scen.candidates], dtype=np.int64)
    cand_bid = np.array([c[1] for c in scen.candidates], dtype=np.int64)
    trump0 = scen.trump if scen.trump >= 0 else 0
    table = Table(rules_array(rules), deck_array(rules), pol, par)
    smp = Sampling(np.array(scen.known, dtype=np.uint64), np.uint64(rules.deck_mask), cons, check,
                   scen.forced, model, np.int64(1), np.int64(scen.declarer), np.int64(trump0),
                   np.int64(scen.level), np.int64(scen.position))
    return table, smp, Candidates(np.int64(scen.seat), cand_trump, cand_bid)


def _conditioned(smp) -> bool:
    """Whether a sampled deal must meet conditions (constraints, or the bids read): its tries
    are then counted, and the advice's pilot measures how often one is met."""
    return bool(smp.check or smp.model[0])


def _idle_calls(table, smp, cands) -> list[tuple[str, str, tuple]]:
    """The calls of the advisor's kernels that :func:`run_scenario` will make, with arguments
    that compile them and do no work (no try, no deal; ``loop`` 0 is never called): for
    :func:`~whist_sim.compiled.entry.deal.compile_kernels_ahead`."""
    from ...compiled.entry import advise as K

    k = len(cands.bid)
    deal, scratch = K.sampling_scratch(k)
    zero, none = np.int64(0), np.uint64(0)
    out = K.AdviceOut(np.empty((k, 1), np.int8), np.empty((k, 1), np.int16),
                      np.empty((k, 1), np.bool_), np.zeros(1, np.int64))
    calls: list[tuple[str, str, tuple]] = [
        (K.__name__, "advise_kernel", (zero, none, zero, zero, table, smp, cands, deal, scratch,
                                       out))]
    if _conditioned(smp):
        calls.append((K.__name__, "accept_kernel", (none, zero, table, smp, deal, scratch)))
    return calls


def _max_tries(pilot_rate: float) -> int:
    """Tries a sampled deal may take, from the pilot acceptance rate (100 expected acceptances,
    at least 1,000, at most :data:`MAX_TRIES_CAP`)."""
    return int(min(MAX_TRIES_CAP, max(1_000, 100 / pilot_rate)))


def _conditions_text(scen: Scenario, model: tuple) -> str:
    parts = []
    if scen.constraints:
        parts.append("the constraints " + ", ".join(scen.constraints))
    if model[0]:
        read = [f"the earlier bids {','.join(map(str, scen.bids))}"] if scen.bids else []
        if scen.calls:
            read.append(f"the auction {auction_text(scen.calls)}")
        parts.append(f"{' and '.join(read)} (read with eps {model[3]:g})")
    return " and ".join(parts) or "the conditions"


# --------------------------------------------------------------------------- the run


def run_scenario(
    scen: Scenario,
    deals: int,
    seed: int,
    play: str | StrategySpec = "heuristic",
    bid_policy: str | StrategySpec = "heuristic",
    infer: Inference | bool | None = None,
    threads: int = 1,
    on_deals: Callable[[int], None] | None = None,
    own_play: str | StrategySpec | None = None,
) -> RunResult:
    """Sample ``deals`` deals for ``scen`` and play every candidate on each (see the module doc
    of :mod:`whist_sim.analyses.advisor.evaluate` for the method). Every seat plays ``play``
    and the others bid ``bid_policy`` (specs as parsed at the edge, or their texts); with
    ``own_play`` the player's seat plays that one instead (a zero bidder under the answer's play
    among searching opponents).

    ``on_deals(m)``, when given, is called after every block of ``m`` sampled deals is done
    (blocks of at most :data:`PROGRESS_BLOCK`; from the worker threads when ``threads > 1``);
    an exception it raises stops the run and propagates (that is how a caller cancels). The
    results do not depend on it."""
    from ...compiled.entry import advise as K
    from ...compiled.entry.deal import compile_kernels_ahead, loop_address, wait_ahead
    from ...compiled.strategies.dispatch import loop_mode

    deals = check_int("deals", deals, 1, 100_000_000)
    seed = check_int("seed", seed, 0, _MAX_SEED)
    threads = check_int("threads", threads, 1, 1024)
    table, smp, cands = _kernel_inputs(scen, bid_policy, play, infer, own_play)
    mode = loop_mode(table.pol)  # FULL when a seat searches
    # a first run: the kernels compile in a process of their own while this one compiles the loop
    ahead = compile_kernels_ahead(mode, _idle_calls(table, smp, cands))
    loop = loop_address(mode, table.pol)
    wait_ahead(ahead)
    model = smp.model
    k = len(cands.bid)

    pilot_rate = None
    max_tries = 1
    if _conditioned(smp):
        deal, scratch = K.sampling_scratch(k)
        pilot_mix = np.uint64(mix64(mix64(seed) ^ PILOT_SALT))
        ok = K.accept_kernel(pilot_mix, np.int64(PILOT_TRIES), table, smp, deal, scratch)
        pilot_rate = ok / PILOT_TRIES
        if ok == 0:
            what = _conditions_text(scen, model)
            raise AdviceError(
                f"{what} are impossible or too rare: none of {PILOT_TRIES:,} sampled deals met "
                f"them (acceptance rate below {1 / PILOT_TRIES:.4%})"
            )
        max_tries = _max_tries(pilot_rate)
    smp = smp._replace(max_tries=np.int64(max_tries))

    tricks = np.empty((k, deals), dtype=np.int8)
    score = np.empty((k, deals), dtype=np.int16)
    over = np.empty((k, deals), dtype=np.bool_)
    tries = np.zeros(deals, dtype=np.int64)
    seed_mix = np.uint64(mix64(seed))

    def chunk(bounds: tuple[int, int]) -> int:
        """Deals ``a..b-1`` in blocks (bounded scratch); negative: a deal was not accepted."""
        a, b = bounds
        deal, scratch = K.sampling_scratch(k)
        block = BLOCK if on_deals is None else max(16, min(PROGRESS_BLOCK, deals // 50))
        size = min(block, b - a)
        t_out, s_out = np.empty((k, size), np.int8), np.empty((k, size), np.int16)
        o_out = np.empty((k, size), np.bool_)
        for lo in range(a, b, block):
            m = min(block, b - lo)
            done = K.advise_kernel(
                loop, seed_mix, np.int64(lo), np.int64(m), table, smp, cands, deal, scratch,
                K.AdviceOut(t_out, s_out, o_out, tries[lo:lo + m]),
            )
            if done < m:
                return -1
            tricks[:, lo:lo + m] = t_out[:, :m]
            score[:, lo:lo + m] = s_out[:, :m]
            over[:, lo:lo + m] = o_out[:, :m]
            if on_deals is not None:
                on_deals(m)
        return 0

    step = -(-deals // threads)
    parts = [(a, min(a + step, deals)) for a in range(0, deals, step)]
    if threads == 1 or len(parts) == 1:
        short = [chunk(x) for x in parts]
    else:
        with ThreadPoolExecutor(threads, thread_name_prefix="whist-advise") as pool:
            short = list(pool.map(chunk, parts))
    if any(s < 0 for s in short):
        what = _conditions_text(scen, model)
        raise AdviceError(
            f"{what} are too rare: a sampled deal was not accepted within {max_tries:,} tries "
            f"(pilot acceptance rate {pilot_rate:.4%})"
        )
    return RunResult(tricks, score, over, int(tries.sum()), pilot_rate)


# --------------------------------------------------------------------------- the hands


def sample_play_hands(
    scen: Scenario,
    count: int,
    seed: int = 0,
    play: str | StrategySpec = "heuristic",
    bid_policy: str | StrategySpec = "heuristic",
    infer: Inference | bool | None = None,
    pilot_rate: float | None = None,
) -> SampledDeals:
    """Deals ``0 .. count-1`` of :func:`run_scenario` with the same arguments.

    Each deal is drawn by the advisor's own kernel (``advise_kernel``, one deal per call) from its
    stream ``(seed, j)``, so the cards are those of the heuristic run, draw for draw.
    ``pilot_rate``: the run's acceptance rate under constraints or reading the table
    (:class:`RunResult`); it only sets how many tries a deal may take before the conditions count
    as too rare (without it: :data:`MAX_TRIES_CAP`).
    """
    from ...compiled.entry import advise as K
    from ...compiled.entry.deal import loop_address
    from ...compiled.strategies.dispatch import loop_mode

    count = check_int("count", count, 1, 100_000_000)
    seed = check_int("seed", seed, 0, _MAX_SEED)
    table, smp, cands = _kernel_inputs(scen, bid_policy, play, infer)
    loop = loop_address(loop_mode(table.pol), table.pol)  # no search when none is seated
    model = smp.model
    p = scen.rules.players
    if _conditioned(smp):
        max_tries = MAX_TRIES_CAP
        if pilot_rate:
            max_tries = _max_tries(pilot_rate)
    else:
        max_tries = 1
    smp = smp._replace(max_tries=np.int64(max_tries))
    k = len(cands.bid)
    deal, scratch = K.sampling_scratch(k)
    t_out, s_out = np.empty((k, 1), np.int8), np.empty((k, 1), np.int16)
    o_out = np.empty((k, 1), np.bool_)
    hands = np.zeros((count, p), dtype=np.uint64)
    tricks = np.zeros((k, count), dtype=np.int8)
    tries = np.zeros(count, dtype=np.int64)
    seed_mix = np.uint64(mix64(seed))
    for j in range(count):
        done = K.advise_kernel(
            loop, seed_mix, np.int64(j), np.int64(1), table, smp, cands, deal, scratch,
            K.AdviceOut(t_out, s_out, o_out, tries[j:j + 1]),
        )
        if done < 1:
            raise AdviceError(
                f"{_conditions_text(scen, model)} are too rare: sampled deal {j} was not "
                f"accepted within {max_tries:,} tries"
            )
        # the state now holds the last candidate's finished deal; the hands at the start of play
        # are kept in H_START (docs/ENGINE.md), the same for every candidate
        hands[j] = deal.hm[H_START:H_START + p]
        tricks[:, j] = t_out[:, 0]
    return SampledDeals(hands, tricks, tries)
