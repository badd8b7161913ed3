"""``whist-sim export``: a simulation dataset's deals, or a recorded deal or game, as a PBN file."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ...core.cards import NotationError
from .options import NamedPath, progress_option, rule_options, show_progress


@click.command("export")
@click.argument("data", type=NamedPath())  # a dataset folder or a record file
@click.option("--pbn", "pbn_out", required=True, metavar="FILE",
              type=NamedPath(dir_okay=False, allow_dash=True),
              help="write a PBN file (one board per deal; '-' = standard output)")
@click.option("--hands", type=click.Choice(["auto", "dealt", "play"]), default="auto",
              show_default=True,
              help="the hands in each Deal tag: as dealt (needs simulate --store-dealt), at the "
                   "start of play (after Frisch), or auto: dealt when stored, else play")
@click.option("--start", type=click.IntRange(min=0), default=0, show_default=True,
              help="first deal index to export")
@click.option("--count", type=click.IntRange(min=0), default=None,
              help="number of deals to export [default: to the end]")
@click.option("--event", default=None, help="the Event tag [default: whist-sim DATA]")
@click.option("--partial", is_flag=True, help="export the finished chunks of an unfinished run")
@progress_option()
@rule_options
def command(data, pbn_out, hands, start, count, event, partial, progress, rules):
    """Export the deals of the dataset in DATA (written by `whist-sim simulate`) as a PBN file;
    or, when DATA is a JSON record file (a deal from `deal --json`, a game from `game --json`),
    that whole record: calls, Frisch passes, contracts and play, which `replay FILE.pbn` reads
    back (the rule options are for a record without its own).

    One board per deal, in deal order: Board = deal index + 1, Dealer, and the Deal tag with
    whist-sim seats 0, 1, 2, 3 as N, E, S, W (three-player deals have W as '-'); the outcome is in
    the Whist* tags (WhistSeed, WhistDeal, WhistHands, WhistTrump, WhistDeclarer, WhistContracts,
    WhistTricks, WhistScores; whist-sim docs pbn). Bridge tools (endplay, DDS front ends) read
    the file.

    Example: whist-sim export runs/a --pbn a.pbn --count 1000
    """
    from ...runs.dataset import DatasetError
    from ...runs.export import ExportError, export_pbn, export_record_pbn

    if not Path(data).exists():
        raise click.ClickException(f"{data}: no such dataset folder or record file")
    if Path(data).is_file():
        from ...engine.record import RecordError

        try:
            n = export_record_pbn(data, sys.stdout if pbn_out == "-" else pbn_out, rules)
        except (RecordError, ExportError, NotationError) as e:
            raise click.ClickException(f"{data}: {e}") from None
        except OSError as e:
            raise click.ClickException(f"cannot write {pbn_out}: {e.strerror or e}") from None
        if pbn_out != "-":
            click.echo(f"{n:,} board(s) written to {pbn_out}", err=True)
        return
    progress = show_progress(progress)
    try:
        if pbn_out == "-":
            n = export_pbn(data, sys.stdout, hands=hands, start=start, count=count,
                           partial=partial, event=event, progress=progress)
        else:
            n = export_pbn(data, pbn_out, hands=hands, start=start, count=count,
                           partial=partial, event=event, progress=progress)
    except KeyboardInterrupt:
        click.echo("\ninterrupted: nothing written", err=True)
        sys.exit(130)
    except (DatasetError, ExportError, NotationError) as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        if pbn_out == "-":
            raise  # standard output: the command line's own handling (a closed pipe is quiet)
        raise click.ClickException(f"cannot write {pbn_out}: {e.strerror or e}") from None
    if pbn_out != "-":
        click.echo(f"{n:,} boards written to {pbn_out}", err=True)
