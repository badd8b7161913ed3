"""``whist-sim deal``: play one deal with the reference engine and show it (RULES §2-§6, §10)."""

from __future__ import annotations

import json

import click

from ..core.pbn import board_tags, format_pbn, whist_tags
from ..engine.play import play_deal
from ..engine.policies import POLICIES
from ..engine.record import record_from_trace
from ..engine.seats import SeatError, reference_policy, seat_policy
from ..engine.text import render_trace
from .options import rule_options
from .seats import play_help, play_spec


def _seats(text: str, play: str | None, players: int) -> list[tuple[str, str]]:
    """``(bid, play)`` policy names by seat from ``--policy`` (``P``, ``BID/PLAY``, or one per
    seat, comma separated) and ``--play`` (the cards of every seat given without ``/PLAY``)."""
    items = [n.strip() for n in text.split(",")]
    if len(items) == 1:
        items = items * players
    if len(items) != players:
        raise click.BadParameter(
            f"{len(items)} policies given; give one, or one per seat ({players})",
            param_hint="--policy",
        )
    play_name = None
    if play is not None:
        spec = play_spec(play, "--play")
        if spec.params:
            raise click.BadParameter(
                f"{spec.text}: the readable engine's policies take no parameters",
                param_hint="--play")
        play_name = spec.name
        try:
            reference_policy(play_name, "play policy")
        except SeatError as e:
            raise click.BadParameter(str(e), param_hint="--play") from None
    seats = []
    for item in items:
        bid, sep, own = item.partition("/")
        bid, own = bid.strip(), own.strip()
        if bid not in POLICIES or (sep and own not in POLICIES):
            raise click.BadParameter(
                f"unknown policy {item!r} (use one of {', '.join(sorted(POLICIES))}, "
                "or BID/PLAY, or one per seat separated by commas)",
                param_hint="--policy",
            )
        seats.append((bid, own if sep else play_name if play_name is not None else bid))
    return seats


@click.command("deal")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="run seed; the deal's random stream is (seed, deal)")
@click.option("--deal", "deal_index", type=click.IntRange(min=0), default=0, show_default=True,
              help="deal index in the run")
@click.option("--dealer", type=int, default=None,
              help="dealer seat [default: deal % players]")
@click.option("--policy", "policy", default="heuristic", show_default=True,
              help="random or heuristic (docs/ENGINE.md §4-5), or one per seat: "
                   "random,heuristic,random,heuristic; a seat BID/PLAY takes its cards from "
                   "PLAY, e.g. heuristic/random")
@click.option("--play", default=None, metavar="SPEC",
              help=play_help("play policy of every seat given without /PLAY [default: the "
                             "seat's --policy]; the readable engine has the reference versions "
                             "of random and heuristic"))
@click.option("--json", "as_json", is_flag=True,
              help="print the deal as a JSON game record (RULES §10) that `replay` accepts")
@click.option("--pbn", "as_pbn", is_flag=True,
              help="print the deal as a PBN board (the hands as dealt; seats 0..3 = N, E, S, W) "
                   "that bridge tools read, with the outcome in Whist* tags")
@rule_options
def command(seed, deal_index, dealer, policy, play, as_json, as_pbn, rules):
    """Play one deal with the reference engine and print it as a readable trace."""
    if as_json and as_pbn:
        raise click.UsageError("give --json or --pbn, not both")
    p = rules.players
    if dealer is not None and not 0 <= dealer < p:
        raise click.BadParameter(f"seat {dealer} is not in 0..{p - 1}", param_hint="--dealer")
    seats = _seats(policy, play, p)
    names = [b if b == q else f"{b}/{q}" for b, q in seats]
    trace = play_deal(seed, deal_index, rules, dealer=dealer,
                      policies=[seat_policy(b, q) for b, q in seats])
    if as_pbn:
        extra = whist_tags(
            seed=seed, deal=deal_index, hands="dealt", thrown_in=trace.thrown_in,
            trump=trace.trump, declarer=trace.declarer, contracts=trace.contracts,
            tricks=trace.tricks, scores=trace.scores,
        )
        tags = board_tags(trace.dealt, board=deal_index + 1, dealer=trace.dealer,
                          event=f"whist-sim deal --seed {seed}", extra=extra)
        click.echo(format_pbn([tags]), nl=False)
    elif as_json:
        record = record_from_trace(trace)
        record["policies"] = names
        click.echo(json.dumps(record))
    else:
        click.echo(render_trace(trace, policies=names))
