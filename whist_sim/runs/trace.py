"""One deal of the compiled engine as a readable :class:`~whist_sim.engine.play.DealTrace`.

Policies the reference engine does not have (``rollout``, ``montecarlo``, parameters) play only
in the compiled engine. :func:`compiled_trace` plays the deal there (``play_traces``: the same
deal ``(seed, deal)``, the dealer ``deal % P``) and then replays its actions through the reference
engine's rules, each one checked, so the trace that ``deal`` prints is a legal deal under the rule
book whichever engine chose the moves.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..compiled.strategies.spec import PlaySpec, StrategySpec
from ..core.rng import DealRng
from ..core.rules import Rules
from ..engine.play import DealTrace, run_deal, trace_of
from ..engine.state import DealState, IllegalAction


class ReplayMismatch(RuntimeError):
    """The compiled engine's deal is not a legal deal of the reference engine (a bug)."""


def compiled_trace(
    seed: int,
    deal: int,
    rules: Rules,
    bid: Sequence[StrategySpec | str],
    play: Sequence[PlaySpec | str],
) -> DealTrace:
    """Deal ``deal`` of run ``seed`` played by the compiled engine (``bid[s]`` / ``play[s]``: the
    specs of seat ``s``), as the reference engine's trace of the same actions."""
    from ..compiled.entry.batch import play_traces

    tr = play_traces(seed, deal, 1, rules, [_text(b) for b in bid], [_text(q) for q in play])
    calls = iter(int(c) for c in tr["calls"][0, : tr["n_calls"][0]])
    plays = iter(int(c) for c in tr["plays"][0, : tr["n_plays"][0]])
    frisch = tr["frisch"][0]
    contracts = tr["contracts"][0]

    def scripted(state: DealState, rng: DealRng) -> int:
        phase = state.phase
        if phase == "auction":
            return next(calls)
        if phase == "frisch":
            return int(frisch[state.frisch_count, state.to_move])
        if phase == "contracts":
            return int(contracts[state.to_move])
        return next(plays)

    state = DealState.deal(rules, DealRng(seed, deal), int(tr["dealer"][0]))
    try:
        run_deal(state, [scripted] * rules.players, DealRng(seed, deal))
    except (IllegalAction, StopIteration) as e:
        raise ReplayMismatch(
            f"deal {deal} of seed {seed}: the compiled engine's moves do not replay in the "
            f"reference engine ({e or 'the moves ran out'})") from None
    trace = trace_of(state, seed, deal)
    if tuple(int(x) for x in tr["scores"][0]) != trace.scores:
        raise ReplayMismatch(f"deal {deal} of seed {seed}: the engines score it differently")
    return trace


def _text(spec: StrategySpec | str) -> str:
    return spec.text if isinstance(spec, StrategySpec) else spec


__all__ = ["ReplayMismatch", "compiled_trace"]
