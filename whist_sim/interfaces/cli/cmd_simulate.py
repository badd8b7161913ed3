"""``whist-sim simulate``: play N deals in parallel chunks into a Parquet dataset + manifest."""

from __future__ import annotations

import logging
import sys

import click

from ...compiled.strategies.registry import DEFAULT_PLAY
from ...compiled.strategies.seating import Seating
from ...compiled.strategies.spec import default_play
from ...core.rules import RulesError
from ...runs.dataset import MAX_CHUNKS, DatasetError
from ...runs.executors import ExecutorError
from ...runs.simulate import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_DD_CHUNK_SIZE,
    DEFAULT_DD_NODE_LIMIT,
    DEFAULT_POLICY,
    MAX_DEALS,
    RunOptions,
    SimulationError,
    simulate,
)
from .options import (
    RULES_FILE_META,
    NamedPath,
    Parsed,
    packed,
    progress_option,
    rule_options,
    show_progress,
)
from .seats import bid_help, per_seat, play_help, play_spec, seat_spec, split_list


@click.command("simulate")
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), required=True,
              help="number of deals to play")
@click.option(
    "--seed", type=click.IntRange(0, (1 << 64) - 1), required=True,
    help="run seed; deal i uses the random stream (seed, i)",
)
@click.option(
    "--policy", default=None, metavar="SEAT",
    help=bid_help(f"the seat of every player, BID or BID/PLAY (e.g. montecarlo:n=8/heuristic) "
                  f"[default: {DEFAULT_POLICY}, which plays {DEFAULT_PLAY}]"),
)
@click.option(
    "--seats", default=None, metavar="SEAT,SEAT,...",
    help="one seat per player, BID or BID/PLAY, e.g. heuristic/heuristic,random/heuristic,hcp,ltc",
)
@click.option(
    "--play", default=None, metavar="SPEC",
    help=play_help(f"play policy of every seat given as BID alone [default: {DEFAULT_PLAY}; "
                   "random plays random]"),
)
@click.option("--play-seats", default=None, metavar="SPEC,SPEC,...",
              help="play policy per seat, comma separated")
@rule_options
@click.option(
    "--out", required=True, type=NamedPath(file_okay=False),
    help="output directory (new or empty; or the run to finish with --resume)",
)
@click.option(
    "--chunk-size", type=click.IntRange(min=1), default=None,
    help=f"deals per chunk file and per task [default: {DEFAULT_CHUNK_SIZE}; "
    f"with --dd {DEFAULT_DD_CHUNK_SIZE}, or fewer so that a small run has 16 chunks; more "
    f"when a run would have over {MAX_CHUNKS:,} chunks, its most]",
)
@click.option(
    "--threads", type=click.IntRange(min=1), default=None,
    help="local threads [default: every CPU]; with --cluster local:N, threads per worker",
)
@click.option("--resume", is_flag=True, help="finish the run in --out (same options required)")
@click.option("--store-dealt", is_flag=True, help="also store the hands as dealt (before Frisch)")
@click.option(
    "--dd", is_flag=True,
    help="also store each seat's double-dummy whist-max and whist-min for the deal's trump and "
    "leader (dd_max_s, dd_min_s and their bounds; four players only; slow, see whist-sim docs dd)",
)
@click.option(
    "--dd-node-limit", type=click.IntRange(min=1), default=None, metavar="N",
    help="with --dd: most card plays per double-dummy solve (about 10 million per second); a "
    f"solve over it is stored as -1 with its proved bounds [default: {DEFAULT_DD_NODE_LIMIT}]",
)
@click.option(
    "--dd-min-node-limit", type=click.IntRange(min=1), default=None, metavar="N",
    help="with --dd: whist-min's own node limit (whist-min of a full deal is rarely solved, so "
    "nearly every seat costs the whole limit: a lower one, e.g. 30000, makes a run several times "
    "faster and keeps the bounds proved) [default: --dd-node-limit]",
)
@click.option(
    "--scheduler", default=None, metavar="ADDRESS",
    help="run the chunks on a running Dask scheduler (tcp://host:8786); see whist-sim docs cluster",
)
@click.option(
    "--cluster", default=None, metavar="local:N",
    help="start a local Dask cluster of N worker processes for this run",
)
@progress_option()
@click.option("--json", "as_json", is_flag=True,
              help="print the run's summary as one JSON object on stdout (whist-sim docs json)")
