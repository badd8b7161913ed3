"""Analysis: the standard report of the default run, written to RESULTS/default/.

    python scripts/report_default.py --data data/default --out results

Reads the dataset made by ``scripts/run_default.py`` (``make run``) one chunk at a time and writes
``RESULTS/default/report.md`` with its PNG charts (``charts/``) and CSV tables (``tables/``),
with the "Play model" section when the companion run under heuristic play
(``DATA/../default_heuristic``, made by ``run_default.py``) is there. The report opens with a
summary in sentences, names seats by position and the rules in words, and ends with a glossary
of its terms (docs/REPORTS.md); charts and tables it no longer writes are removed.
Everything is computed by :mod:`whist_sim.analyses.reports`; this script only chooses the title, the
sub-directory and the provenance line.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from whist_sim.analyses.reports import ReportError, build_report, tally_dataset, write_report
from whist_sim.runs.dataset import DatasetError

NAME = "default"  # sub-directory of the results directory
TITLE = "Israeli Whist: the default run"
FORMATS = ("md", "png", "csv")  # committed to results/: small files only (no HTML with images)
DPI = 100
COMPANION_PLAY = "heuristic"  # the play policy of the companion run (the report's comparison)
COMPANION = "default_heuristic"  # its dataset directory, next to the default dataset
CHECK = "default_check"  # the check run's dataset directory (searching play), next to it
# the paired zero-bid table: a small stratified bid chart, a few seconds
ZERO_HANDS = 300_000  # hands classed
ZERO_MIN_HANDS = 30  # hands evaluated per class (non-declarers)
ZERO_DEALS = 40  # deals per hand


def companion_dir(data: str | Path) -> Path:
    """The companion dataset: ``DATA/../default_heuristic``, spelled as relative as ``DATA``."""
    return Path(os.path.normpath(os.path.join(data, os.pardir, COMPANION)))


def check_dir(data: str | Path) -> Path:
    """The check run's dataset: ``DATA/../default_check``, spelled as relative as ``DATA``."""
    return Path(os.path.normpath(os.path.join(data, os.pardir, CHECK)))


def git_revision() -> str | None:
    """The repository's commit (short hash), marked when the code that makes results (whist_sim/,
    scripts/) has uncommitted changes; ``None`` outside a git checkout."""
    root = Path(__file__).resolve().parent.parent
    try:
        rev = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root, check=True,
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "whist_sim", "scripts"],
                               cwd=root, check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return f"{rev} (with uncommitted changes in whist_sim/ or scripts/)" if dirty else rev


def write_default_report(
    data: str | Path, out: str | Path, command: str, progress: bool = True,
    companion: tuple[str, str | Path] | None = None, label: str | None = None,
    check: tuple[str, str | Path] | None = None,
) -> list[Path]:
    """Tally the dataset ``data`` and write its report to ``out/default``; return the files.

    ``companion``: ``(label, dataset)`` of the same deals under another play policy, for the
    report's "Play model" section (``label`` names ``data`` there). ``check``: ``(play,
    dataset)`` of the check run (the first deals under a searching play): the section "Checked
    against search", the zero bids against both fields, and ``check.json`` (the JSON ``check``
    object, :func:`whist_sim.analyses.reports.report_check_section.check_object`)."""
    tally = tally_dataset(data, progress=progress)
    rev = git_revision()
    extra = {"code (git commit)": rev} if rev else {}
    compare = None
    if companion is not None:
        other = tally_dataset(companion[1], progress=progress)
        compare = (companion[0], other)
        seats = (f"{other.policies[0]} at every seat" if len(set(other.policies)) == 1
                 else "by seat " + ", ".join(other.policies))
        extra["companion dataset"] = f"{companion[1]} ({companion[0]} play; {seats})"
    checked = None
    if check is not None:
        checked = (check[0], tally_dataset(check[1], progress=progress))
        extra["check dataset"] = (f"{check[1]} ({check[0]} play at every seat, the first "
                                  f"{checked[1].n_deals:,} deals)")
    report = build_report(tally, title=TITLE, source=str(data), command=command,
                          extra_meta=extra or None, compare=compare, label=label,
                          zero_paired=paired_zero(tally), check=checked)
    target = Path(out) / NAME
    written = write_report(report, target, FORMATS, dpi=DPI)
    _remove_stale(target, written)
    if checked is not None:
        import json

        from whist_sim.analyses.reports.report_check_section import check_object

        path = target / "check.json"
        names = sorted(set(tally.policies))
        mine = label or (names[0] if len(names) == 1 else ", ".join(tally.policies))
        obj = check_object(tally, checked[1], mine,
                           checked[0])
        path.write_text(json.dumps({"check": obj}, indent=1) + "\n")
        written.append(path)
    return written


def _remove_stale(target: Path, written: list[Path]) -> None:
    """Remove the charts and tables an earlier version of the report wrote and this one does
    not (a renamed or dropped chart must not linger beside the report)."""
    keep = {p.resolve() for p in written}
    for sub, ext in (("charts", "*.png"), ("tables", "*.csv")):
        for p in (target / sub).glob(ext):
            if p.resolve() not in keep:
                p.unlink()


def paired_zero(tally) -> tuple[object, str] | None:
    """The paired zero-bid table of the report's "Zero bids" section, under the dataset's rules,
    bidding and play (every seat alike; else ``None``), and a line saying how it was made."""
    from whist_sim.analyses.advisor.bidchart import ChartError, paired_zero_value
    from whist_sim.core.rules import Rules

    m = tally.manifest or {}
    src = m.get("policies", m)
    bid, play = src.get("bid"), src.get("play")
    if not (isinstance(bid, list) and isinstance(play, list)) or len(set(bid)) != 1 \
            or len(set(play)) != 1 or "rules" not in m:
        return None
    seed = int(m.get("seed", 0))
    try:
        table = paired_zero_value(Rules.from_dict(m["rules"]), bid[0], play[0], seed, ZERO_HANDS,
                                  ZERO_MIN_HANDS, ZERO_DEALS)
    except ChartError:
        return None
    how = (f"{table.attrs['evaluated']:,} hands ({ZERO_HANDS:,} classed by position, HCP and "
           f"trump length, up to {ZERO_MIN_HANDS} per class, weighted back to the natural "
           f"distribution) x {ZERO_DEALS} deals, {bid[0]} bidding, {play[0]} play, seed {seed}. "
           "The full charts: results/bid_chart.")
    return table, how


def command_line(script: str, argv: list[str]) -> str:
    """The command as the user typed it, with the script named relative to the repository."""
    return " ".join(["python", f"scripts/{Path(script).name}", *argv])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="data/default", help="dataset directory")
    parser.add_argument("--out", default="results", help="results directory")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    raw = sys.argv[1:] if argv is None else argv
    try:
        companion = companion_dir(args.data)
        checked = check_dir(args.data)
        check = None
        if checked.is_dir():
            m = tally_dataset(checked, progress=False).manifest or {}
            plays = (m.get("policies", m) or {}).get("play") or []
            check = (plays[0], checked) if len(set(plays)) == 1 else None
        written = write_default_report(
            args.data, args.out, command_line(__file__, raw), progress=not args.no_progress,
            companion=(COMPANION_PLAY, companion) if companion.is_dir() else None,
            check=check,
        )
    except (DatasetError, ReportError) as e:
        print(f"report_default: {e}\n(run `make run` first to simulate the default dataset)",
              file=sys.stderr)
        return 1
    print(f"report_default: wrote {len(written)} files to {Path(args.out) / NAME}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
