"""``whist-sim deal``: play one deal and show it (RULES §2-§6, §10)."""

from __future__ import annotations

import json

import click

from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from ...compiled.strategies.spec import (
    PlaySpec,
    StrategySpec,
    default_play,
    parse_play,
    play_names,
    seat_text,
)
from ...core.pbn import format_pbn
from ...engine.play import play_deal
from ...engine.policies import POLICIES
from ...engine.record import record_from_trace
from ...engine.seats import seat_policy
from ...engine.text import render_trace
from .options import rule_options
from .seats import bid_help, play_help, play_spec, seat_spec, split_list


def _seats(text: str, play: str | None, players: int) -> list[tuple[StrategySpec, PlaySpec]]:
    """``(bid, play)`` specs by seat from ``--policy`` (``P``, ``BID/PLAY``, or one per seat,
    comma separated) and ``--play`` (the cards of every seat given without ``/PLAY``; default:
    the play policy of the seat's name: ``--policy heuristic`` is the whole heuristic player, as
    the readable engine has it; else the default play)."""
    items = split_list(text) or ()
    one = len(items) == 1
    if one:
        items = items * players
    if len(items) != players:
        raise click.BadParameter(
            f"{len(items)} policies given; give one, or one per seat ({players})",
            param_hint="--policy",
        )
    given = play_spec(play, "--play") if play is not None else None
    seats = []
    for i, item in enumerate(items):
        bid, own = seat_spec(item, "--policy", seat=None if one else i)
        same = parse_play(bid.name) if bid.name in play_names() and not bid.params else None
        seats.append((bid, own or given or same or default_play(bid)))
    return seats


def _readable(bid: StrategySpec, play: PlaySpec) -> bool:
    """Can the reference engine choose this seat's moves itself?"""
    return not bid.params and not play.params and bid.name in POLICIES and play.name in POLICIES


@click.command("deal")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="run seed; the deal's random stream is (seed, deal)")
@click.option("--deal", "deal_index", type=click.IntRange(min=0), default=0, show_default=True,
              help="deal index in the run")
@click.option("--dealer", type=int, default=None,
              help="dealer seat [default: deal % players]")
@click.option("--policy", "policy", default=DEFAULT_BID, show_default=True, metavar="SEATS",
              help=bid_help("one seat for all, or one per seat (random,heuristic,random,"
                            "heuristic); a seat BID/PLAY takes its cards from PLAY, e.g. "
                            "heuristic/expert"))
@click.option("--play", default=None, metavar="SPEC",
              help=play_help("play policy of every seat given without /PLAY [default: the play "
                             "policy of the seat's name (random, heuristic, expert), else the "
                             f"default play, {DEFAULT_PLAY}]"))
@click.option("--json", "as_json", is_flag=True,
              help="print the deal as a JSON game record (RULES §10) that `replay` accepts")
@click.option("--pbn", "as_pbn", is_flag=True,
              help="print the deal as a PBN board (the hands as dealt; seats 0..3 = N, E, S, W) "
                   "that bridge tools read, with the calls, Frisch passes, contracts and play, "
                   "which `replay` reads back")
@rule_options
def command(seed, deal_index, dealer, policy, play, as_json, as_pbn, rules):
    """Play one deal and print it as a readable trace.

    Seats the readable reference engine has (random, heuristic, expert, no parameters) are
    played there; any other strategy or play policy (rollout, montecarlo, parameters) is played
    by the compiled engine and its moves replayed, each checked, through the reference engine."""
    if as_json and as_pbn:
        raise click.UsageError("give --json or --pbn, not both")
    p = rules.players
    if dealer is not None and not 0 <= dealer < p:
        raise click.BadParameter(f"seat {dealer} is not in 0..{p - 1}", param_hint="--dealer")
    seats = _seats(policy, play, p)
    names = [seat_text(b, None if q.name == b.name and not q.params else q) for b, q in seats]
    if all(_readable(b, q) for b, q in seats):
        trace = play_deal(seed, deal_index, rules, dealer=dealer,
                          policies=[seat_policy(b.name, q.name) for b, q in seats])
    else:  # the compiled engine chooses, the reference engine checks and renders
        if dealer is not None and dealer != deal_index % p:
            raise click.BadParameter(
                f"the compiled engine deals with dealer deal % players ({deal_index % p}); "
                f"--dealer needs seats the readable engine plays ({', '.join(sorted(POLICIES))} "
                "without parameters)", param_hint="--dealer")
        from ...runs.trace import compiled_trace

        trace = compiled_trace(seed, deal_index, rules, [b for b, _ in seats],
                               [q for _, q in seats])
    if as_pbn:  # the whole deal: calls, Frisch passes, contracts and play (docs/PBN.md)
        from ...engine.pbn_record import record_board

        record = record_from_trace(trace)
        record["policies"] = names
        board = record_board(record, board=deal_index + 1, event=f"whist-sim deal --seed {seed}")
        click.echo(format_pbn([board]), nl=False)
    elif as_json:
        record = record_from_trace(trace)
        record["policies"] = names
        click.echo(json.dumps(record))
    else:
        click.echo(render_trace(trace, policies=names))
