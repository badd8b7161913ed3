"""The ``play`` section of ``whist-sim bench``: each play policy's deals per second on one thread.

Keys, for every registered play policy ``P`` (``rollout`` as ``rollout:n=16``, the spec its
targets are set for): ``play_P_1t`` (deals per wall second, heuristic bidding, ``P`` at every seat,
one thread) and ``play_P_vs_heuristic`` (that rate over the heuristic play's rate in the same run;
compare ratios, not absolute rates, on a shared machine). Besides, the search that reads the table
(``rollout:n=16:infer=1``, docs/STRATEGIES.md): ``play_rollout_infer_1t`` and
``play_rollout_infer_vs_rollout``, the price of the inference. Not a default section:
``whist-sim bench --only play``.
"""

from __future__ import annotations

import time

from ..core.rules import Rules
from .registry import BenchContext, Result, bench_section

#: the spec each play policy is timed with
SPECS = {"rollout": "rollout:n=16"}
#: searches timed besides the registered policies: key -> spec
EXTRA = {"rollout_infer": "rollout:n=16:infer=1"}


def play_rate(rules: Rules, spec: str, seconds: float, chunk: int) -> float:
    """Deals per wall second of ``play_batch`` with heuristic bidding and ``spec`` at every seat."""
    from ..kernels.batch import play_batch

    bid, play = ("heuristic",) * rules.players, (spec,) * rules.players
    play_batch(1, 0, 2, rules, bid, play)  # compile or load first
    deals = 0
    t0 = time.perf_counter()
    while True:
        play_batch(1, deals, chunk, rules, bid, play)
        deals += chunk
        if time.perf_counter() - t0 >= seconds:
            break
    return deals / (time.perf_counter() - t0)


@bench_section("play", default=False, help="each play policy's deals/s on one thread")
def _play(ctx: BenchContext) -> Result:
    from ..strategies import play_names

    out: Result = {}
    rates = {}
    for name in play_names():
        spec = SPECS.get(name, name)
        chunk = 200 if name in SPECS else 20_000
        ctx.log(f"play policy {spec}")
        rates[name] = play_rate(ctx.rules, spec, ctx.seconds, chunk)
        out[f"play_{name}_1t"] = rates[name]
    for name, rate in rates.items():
        out[f"play_{name}_vs_heuristic"] = rate / rates["heuristic"]
    for key, spec in EXTRA.items():
        ctx.log(f"play policy {spec}")
        out[f"play_{key}_1t"] = rate = play_rate(ctx.rules, spec, ctx.seconds, 200)
        out[f"play_{key}_vs_rollout"] = rate / rates["rollout"]
    return out