@packed
def command(o: Parsed) -> None:
    """Play --deals deals into a Parquet dataset in --out: one file per chunk, plus the manifest
    (_manifest.parquet).

    The dataset depends only on the seed, rules and policies (not on chunk size, threads or
    workers). Ctrl-C keeps every finished chunk; run the same command with --resume to finish.
    Load the result with whist_sim.load(DIR).

    --dd adds double-dummy columns: each seat's whist-max and whist-min (whist-sim docs dd) for the
    hands at the start of play, the trump and the declarer on lead; at most 4 whist-max solves x
    --dd-node-limit card plays and 4 whist-min solves x --dd-min-node-limit per deal.
    """
    if o.policy is not None and o.seats is not None:
        raise click.UsageError("give --policy (all seats) or --seats (per seat), not both")
    if o.play is not None and o.play_seats is not None:
        raise click.UsageError("give --play (all seats) or --play-seats (per seat), not both")
    if o.scheduler is not None and o.cluster is not None:
        raise click.UsageError("give --scheduler or --cluster, not both")
    if o.dd_node_limit is not None and not o.dd:
        raise click.UsageError("--dd-node-limit needs --dd")
    if o.dd_min_node_limit is not None and not o.dd:
        raise click.UsageError("--dd-min-node-limit needs --dd")
    rules = o.rules
    if o.dd and rules.players != 4:
        raise click.BadParameter(
            f"double-dummy columns need four players (the 52-card deck), got --players "
            f"{rules.players}: the solver does not support the three-player variants (RULES §8)",
            param_hint="--dd",
        )
    out = o.out
    seating = _seating(o)  # the seats, parsed once: the run and its chunks take it as it is
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("whist-sim: %(message)s"))
    logger = logging.getLogger("whist_sim")
    logger.addHandler(handler)
    try:
        # the run's options, built (and checked) once from the parsed ones
        options = RunOptions(
            out, o.deals, o.seed, rules=rules, bid=seating, chunk_size=o.chunk_size,
            threads=o.threads, resume=o.resume, store_dealt=o.store_dealt,
            scheduler=o.scheduler, cluster=o.cluster, dd=o.dd, dd_node_limit=o.dd_node_limit,
            dd_min_node_limit=o.dd_min_node_limit,
            rules_file=click.get_current_context().meta.get(RULES_FILE_META),
        )
        manifest = simulate(options, progress=show_progress(o.progress),
                            notify=lambda msg: click.echo(msg, err=True))
    except KeyboardInterrupt:
        click.echo(
            f"\ninterrupted: every finished chunk in {out} is kept; run the same command with "
            "--resume to finish",
            err=True,
        )
        sys.exit(130)
    except (SimulationError, DatasetError, ExecutorError, RulesError) as e:
        raise click.ClickException(str(e)) from None
    except PermissionError as e:  # --resume would fail the same way: no hint to it
        raise click.ClickException(
            f"cannot write to {out}: {e.strerror or e} (choose another --out, or make it "
            "writable)") from None
    except Exception as e:
        # operational failures (lost workers or connections, disk full): not a bug, so no traceback
        if isinstance(e, OSError) and not _started(out):  # nothing written: no run to resume
            raise click.ClickException(
                f"cannot use {out}: {e.strerror or e}") from None
        if type(e).__module__.split(".")[0] in ("distributed", "dask") or isinstance(
            e, (OSError, TimeoutError)
        ):
            raise click.ClickException(
                f"the run stopped: {type(e).__name__}: {e}\nevery finished chunk in {out} is "
                "kept; run the same command with --resume to finish"
            ) from None
        raise
    finally:
        logger.removeHandler(handler)

    if o.as_json:
        _echo_summary(out, manifest)
        return
    t = manifest["timings"]
    dps = t.get("deals_per_s")
    # a --dd run solves a few deals a second: "0 deals/s" would say nothing
    rate = f", {dps:,.0f} deals/s" if dps and dps >= 10 else f", {dps:.2g} deals/s" if dps else ""
    click.echo(
        f"{manifest['deals_done']:,} deals in {manifest['n_chunks']} chunk(s) written to {out} "
        f"({t['wall_s']:.1f} s{rate})"
    )
    counts = manifest["sessions"][-1].get("dd") if manifest.get("sessions") else None
    if counts:
        n, u = counts["solves"], counts["unsolved"]
        limit = manifest["dd"]["node_limit"]
        min_limit = manifest["dd"].get("min_node_limit", limit)
        limits = (f"the node limit of {limit:,} card plays" if min_limit == limit else
                  f"the node limits of {limit:,} / {min_limit:,} card plays")
        click.echo(
            f"double dummy: {n:,} solves per objective in this session; unsolved (over "
            f"{limits}, stored as -1 with bounds): whist-max {u['whist-max']:,}, whist-min "
            f"{u['whist-min']:,}"
        )


