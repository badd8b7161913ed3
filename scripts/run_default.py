"""The main job (``make run``): simulate the default workload and write its report.

    python scripts/run_default.py --data data/default --out data/results   (make run)
    python scripts/run_default.py --data data/default --out results        (make results)

The default workload: 1,000,000 deals, seed 2026, the ``heuristic`` bidding strategy and the
default play policy (``DEFAULT_PLAY`` of the strategies registry, ``learned``) at every seat, the
rule book's default rules. A companion run plays the same deals with the same seed, rules and
bidding under ``heuristic`` play into ``DATA/../default_heuristic`` (``COMPANION``); heuristic
play is the fastest policy, so this costs seconds, and the bidding does not depend on the play,
so the two runs differ in the card play only. The report's "Play model" section sets their
headline numbers side by side. Unless ``--no-check``, a check run plays the first
``deals / 500`` deals (at least 200) of the same run with every seat playing ``--check`` (a
searching play, default the search over the default play, ``DEFAULT_CHECK_PLAY`` of
``whist_sim.analyses.answer_check``: ``rollout:n=16:base=learned``) into
``DATA/../default_check``: the report's section "Checked against search" sets its headline
numbers beside the run's with each one's verdict (contradicted or not contradicted), its "Zero
bids" section the zero bids made in the run and with every seat searching, and
``OUT/default/check.json`` holds the JSON ``check`` object (``check_dir``, in
``report_default.py``). The runs are started with ``resume=True``: a complete dataset with the
same options in DATA is reused as it is (so a second ``make run`` only re-checks the chunk files
and rewrites the report), an interrupted one is finished, and a dataset made with
other options is refused with the differences named. The report goes to ``OUT/default/``
(``scripts/report_default.py``). ``make run`` writes it outside the tracked files
(``data/results/``), so the tree stays clean; ``make results`` renews the committed copy in
``results/default/`` (which names the git commit it was made with).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from report_default import (
    COMPANION_PLAY,
    NAME,
    check_dir,
    command_line,
    companion_dir,
    write_default_report,
)

from whist_sim.analyses.answer_check import (
    DEFAULT_CHECK_PLAY,
    add_check_arguments,
    check_deals,
    parsed_check,
)
from whist_sim.analyses.reports import ReportError
from whist_sim.compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from whist_sim.core.rules import Rules
from whist_sim.runs.dataset import DatasetError
from whist_sim.runs.simulate import SimulationError, discard_stale_run, simulate

DEALS = 1_000_000
SEED = 2026
POLICY = DEFAULT_BID  # the bidding strategy of every seat (scripts/other_seats.py)
PLAY = DEFAULT_PLAY  # the play policy of every seat
#: the run's deals per deal of its check run: every seat searches in the check, several hundred
#: times slower than the compiled default play
CHECK_RATIO = 500


def _simulate(data: str | Path, play: str, deals: int, seed: int, threads: int | None,
              progress: bool) -> None:
    rules = Rules()
    if discard_stale_run(data):
        print(f"run_default: {data} was written by other engine code: simulating again",
              file=sys.stderr, flush=True)
    manifest = simulate(
        data,
        deals=deals,
        seed=seed,
        rules=rules,
        bid=(POLICY,) * rules.players,
        play=(play,) * rules.players,
        threads=threads,
        resume=True,
        progress=progress,
        notify=lambda msg: print(f"run_default: {msg}", file=sys.stderr, flush=True),
    )
    if manifest.get("status") != "complete":
        status = manifest.get("status")
        raise SimulationError(f"the run in {data} did not complete (status {status})")


def run(
    data: str | Path,
    out: str | Path,
    command: str,
    deals: int = DEALS,
    seed: int = SEED,
    threads: int | None = None,
    progress: bool = True,
    check: str | None = DEFAULT_CHECK_PLAY,
    check_size: int | None = None,
) -> list[Path]:
    """Simulate (or reuse) the default dataset in ``data``, its companion under heuristic
    play and (``check``: a play policy spec; ``None``: none) its check run on the first
    ``check_size`` deals (default ``deals / CHECK_RATIO``, at least 200), then write the report
    under ``out``."""
    _simulate(data, PLAY, deals, seed, threads, progress)
    companion = companion_dir(data)
    _simulate(companion, COMPANION_PLAY, deals, seed, threads, progress)
    checked = None
    if check is not None:
        m = check_deals(deals, CHECK_RATIO) if check_size is None else min(deals, check_size)
        _simulate(check_dir(data), check, m, seed, threads, progress)
        checked = (check, check_dir(data))
    return write_default_report(data, out, command, progress=progress,
                                companion=(COMPANION_PLAY, companion), label=PLAY,
                                check=checked)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/default", help="dataset directory")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--deals", type=int, default=DEALS, help=f"deals (default {DEALS:,})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"run seed (default {SEED})")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    add_check_arguments(parser, "the report")
    parser.add_argument("--check-deals", type=int, default=None, metavar="N",
                        help=f"deals of the check run (default: deals / {CHECK_RATIO}, at "
                             "least 200)")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    check = parsed_check(parser, args)
    if args.check_deals is not None and args.check_deals < 1:
        parser.error(f"--check-deals: at least 1, got {args.check_deals}")
    try:
        written = run(
            args.data,
            args.out,
            command_line(__file__, raw),
            deals=args.deals,
            seed=args.seed,
            threads=args.threads,
            progress=not args.no_progress,
            check=check,
            check_size=args.check_deals,
        )
    except SimulationError as e:
        print(
            f"run_default: {e}\n(to start over, delete {args.data} or choose another --data)",
            file=sys.stderr,
        )
        return 1
    except (DatasetError, ReportError) as e:
        print(f"run_default: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nrun_default: interrupted; run it again to resume", file=sys.stderr)
        return 130
    print(f"run_default: wrote {len(written)} files to {Path(args.out) / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
