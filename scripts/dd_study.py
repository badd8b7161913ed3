"""Analysis: contracts and tricks taken against double-dummy bounds, written to RESULTS/dd/.

    python scripts/dd_study.py --data data/default --out results [--deals 2000 --seed 2026
        --node-limit 1000000]

Simulates ``--deals`` deals with the ``heuristic`` bidding strategy and the default play policy
(``DEFAULT_PLAY``, ``learned``) at every seat and the rule book's default rules, with the
double-dummy columns (``simulate(..., dd=True)``: every seat's whist-max and whist-min at the start
of play, docs/DD.md), into its own dataset directory ``DATA/../dd_study``
(next to the default dataset). Every solve runs under ``--node-limit`` card plays; a solve over it
is left unsolved and the report counts those. The run is started with ``resume=True``: a complete
dataset with the same options there is reused as it is, an interrupted one is finished, and one
made with other options (or another solver version) is refused with the differences named.
Everything is computed by :mod:`whist_sim.runs.simulate` and :mod:`whist_sim.analyses.reports`; this
script writes ``RESULTS/dd/report.md`` with its PNG charts (``charts/``) and CSV tables
(``tables/``), the standard report with its "Double dummy" section.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from report_default import DPI, FORMATS, command_line, git_revision

from whist_sim.analyses.reports import ReportError, build_report, tally_dataset, write_report
from whist_sim.analyses.reports.dd_tables import dd_unsolved
from whist_sim.compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from whist_sim.core.rules import Rules
from whist_sim.dd import SOLVER_VERSION
from whist_sim.runs.dataset import DatasetError
from whist_sim.runs.dd_columns import DEFAULT_NODE_LIMIT
from whist_sim.runs.simulate import SimulationError, discard_stale_run, simulate

NAME = "dd"  # sub-directory of the results directory
DATASET = "dd_study"  # the dataset directory, next to the default dataset
TITLE = "Israeli Whist: contracts against double-dummy bounds"
DEALS = 2000
SEED = 2026
POLICY = DEFAULT_BID  # the bidding strategy of every seat (scripts/other_seats.py)
PLAY = DEFAULT_PLAY  # the play policy of every seat


def dataset_dir(data: str | Path) -> Path:
    """This analysis's dataset directory: ``DATA/../dd_study``, spelled as relative as ``DATA``."""
    return Path(os.path.normpath(os.path.join(data, os.pardir, DATASET)))


def provenance(manifest: dict[str, Any]) -> dict[str, str]:
    """Provenance lines of the report beyond the standard ones: commit, solver, node limit, time."""
    meta: dict[str, str] = {}
    rev = git_revision()
    if rev:
        meta["code (git commit)"] = rev
    dd = manifest.get("dd") or {}
    meta["double-dummy solver"] = f"version {dd.get('solver_version', SOLVER_VERSION)}"
    if isinstance(dd.get("node_limit"), int):
        meta["node limit"] = f"{dd['node_limit']:,} card plays per solve"
    worked = [s for s in manifest.get("sessions") or [] if s.get("deals")]
    if worked:
        wall = sum(s.get("wall_s") or 0.0 for s in worked)
        on = ", ".join(sorted({str(s.get("executor")) for s in worked}))
        many = f" in {len(worked)} sessions" if len(worked) > 1 else ""
        meta["simulation time"] = f"{wall:,.0f} s wall{many} on {on}"
    return meta


def run(
    data: str | Path,
    out: str | Path,
    command: str,
    deals: int = DEALS,
    seed: int = SEED,
    node_limit: int = DEFAULT_NODE_LIMIT,
    threads: int | None = None,
    progress: bool = True,
) -> tuple[list[Path], Any]:
    """Simulate (or reuse) the dd dataset next to ``data``, then write its report to ``out/dd``.

    Returns the files written and the table of unsolved solves (``dd_unsolved``)."""
    rules = Rules()
    target = dataset_dir(data)
    if discard_stale_run(target):
        print(f"dd_study: {target} was written by other engine code: simulating again",
              file=sys.stderr, flush=True)
    manifest = simulate(
        target,
        deals=deals,
        seed=seed,
        rules=rules,
        bid=(POLICY,) * rules.players,
        play=(PLAY,) * rules.players,
        threads=threads,
        resume=True,
        progress=progress,
        dd=True,
        dd_node_limit=node_limit,
    )
    if manifest.get("status") != "complete":
        raise SimulationError(f"the run in {target} did not complete "
                              f"(status {manifest.get('status')})")
    tally = tally_dataset(target, progress=progress)
    report = build_report(tally, title=TITLE, source=target.as_posix(), command=command,
                          extra_meta=provenance(manifest))
    written = write_report(report, Path(out) / NAME, FORMATS, dpi=DPI)
    return written, dd_unsolved(tally)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/default",
                        help="default dataset directory (the dd dataset goes to DATA/../dd_study)")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--deals", type=int, default=DEALS, help=f"deals (default {DEALS:,})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"run seed (default {SEED})")
    parser.add_argument("--node-limit", type=int, default=DEFAULT_NODE_LIMIT,
                        help=f"most card plays per double-dummy solve "
                             f"(default {DEFAULT_NODE_LIMIT:,})")
    parser.add_argument("--threads", type=int, default=None, help="threads (default: every CPU)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    target = dataset_dir(args.data)
    try:
        written, unsolved = run(
            args.data,
            args.out,
            command_line(__file__, raw),
            deals=args.deals,
            seed=args.seed,
            node_limit=args.node_limit,
            threads=args.threads,
            progress=not args.no_progress,
        )
    except SimulationError as e:
        hint = (f"\n(to start over, delete {target} or choose another --data)"
                if target.is_dir() else "")
        print(f"dd_study: {e}{hint}", file=sys.stderr)
        return 1
    except (DatasetError, ReportError) as e:
        print(f"dd_study: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\ndd_study: interrupted; run it again to resume", file=sys.stderr)
        return 130
    left = "; ".join(f"{o} {int(r.unsolved):,} of {int(r.n):,}" for o, r in unsolved.iterrows())
    print(f"dd_study: unsolved solves (over the node limit of {args.node_limit:,}): {left}")
    print(f"dd_study: wrote {len(written)} files to {Path(args.out) / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