def _seating(o: Parsed) -> Seating:
    """The seats of ``--policy`` / ``--seats`` and ``--play`` / ``--play-seats``, parsed."""
    p = o.rules.players
    if o.seats is not None:
        items = per_seat(split_list(o.seats) or (), "--seats", p)
        seat_specs = [seat_spec(item, "--seats", s) for s, item in enumerate(items)]
    else:
        text = o.policy if o.policy is not None else DEFAULT_POLICY
        seat_specs = [seat_spec(text, "--policy", 0)] * p
    if o.play_seats is not None:
        plays = per_seat(split_list(o.play_seats) or (), "--play-seats", p)
        if any(q is not None for _, q in seat_specs):
            raise click.UsageError(
                "give the play per seat once: in --seats (BID/PLAY) or in --play-seats, not both"
            )
        play_specs = [play_spec(q, "--play-seats", s) for s, q in enumerate(plays)]
    else:
        given = play_spec(o.play, "--play") if o.play is not None else None
        play_specs = [q if q is not None else given if given is not None else default_play(b)
                      for b, q in seat_specs]
    return Seating(tuple(b for b, _ in seat_specs), tuple(play_specs))


def _started(out: str) -> bool:
    """Has a run written its manifest in ``out`` (so that ``--resume`` can finish it)?"""
    from ...runs.dataset import manifest_path

    try:
        return manifest_path(out) is not None
    except (OSError, ValueError):
        return False


def _echo_summary(out: str, manifest: dict) -> None:
    """``--json``: the run's summary (whist-sim docs json); the manifest holds the full record."""
    from ._json import echo_json

    session = manifest["sessions"][-1] if manifest.get("sessions") else {}
    echo_json({
        "command": "simulate",
        "out": out,
        "status": manifest["status"],
        "seed": manifest["seed"],
        "deals": manifest["deals"],
        "deals_done": manifest["deals_done"],
        "chunk_size": manifest["chunk_size"],
        "n_chunks": manifest["n_chunks"],
        "rules": manifest["rules"],
        "rules_file": session.get("rules_file"),
        "bid": manifest["bid"],
        "play": manifest["play"],
        "store_dealt": manifest["store_dealt"],
        "dd": manifest.get("dd"),
        "session": {
            "deals": session.get("deals"),
            "wall_s": session.get("wall_s"),
            "deals_per_s": session.get("deals_per_s"),
            "executor": session.get("executor"),
            "dd": session.get("dd"),
        },
        "timings": manifest["timings"],
        "package_version": manifest.get("package_version"),
    })
