"""``whist-sim bid-chart``: EV-optimal bids of many sampled hands, by hand class."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ...analyses.advisor import MODEL_BID_POLICIES
from ...analyses.advisor.bidchart import (
    DEFAULT_CHUNK,
    DEFAULT_DEALS_PER_HAND,
    DEFAULT_MIN_HANDS,
    ChartError,
    ChartOptions,
    bid_chart,
    write_chart_report,
)
from ...analyses.advisor.sampling import check_model
from ...analyses.answer_check import DEFAULT_CHECK_PLAY
from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from ...compiled.strategies.spec import StrategyError
from ...runs.executors import ExecutorError
from .options import (
    NamedPath,
    Parsed,
    check_options,
    checked_play,
    packed,
    progress_option,
    rule_options,
    show_progress,
)
from .seats import play_help, play_spec


@click.command("bid-chart")
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="hands drawn from the natural distribution and classed (one auction each); "
              "the first --min-hands of every class are evaluated [default: players x "
              "min-hands / 1e-4, enough for classes of probability 1e-4]")
@click.option("--min-hands", type=click.IntRange(min=1), default=DEFAULT_MIN_HANDS,
              show_default=True, help="hands evaluated per class (cell) of the chart")
@click.option("--deals", "--deals-per-hand", "deals_per_hand", type=click.IntRange(min=1),
              default=DEFAULT_DEALS_PER_HAND, show_default=True,
              help="sampled deals per evaluated hand (every legal bid is played on each)")
@click.option("--nt/--no-nt", default=True, show_default=True,
              help="also chart every hand played at no-trump (the NT panel)")
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=0, show_default=True,
              help="run seed")
@click.option("--out", required=True, type=NamedPath(file_okay=False),
              help="output directory: report.md, cells.csv, cheat_sheet_<P>p.pdf/.png, "
              "charts/*.png, hands.parquet (overwritten)")
@click.option("--bid", default=DEFAULT_BID, show_default=True, metavar="SPEC",
              help="bidding strategy of every seat (auction, earlier and later contracts): "
              f"NAME[:KEY=VALUE...], NAME one of {', '.join(MODEL_BID_POLICIES)}")
@click.option("--play", default=DEFAULT_PLAY, show_default=True, metavar="SPEC",
              help=play_help("play policy of every seat"))
@click.option("--consistent", is_flag=True,
              help="sample only deals in which the earlier bidders' strategy makes their bids")
@click.option("--chunk-size", type=click.IntRange(min=1), default=DEFAULT_CHUNK,
              show_default=True, help="hands per task")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="local threads [default: every CPU]; with --cluster local:N, per worker")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="run the tasks on a running Dask scheduler (tcp://host:8786)")
@click.option("--cluster", default=None, metavar="local:N",
              help="start a local Dask cluster of N worker processes for this run")
@click.option("--parquet/--no-parquet", default=True, show_default=True,
              help="also write the per-hand results to hands.parquet")
@check_options(unit="sampled deals per checked hand",
               default_rule="as few as spread a checked cell's share of the check's budget, "
               "2 x the chart's own work, over its hands; at least 2")
@progress_option()
@click.option("--resume", is_flag=True,
              help="finish the chart interrupted in --out (same options required): its "
                   "finished tasks, kept in OUT/chunks, are not played again")
@click.option("--json", "as_json", is_flag=True,
              help="print the run and its summary table as one JSON object on stdout "
                   "(whist-sim docs json)")
@rule_options
@packed
def command(o: Parsed) -> None:
    """Bid charts: the contract with the highest expected score by hand class (bidding
    position x high-card points x trump length, and an NT panel). Hands come from deals bid
    up to the contracts; --hands of them are classed and the first --min-hands of every class
    are evaluated on --deals sampled deals each. Writes a Markdown report, cells.csv, heat maps
    and a printable A4 cheat sheet (PNG, PDF) to --out.

    Unless --no-check: the cells whose top two bids are close are played again under --check
    (a searching play; their first hands, the two bids only), at most twice the chart's own
    work; the others are screened, each with its reason. Every cell gets a verdict (confirmed,
    not contradicted, contradicted, screened), and the moved cells are marked in the report,
    the charts and the cheat sheet.
    """
    hands, min_hands, deals_per_hand, nt, seed, out = (o.hands, o.min_hands, o.deals_per_hand,
                                                      o.nt, o.seed, o.out)
    threads, scheduler, cluster, parquet, check_deals = (o.threads, o.scheduler, o.cluster,
                                                         o.parquet, o.check_deals)
    consistent, progress, as_json, rules = o.consistent, o.progress, o.as_json, o.rules
    if scheduler is not None and cluster is not None:
        raise click.UsageError("give --scheduler or --cluster, not both")
    try:
        bid = check_model(o.bid, chart=True)
    except StrategyError as e:
        raise click.BadParameter(str(e), param_hint="--bid") from None
    play = play_spec(o.play, "--play").text
    check_play = checked_play(o.check, o.no_check, check_deals)
    _lock_out(out)
    _check_out(out)
    try:
        from ...compiled.ground._numba import ENGINE_COMPILE_NOTICE, compile_notice

        with compile_notice(lambda m: click.echo(m, err=True), ENGINE_COMPILE_NOTICE):
            options = ChartOptions(
                hands=hands, deals_per_hand=deals_per_hand, seed=seed, rules=rules, bid=bid,
                play=play, consistent=consistent, chunk_size=o.chunk_size, threads=threads,
                scheduler=scheduler, cluster=cluster, min_hands=min_hands, nt=nt,
                checkpoint=Path(out) / "chunks", resume=o.resume)
            df = bid_chart(options, progress=show_progress(progress))
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: every finished task is kept in {out}/chunks; run the same "
                   "command with --resume to finish", err=True)
        sys.exit(130)
    except (ChartError, ExecutorError) as e:
        raise click.ClickException(str(e)) from None
    checked = None
    if check_play is not None and len(df):
        checked = _check(df, check_play, check_deals, rules, show_progress(progress), threads)
    changes = rules.flags()
    for note in df.attrs["coverage"]:
        click.echo(f"bid-chart: {note}", err=True)
    command_text = (f"whist-sim bid-chart --hands {df.attrs['hands']} --min-hands {min_hands} "
                    f"--deals {deals_per_hand} --seed {seed} --bid {bid} --play {play}"
                    + ("" if nt else " --no-nt")
                    + (" --consistent" if consistent else "") + (f" {changes}" if changes else "")
                    + (" --no-check" if check_play is None else
                       (f" --check {check_play}" if check_play != DEFAULT_CHECK_PLAY else "")
                       + (f" --check-deals {check_deals}" if check_deals else "")))
    try:
        written = write_chart_report(df, out, command=command_text, rules=rules, parquet=parquet,
                                     check=checked)
    except OSError as e:
        raise click.ClickException(f"cannot write to {out}: {e}") from None
    a = df.attrs
    if as_json:
        from ...analyses.advisor.bidchart import chart_tables
        from ._json import echo_json

        echo_json({
            "command": "bid-chart",
            "out": out,
            "hands": int(df["hand_index"].nunique()),  # hands evaluated (in one panel or two)
            "evaluations": len(df),  # (hand, panel) rows: a hand in its suit and at NT
            "hands_screened": a["hands"],
            "min_hands": min_hands,
            "deals_per_hand": deals_per_hand,
            "nt": nt,
            "coverage": a["coverage"],
            "seed": seed,
            "bid": bid,
            "play": play,
            "consistent": consistent,
            "rules": rules.to_dict(),
            "wall_s": a["wall_s"],
            "hands_per_s": int(df["hand_index"].nunique()) / max(a["wall_s"], 1e-9),
            "hand_evaluations_per_s": len(df) / max(a["wall_s"], 1e-9),
            "executor": a["executor"],
            "summary": chart_tables(df, rules.players)["summary"] if len(df) else [],
            "written": [str(p) for p in written],
            **({} if checked is None else {"check": _check_json(checked)}),
        })
        return
    if checked is not None:
        from ...analyses.advisor.chart_check import verdict_counts
        from ...analyses.answer_check import check_label

        click.echo(f"checked against {check_label(checked.attrs['play'], play)}: "
                   f"{verdict_counts(checked)} (marked in the report)")
    click.echo(
        f"{a['hands']:,} hands classed, {len(df):,} evaluated x {deals_per_hand:,} deals in "
        f"{a['wall_s']:.1f} s ({len(df) / max(a['wall_s'], 1e-9):,.0f} hand evaluations/s, "
        f"{a['executor']}); {len(written)} files written to {out}"
    )


def _check(df, play: str, deals: int | None, rules, progress: bool, threads: int | None):
    """The chart checked against search, with a progress bar over the checked hands and words
    on stderr while its searching loop compiles (or another process compiles it)."""
    from ...analyses.advisor.chart_check import check_chart, check_workload
    from ...compiled.ground._numba import ENGINE_COMPILE_NOTICE, compile_notice

    with compile_notice(lambda m: click.echo(m, err=True), ENGINE_COMPILE_NOTICE):
        if not progress:
            return check_chart(df, play, rules, deals_per_hand=deals, threads=threads)
        from tqdm import tqdm

        with tqdm(total=check_workload(df, deals), unit="hand", desc="check", file=sys.stderr,
                  leave=False) as bar:
            return check_chart(df, play, rules, deals_per_hand=deals, on_hand=bar.update,
                               threads=threads)


def _check_json(checked) -> dict:
    """The JSON ``check`` object of a checked chart (docs/ADVISOR.md)."""
    import math

    def num(v):
        return None if isinstance(v, float) and math.isnan(v) else v

    from ...analyses.advisor.chart_check import SCREENED

    a = checked.attrs
    words = checked["verdict"].value_counts()
    return {
        "play": a["play"], "hands_per_cell": a["hands"], "deals_per_hand": a["deals_per_hand"],
        "deals": a["samples"], "budget": a["budget"], "holds": bool(checked["holds"].all()),
        "verdicts": {str(k): int(v) for k, v in words.items()},
        "cells_checked": int((checked["verdict"] != SCREENED).sum()),
        "cells_screened": int((checked["verdict"] == SCREENED).sum()),
        "cells_moved": int(checked["moved"].sum()),
        "cells": [{k: num(v.item() if hasattr(v, "item") else v) for k, v in r.items()}
                  for r in checked.to_dict(orient="records")],
    }


#: what a bid chart writes into --out (a folder holding only these may be written again)
_CHART_FILES = {"report.md", "charts", "hands.parquet", "cells.csv", "check.csv", "chunks",
                "cheat_sheet_3p.png", "cheat_sheet_3p.pdf", "cheat_sheet_4p.png",
                "cheat_sheet_4p.pdf"}


def _lock_out(out: str) -> None:
    """Hold --out's lock (created when missing) until the command ends: a second bid chart on
    the folder (a --resume started meanwhile) is refused at once, naming the running one. The
    temporary files a killed run left there go (no one else writes the folder)."""
    from ...runs.dataset import remove_temp_files
    from ...runs.lock import FolderLock, FolderLockError

    try:
        lock = FolderLock(out, "whist-sim bid-chart", create=True).acquire()
    except FolderLockError as e:
        raise click.BadParameter(str(e), param_hint="--out") from None
    click.get_current_context().call_on_close(lock.release)
    for where in (Path(out), Path(out) / "charts"):
        remove_temp_files(where)


def _check_out(out: str) -> None:
    """--out must be new, empty, or an earlier bid chart: never mix a chart into other files."""
    from ...runs.dataset import LOCK_NAME

    path = Path(out)
    if path.is_dir():
        others = sorted(p.name for p in path.iterdir()
                        if p.name not in _CHART_FILES and p.name != LOCK_NAME)
        if others:
            shown = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
            raise click.BadParameter(
                f"{out} holds other files ({shown}): give a new or empty folder, or an earlier "
                "bid chart's", param_hint="--out")
