"""The ``bidder`` section of ``whist-sim bench``: the ``learned`` bidder in the field.

Keys: ``bidder_learned_deals_per_s`` (``play_batch`` with one ``learned`` bidder and three
``heuristic`` ones, one thread), ``bidder_heuristic_deals_per_s`` (four ``heuristic`` bidders,
same process) and ``bidder_learned_vs_heuristic`` (their ratio; the target is >= 0.25). Every
seat plays the default play in both, so the ratio is the bidder's own cost.
"""

from __future__ import annotations

from ...core.registry import DEFAULT_PLAY
from ...core.rules import Rules
from .engine import rate_seating
from .registry import BenchContext, Result, bench_section


def bench_bidder(seconds: float = 2.0, rules: Rules | None = None) -> dict[str, float]:
    """Deals per second, one thread, of one ``learned`` bidder among ``heuristic`` ones and of
    ``heuristic`` bidders alone (the default play everywhere), and their ratio; each for about
    ``seconds`` in the same process."""
    rules = Rules() if rules is None else rules
    if not seconds > 0:
        raise ValueError(f"seconds must be positive, got {seconds!r}")
    from ...compiled.entry.batch import play_batch

    others = ("heuristic",) * (rules.players - 1)
    play = (DEFAULT_PLAY,) * rules.players
    rates = []
    for bid in (("learned", *others), ("heuristic", *others)):
        play_batch(1, 0, 16, rules, bid, play)  # compile or load
        rates.append(rate_seating(rules, bid, play, seconds)[0])
    learned, heuristic = rates
    return {
        "bidder_learned_deals_per_s": learned,
        "bidder_heuristic_deals_per_s": heuristic,
        "bidder_learned_vs_heuristic": learned / heuristic,
    }


@bench_section("bidder", help="one learned bidder among heuristic ones vs. heuristic bidders")
def _bidder(ctx: BenchContext) -> Result:
    return bench_bidder(ctx.seconds, ctx.rules)
