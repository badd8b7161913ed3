"""Analysis: bid charts, the expected-score-optimal contract by hand class.

    python scripts/bid_chart.py --out results [--min-hands 400 --deals 200 --seed 2026]

For every player count (4, then 3) hands are drawn from deals bid up to the contracts by the
heuristic strategy and classed by bidding position, high-card points and trump length; the
first ``--min-hands`` hands of every class (``--hands`` classed; default: enough that every class
of probability 1e-4 is filled) are evaluated: every legal contract is played out (the default
play policy, ``DEFAULT_PLAY``, at every seat) on ``--deals`` deals with the hidden hands
re-sampled, in the deal's suit and at no-trump (the NT panel). Everything is computed by
:mod:`whist_sim.analyses.advisor.bidchart`; this script picks the default run and writes
``RESULTS/bid_chart/report.md`` (four players) and ``RESULTS/bid_chart/three_players/report.md``
with their heat maps (``charts/``), ``cells.csv`` and the printable A4 cheat sheets
(``cheat_sheet_4p.pdf`` / ``.png``, ``three_players/cheat_sheet_3p.*``). A class whose best bid
is illegal for some of its hands is split by the auction (:mod:`whist_sim.analyses.advisor.
chart_cells`), and every cell says how often its bid is its hands' own best (its fit). Unless
``--no-check``, every chart is checked against search (``--check``, default the search over the
default play; :mod:`whist_sim.analyses.advisor.chart_check`): the cells whose top two bids are
close are played again, at most twice the chart's own work, the others screened; every cell gets
its verdict (``check.csv``) and the moved cells are marked. It needs no dataset: ``--data`` is
accepted for ``make results`` and ignored.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from report_default import command_line, git_revision

from whist_sim.analyses.advisor.bidchart import (
    DEFAULT_DEALS_PER_HAND,
    ChartError,
    bid_chart,
    write_chart_report,
)
from whist_sim.analyses.advisor.chart_check import check_chart
from whist_sim.analyses.answer_check import DEFAULT_CHECK_PLAY, add_check_arguments, parsed_check
from whist_sim.compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from whist_sim.core.rules import Rules
from whist_sim.runs.executors import ExecutorError

NAME = "bid_chart"  # sub-directory of the results directory
SUBDIRS = {4: "", 3: "three_players"}  # per player count, below NAME
HANDS = None  # hands classed: None = enough for every class of probability 1e-4
MIN_HANDS = 400  # hands evaluated per class: about 5 minutes on 2 free cores for both charts
DEALS_PER_HAND = DEFAULT_DEALS_PER_HAND
SEED = 2026
POLICY = DEFAULT_BID  # the bidding strategy of every seat (scripts/other_seats.py)
PLAY = DEFAULT_PLAY  # the play policy of every seat


def run(out: str | Path, command: str, hands: int | None = HANDS,
        deals_per_hand: int = DEALS_PER_HAND, seed: int = SEED, threads: int | None = None,
        progress: bool = True, min_hands: int = MIN_HANDS,
        players: tuple[int, ...] = (4, 3), check: str | None = DEFAULT_CHECK_PLAY) -> list[Path]:
    """Run the charts, each checked against the play ``check`` (``None``: not checked); write
    their reports (Markdown, CSV, PNG, PDF; no per-hand data) to ``out/bid_chart`` (four
    players) and ``out/bid_chart/three_players``."""
    written: list[Path] = []
    rev = git_revision()
    for p in players:
        rules = Rules(players=p)
        df = bid_chart(hands=hands, deals_per_hand=deals_per_hand, seed=seed, rules=rules,
                       bid=POLICY, play=PLAY, threads=threads, progress=progress,
                       min_hands=min_hands)
        for note in df.attrs["coverage"]:
            print(f"bid_chart ({p} players): {note}", file=sys.stderr)
        checked = None if check is None else check_chart(df, check, rules, threads=threads)
        extra = {"code (git commit)": rev} if rev else {}
        target = Path(out) / NAME / SUBDIRS[p]
        written += write_chart_report(df, target, command=command, rules=rules, parquet=False,
                                      extra_meta=extra, check=checked)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=None, help="ignored (this analysis makes its own deals)")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--hands", type=int, default=HANDS,
                        help="hands classed [default: enough for classes of probability 1e-4]")
    parser.add_argument("--min-hands", type=int, default=MIN_HANDS,
                        help="hands evaluated per class")
    parser.add_argument("--deals", "--deals-per-hand", dest="deals_per_hand", type=int,
                        default=DEALS_PER_HAND, help="sampled deals per evaluated hand")
    parser.add_argument("--players", default="4,3",
                        help="player counts to chart, comma-separated (4, 3)")
    parser.add_argument("--seed", type=int, default=SEED, help="run seed")
    parser.add_argument("--threads", type=int, default=None, help="threads [default: every CPU]")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_check_arguments(parser, "the charts")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    try:
        players = tuple(int(x) for x in args.players.split(","))
    except ValueError:
        parser.error(f"--players: expected e.g. 4,3, got {args.players!r}")
    if any(p not in SUBDIRS for p in players):
        parser.error(f"--players: 4 and/or 3, got {args.players!r}")
    check = parsed_check(parser, args)
    try:
        written = run(args.out, command_line(__file__, raw), args.hands, args.deals_per_hand,
                      args.seed, args.threads, progress=not args.no_progress,
                      min_hands=args.min_hands, players=players, check=check)
    except (ChartError, ExecutorError) as e:
        print(f"bid_chart: {e}", file=sys.stderr)
        return 1
    print(f"bid_chart: wrote {len(written)} files to {Path(args.out) / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
