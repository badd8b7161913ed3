"""``whist-sim replay``: check recorded deals against the rules and score them (RULES §10)."""

from __future__ import annotations

import json

import click

from ...engine.pbn_record import load_records
from ...engine.record import (
    REVOKE_MODES,
    RecordError,
    ReplayResult,
    is_game_record,
    replay_game,
    replay_record,
)
from ...engine.text import render_game_replay, render_replay_table
from .options import NamedPath, rule_options


@click.command("replay")
@click.argument("files", nargs=-1, required=True,
                type=NamedPath(exists=True, dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="print one JSON object per file per line")
@click.option("--revokes", type=click.Choice(REVOKE_MODES), default=None,
              help="override the records' 'revokes' field: reject a revoke as an error, or "
                   "penalize it (the card stands, the offender is fined revoke_penalty)")
@rule_options
def command(files, as_json, revokes, rules):
    """Check each recorded deal in FILE... against the rules and score it. A FILE is a JSON
    record, or a PBN file of whole boards (`export RECORD --pbn`; one record per board, or one
    game).

    A game record (from 'whist-sim game --json') is checked deal by deal, with the dealer
    moving left, the running totals, the end at the target and the winner (RULES §7).

    The rule options set the rules for records without a "rules" field. Exit status: 0 when every
    record is legal, 1 when any is refused, 2 on usage errors.
    """
    rows = []
    games = []
    for path in files:
        try:
            named = load_records(path, rules, each_board=True, revokes=revokes)
        except RecordError as e:
            named = [(path, ReplayResult(ok=False, error=str(e)))]
        for name, record in named:
            if isinstance(record, ReplayResult):
                result = record
            elif is_game_record(record):
                game = replay_game(record, rules=rules, revokes=revokes)
                games.append((name, game))
                if as_json:
                    click.echo(json.dumps(game.to_json_dict(name)))
                continue
            else:
                result = replay_record(record, rules=rules, revokes=revokes)
            rows.append((name, result))
            if as_json:
                click.echo(json.dumps(result.to_json_dict(name)))
    if not as_json:
        if rows:
            click.echo(render_replay_table(rows))
        for path, game in games:
            click.echo(render_game_replay(path, game))
    if not all(r.ok for _, r in rows) or not all(g.ok for _, g in games):
        raise SystemExit(1)
