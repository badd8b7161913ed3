"""``whist-sim tournament``: a duplicate tournament between bidding strategies."""

from __future__ import annotations

import shlex
import sys

import click

from ...analyses.tournament import (
    DESIGNS,
    OUTPUT_FORMATS,
    TournamentError,
    render_json,
    render_text,
    tournament,
)
from ...analyses.tournament.options import TournamentOptions
from ...compiled.strategies.registry import DEFAULT_PLAY
from ...compiled.strategies.spec import StrategyError, spec_help
from ...core.rng import MAX_DEALS
from ...core.rules import RulesError
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
from .seats import play_help, play_spec, seat_spec


def _command_line(ctx: click.Context) -> str:
    """The command as typed, rebuilt from the parsed options (those not at their default)."""
    words = ["whist-sim", "tournament"]
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name not in ctx.params:
            continue
        value = ctx.params[param.name]
        if value is None or value == param.default or param.name == "progress":
            continue
        if param.is_flag and not param.secondary_opts:
            if value:  # an on/off flag is in the command line only when given
                words.append(param.opts[0])
        elif param.is_flag:
            words.append(param.opts[0] if value else param.secondary_opts[0])
        else:
            words += [param.opts[0], shlex.quote(str(value))]
    return " ".join(words)


@click.command("tournament")
@click.option(
    "--strategies", required=True, metavar="A,B[,C,D]",
    help="entrants, comma separated (2 to one per seat; the same one may appear twice); each a "
    "bidding strategy BID that plays --play, or BID/PLAY with its own play policy, e.g. "
    "heuristic/heuristic,heuristic/random or montecarlo:n=16,hcp. BID and PLAY are specs "
    "NAME[:KEY=VALUE...]; strategies: " + spec_help("bid") + "; play policies: "
    + spec_help("play") + ". Fewer than the seats: seats are filled cyclically (a,b,a,b)",
)
@click.option("--deals", type=click.IntRange(1, MAX_DEALS), default=None,
              help="duplicate deals; each is played once per seating [required, unless --games "
                   "is given: then without --deals only the games are played]")
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), required=True,
              help="run seed; deal i uses the random stream (seed, i) under every seating")
@click.option("--play", default=DEFAULT_PLAY, show_default=True, metavar="SPEC",
              help=play_help("play policy of the entrants given as BID alone"))
@click.option("--rotations", default="all", show_default=True, metavar="all|4",
              help="every distinct seating, or the 4 rotations (3 with three players)")
@click.option("--sprt", default=None, metavar="A,B",
              help="sequential test of each difference: H0 diff = A vs H1 diff = B (points per "
              "deal), alpha = beta = 0.05; stop as soon as every pair is decided")
@click.option("--design", type=click.Choice(DESIGNS), default="duplicate", show_default=True,
              help="duplicate (replay each deal under every seating) or independent (fresh cards "
              "for every play; the baseline)")
@click.option("--games", type=click.IntRange(min=0), default=0, show_default=True,
              help="also play this many duplicate games to --target (RULES §7) under every "
              "seating: each entrant's probability of winning a game and mean final margin "
              "(95%% CIs), beside the points per deal")
@click.option("--game-max-deals", type=click.IntRange(min=1), default=1000, show_default=True,
              help="a game not ended after this many deals is won by nobody")
@click.option("--json", "as_json", is_flag=True, help="print the summary as one JSON object")
@click.option("--out", required=True, type=NamedPath(file_okay=False),
              help="output directory (new or empty): scores/*.parquet, summary.json, report.md, "
              "tournament.png")
@click.option("--format", "formats", default="md", show_default=True, metavar="md[,csv,html]",
              help="outputs besides summary.json: md (report.md and tournament.png), csv "
              "(tables/*.csv), html (report.html); comma separated, any of "
              + ", ".join(OUTPUT_FORMATS))
@rule_options
@click.option("--chunk-size", type=click.IntRange(min=1), default=None,
              help="deals per task [default: about 240,000 plays per task]")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="local threads [default: every CPU]; with --cluster local:N, threads per worker")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="run the chunks on a running Dask scheduler (tcp://host:8786)")
@click.option("--cluster", default=None, metavar="local:N",
              help="start a local Dask cluster of N worker processes for this run")
@check_options(default_rule="enough to see 2 points per deal between every pair with 80% "
               "power, capped at 3 times the tournament's cost, at most the deals played")
@progress_option()
@click.option("--resume", is_flag=True,
              help="finish the interrupted tournament in --out (same options required)")
@packed
def command(o: Parsed) -> None:
    """Play a duplicate tournament: every deal replayed with the strategies rotated through the
    seats, so card luck cancels. Reports each strategy's mean score per deal (95% CI), hit,
    zero and over/under rates, and every pair's mean difference with CI and p-value.

    Entrants are printed BID/PLAY (heuristic/expert). With --games and no --deals, only the
    games are played.

    Unless --no-check: the first deals are played again with every entrant given as BID alone
    playing --check (a searching play), and the report sets the ranking and every pair's
    difference under both plays side by side, each with its verdict: confirmed, not
    contradicted (with the difference the check could have seen) or contradicted.

    Example: whist-sim tournament --strategies heuristic,hcp,ltc,cautious --deals 100000
    --seed 1 --out runs/t1
    """
    rules = o.rules
    if o.scheduler is not None and o.cluster is not None:
        raise click.UsageError("give --scheduler or --cluster, not both")
    if o.deals is None and not o.games:
        raise click.UsageError("give --deals N (duplicate deals), or --games N (games to the "
                               "target), or both")
    names = [s.strip() for s in o.strategies.split(",")]
    if any(not n for n in names):
        raise click.BadParameter(f"empty name in {o.strategies!r}", param_hint="--strategies")
    for n in names:
        seat_spec(n, "--strategies")
    play = play_spec(o.play, "--play").text
    check_play = checked_play(o.check, o.no_check, o.check_deals)
    if len(names) < 2:
        raise click.BadParameter(
            "a tournament needs at least two strategies (name one twice to compare it with "
            "itself, e.g. heuristic,heuristic)", param_hint="--strategies")
    if len(names) > rules.players:
        raise click.BadParameter(
            f"{len(names)} strategies for {rules.players} seats (--players {rules.players}): "
            f"name at most {rules.players}", param_hint="--strategies")
    options = TournamentOptions(
        names, o.deals or 0, o.seed, rules=rules, play=play, rotations=o.rotations,
        sprt=o.sprt, out=o.out, design=o.design, chunk_size=o.chunk_size, threads=o.threads,
        scheduler=o.scheduler, cluster=o.cluster, formats=o.formats, games=o.games,
        game_max_deals=o.game_max_deals, resume=o.resume, check=check_play,
        check_deals=o.check_deals)
    cmd = _command_line(click.get_current_context())
    from ...compiled.ground._numba import ENGINE_COMPILE_NOTICE, compile_notice

    try:
        with compile_notice(lambda m: click.echo(m, err=True), ENGINE_COMPILE_NOTICE):
            summary = tournament(options=options, progress=show_progress(o.progress),
                                 command=cmd)
    except KeyboardInterrupt:
        click.echo(f"\ninterrupted: every finished chunk in {o.out} is kept; run the same "
                   "command with --resume to finish", err=True)
        sys.exit(130)
    except (TournamentError, StrategyError, ExecutorError, RulesError) as e:
        raise click.ClickException(str(e)) from None
    if o.as_json:
        click.echo(render_json(summary))
        return
    click.echo(render_text(summary, o.out))
