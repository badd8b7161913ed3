"""``whist-sim report``: tables and charts of a simulation dataset (Markdown, CSV, PNG, HTML)."""

from __future__ import annotations

from pathlib import Path

import click

from ...runs.dataset import DatasetError
from .options import NamedPath, progress_option, show_progress

# whist_sim.analyses.reports (pandas tables, matplotlib charts) is imported when the command runs,
# so the other commands of the CLI start without loading matplotlib.
FORMATS = ("md", "csv", "png", "html")


def _formats(ctx, param, value: str) -> tuple[str, ...]:
    from ...analyses.reports import ReportError, parse_formats

    try:
        return parse_formats(value)
    except ReportError as e:
        raise click.BadParameter(str(e)) from None


@click.command("report")
@click.argument("data", type=NamedPath(file_okay=False))
@click.option(
    "--out", "out", type=NamedPath(file_okay=False), default=None,
    help="report directory [default: DATA/report]",
)
@click.option(
    "--format", "formats", default=",".join(FORMATS), show_default=True, callback=_formats,
    help="comma-separated output formats: md, csv, png, html",
)
@click.option("--title", default=None, help="report title [default: whist-sim report: DATA]")
@click.option("--dpi", type=click.IntRange(50, 300), default=100, show_default=True,
              help="resolution of the PNG charts (dots per inch)")
@click.option("--partial", is_flag=True, help="report on the finished chunks of an unfinished run")
@progress_option("a progress bar over chunks on stderr")
@click.option("--json", "as_json", is_flag=True,
              help="print the headline numbers and the files written as one JSON object on "
                   "stdout (whist-sim docs json)")
def command(
    data: str,
    out: str | None,
    formats: tuple[str, ...],
    title: str | None,
    dpi: int,
    partial: bool,
    progress: bool | None,
    as_json: bool,
) -> None:
    """Report on the simulation dataset in DATA (a directory written by `whist-sim simulate`).

    Reads the dataset one chunk file at a time and only the columns it needs, so runs larger than
    memory work. Writes report.md, tables/*.csv, charts/*.png and a self-contained report.html
    into --out, and prints the headline numbers. A dataset made with `simulate --dd` also gets a
    "Double dummy" section.
    """
    from ...analyses.reports import (
        ReportError,
        build_report,
        dd_summary,
        markdown_table,
        summary,
        tally_dataset,
        write_report,
    )
    from ...runs.lock import FolderLock, FolderLockError

    out_dir = Path(out) if out is not None else Path(data) / "report"
    if Path(data).is_dir():  # else reading DATA fails first, saying why, and nothing is written
        # one writer per folder, held until the command ends: a second report into the same
        # folder is refused at once, naming the running one
        try:
            lock = FolderLock(out_dir, "whist-sim report", create=True).acquire()
        except FolderLockError as e:
            raise click.ClickException(str(e)) from None
        click.get_current_context().call_on_close(lock.release)
    try:
        tally = tally_dataset(data, partial=partial, progress=show_progress(progress))
        if tally.n_deals == 0:
            raise click.ClickException(f"{data}: the dataset has no finished chunk to report on")
        report = build_report(
            tally,
            title=title or f"whist-sim report: {data}",
            source=data,
            command=f"whist-sim report {data}"
            + (f" --out {out}" if out else "")
            + (" --partial" if partial else "")
            + f" --format {','.join(formats)}",
        )
        written = write_report(report, out_dir, formats, dpi=dpi)
    except (DatasetError, ReportError, OSError) as e:
        raise click.ClickException(str(e)) from None
    if as_json:
        from ._json import echo_json

        echo_json({
            "command": "report",
            "data": data,
            "out": str(out_dir),
            "deals": tally.n_deals,
            "players": tally.players,
            "summary": summary(tally),
            "dd_summary": dd_summary(tally) if tally.has_dd else None,
            "written": [str(p) for p in written],
        })
        return
    click.echo(markdown_table(summary(tally), tally.players))
    if tally.has_dd:
        click.echo("\nDouble dummy (unsolved solves count only where their proved bounds "
                   "decide a comparison):\n")
        click.echo(markdown_table(dd_summary(tally), tally.players))
    click.echo(f"\nwrote {len(written)} files to {out_dir}")
    for p in written:
        if p.suffix in (".md", ".html"):
            click.echo(f"  {p}")
