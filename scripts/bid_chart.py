"""Analysis: bid charts, the expected-score-optimal contract by hand class (issue 5).

    python scripts/bid_chart.py --out results [--hands 10000 --deals-per-hand 200 --seed 2026]

For ``--hands`` sampled hands (each from a deal bid up to the contracts by the heuristic strategy,
the player at every bidding position in turn), every legal contract is played out (the default
play policy, ``DEFAULT_PLAY``, at every seat) on
``--deals-per-hand`` deals with the hidden hands re-sampled, and the optimal one (highest mean
score) is charted by high-card points x trump length and position, with a zero-bid chart and an
under/over comparison. Everything is computed by :mod:`whist_sim.advisor.bidchart`; this script
picks the default run and writes ``RESULTS/bid_chart/report.md`` with its PNG heat maps
(``charts/``). It needs no dataset: ``--data`` is accepted for ``make results`` and ignored.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from report_default import command_line, git_revision

from whist_sim.advisor.bidchart import ChartError, bid_chart, write_chart_report
from whist_sim.core.rules import Rules
from whist_sim.runs.executors import ExecutorError
from whist_sim.strategies.registry import DEFAULT_PLAY

NAME = "bid_chart"  # sub-directory of the results directory
HANDS = 10_000
DEALS_PER_HAND = 200
SEED = 2026
POLICY = "heuristic"  # the bidding strategy of every seat
PLAY = DEFAULT_PLAY  # the play policy of every seat


def run(out: str | Path, command: str, hands: int = HANDS, deals_per_hand: int = DEALS_PER_HAND,
        seed: int = SEED, threads: int | None = None, progress: bool = True) -> list[Path]:
    """Run the chart; write its report (Markdown + PNG, no per-hand data) to ``out/bid_chart``."""
    rules = Rules()
    df = bid_chart(hands=hands, deals_per_hand=deals_per_hand, seed=seed, rules=rules,
                   bid=POLICY, play=PLAY, threads=threads, progress=progress)
    rev = git_revision()
    extra = {"code (git commit)": rev} if rev else {}
    extra["run time"] = f"{df.attrs['wall_s']:.0f} s on {df.attrs['executor']}"
    return write_chart_report(df, Path(out) / NAME, command=command, rules=rules, parquet=False,
                              extra_meta=extra)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="ignored (this analysis makes its own deals)")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--hands", type=int, default=HANDS, help="sampled hands")
    parser.add_argument("--deals-per-hand", type=int, default=DEALS_PER_HAND,
                        help="sampled deals per hand")
    parser.add_argument("--seed", type=int, default=SEED, help="run seed")
    parser.add_argument("--threads", type=int, default=None, help="threads [default: every CPU]")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    try:
        written = run(args.out, command_line(__file__, raw), args.hands, args.deals_per_hand,
                      args.seed, args.threads, progress=not args.no_progress)
    except (ChartError, ExecutorError) as e:
        print(f"bid_chart: {e}", file=sys.stderr)
        return 1
    print(f"bid_chart: wrote {len(written)} files to {Path(args.out) / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
