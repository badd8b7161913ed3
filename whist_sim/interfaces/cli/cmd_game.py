"""``whist-sim game``: play a whole game to the target score and show every deal (RULES §7).

The seats are ``BID`` or ``BID/PLAY`` specs (any strategy of the registry); game deal ``g`` is
dealt by seat ``g % P`` with the random stream ``(seed, g)``. ``--json`` prints the game record,
which ``whist-sim replay`` checks deal by deal with the running totals.
"""

from __future__ import annotations

import json

import click

from .options import rule_options
from .seats import per_seat, seat_spec, split_list


def _render(game) -> str:
    from ...core.cards import STRAINS

    p = game.rules.players
    lines = [f"game to {game.rules.target}, seed {game.seed}, {game.rules}",
             "seats: " + ", ".join(f"{s}={name}" for s, name in enumerate(game.seats)), ""]
    header = f"{'deal':>4}  {'dlr':>3}  {'bid':<8}  {'contracts':<{3 * p}}  {'tricks':<{3 * p}}"
    header += f"  {'scores':<{6 * p}}  totals"
    lines.append(header)
    for g, (t, tot) in enumerate(zip(game.traces, game.running_totals, strict=True)):
        if t.thrown_in:
            bid = "thrown in"
            contracts = tricks = ""
        else:
            bid = f"{t.declarer}:{t.level}{STRAINS[t.trump]}"
            contracts = " ".join(f"{c:>2}" for c in t.contracts)
            tricks = " ".join(f"{c:>2}" for c in t.tricks)
        if t.redeals:
            bid += f" (redealt {t.redeals}x)"
        scores = " ".join(f"{x:>5}" for x in t.scores)
        totals = " ".join(f"{x:>5}" for x in tot)
        lines.append(f"{g:>4}  {t.dealer:>3}  {bid:<8}  {contracts:<{3 * p}}  {tricks:<{3 * p}}"
                     f"  {scores:<{6 * p}}  {totals}")
    lines.append("")
    if game.finished:
        who = ", ".join(f"seat {s}" for s in game.winners)
        share = " (shared)" if len(game.winners) > 1 else ""
        lines.append(f"winner: {who}{share} after {game.n_deals} deals, totals "
                     + " ".join(str(x) for x in game.totals))
    else:
        lines.append(f"unfinished after {game.n_deals} deals (no total reached the target)")
    return "\n".join(lines)


@click.command("game")
@click.option("--seats", "seats_text", required=True, metavar="A,B,C,D",
              help="one BID or BID/PLAY spec per seat, comma separated (heuristic/expert, "
                   "montecarlo:n=8/heuristic); a seat without /PLAY plays heuristic")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), required=True,
              help="game seed; game deal g uses the random stream (seed, g)")
@click.option("--max-deals", type=click.IntRange(1, 100_000), default=2000, show_default=True,
              help="stop, unfinished, after this many deals")
@click.option("--json", "as_json", is_flag=True,
              help="print the game record (JSON), which 'whist-sim replay' checks")
@rule_options
def command(seats_text, seed, max_deals, as_json, rules):
    """Play a game to --target (a rule option, RULES §7) with the seats given and print each
    deal's contracts, tricks, scores and running totals, and the winner."""
    from ...runs.game import game_record, play_game

    items = per_seat(split_list(seats_text) or (), "--seats", rules.players)
    for s, text in enumerate(items):
        seat_spec(text, "--seats", s)
    game = play_game(seed, rules, items, max_deals=max_deals)
    if as_json:
        click.echo(json.dumps(game_record(game)))
    else:
        click.echo(_render(game))
