"""``whist-sim deal``: play one deal with the reference engine and show it (RULES §2-§6, §10)."""

from __future__ import annotations

import json

import click

from ..core.pbn import board_tags, format_pbn, whist_tags
from ..engine.play import play_deal
from ..engine.policies import POLICIES
from ..engine.record import record_from_trace
from ..engine.text import render_trace
from .options import rule_options


def _policy_names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if n not in POLICIES:
            raise click.BadParameter(
                f"unknown policy {n!r} (use one of {', '.join(sorted(POLICIES))}, "
                "or one per seat separated by commas)",
                param_hint="--policy",
            )
    return names


@click.command("deal")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="run seed; the deal's random stream is (seed, deal)")
@click.option("--deal", "deal_index", type=click.IntRange(min=0), default=0, show_default=True,
              help="deal index in the run")
@click.option("--dealer", type=int, default=None,
              help="dealer seat [default: deal % players]")
@click.option("--policy", "policy", default="heuristic", show_default=True,
              help="random or heuristic (docs/ENGINE.md §4-5), or one per seat: "
                   "random,heuristic,random,heuristic")
@click.option("--json", "as_json", is_flag=True,
              help="print the deal as a JSON game record (RULES §10) that `replay` accepts")
@click.option("--pbn", "as_pbn", is_flag=True,
              help="print the deal as a PBN board (the hands as dealt; seats 0..3 = N, E, S, W) "
                   "that bridge tools read, with the outcome in Whist* tags")
@rule_options
def command(seed, deal_index, dealer, policy, as_json, as_pbn, rules):
    """Play one deal with the reference engine and print it as a readable trace."""
    if as_json and as_pbn:
        raise click.UsageError("give --json or --pbn, not both")
    p = rules.players
    if dealer is not None and not 0 <= dealer < p:
        raise click.BadParameter(f"seat {dealer} is not in 0..{p - 1}", param_hint="--dealer")
    names = _policy_names(policy)
    if len(names) == 1:
        names = names * p
    if len(names) != p:
        raise click.BadParameter(
            f"{len(names)} policies given; give one, or one per seat ({p})", param_hint="--policy"
        )
    trace = play_deal(seed, deal_index, rules, dealer=dealer, policies=names)
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
