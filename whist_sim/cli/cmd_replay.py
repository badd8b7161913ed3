"""``whist-sim replay``: check recorded deals against the rules and score them (RULES §10)."""

from __future__ import annotations

import json

import click

from ..engine.record import REVOKE_MODES, replay_file
from ..engine.text import render_replay_table
from .options import rule_options


@click.command("replay")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="print one JSON object per file per line")
@click.option("--revokes", type=click.Choice(REVOKE_MODES), default=None,
              help="override the records' 'revokes' field: reject a revoke as an error, or "
                   "penalize it (the card stands, the offender is fined revoke_penalty)")
@rule_options
def command(files, as_json, revokes, rules):
    """Check each recorded deal in FILE... against the rules and score it.

    The rule options set the rules for records without a "rules" field. Exit status: 0 when every
    record is legal, 1 when any is refused, 2 on usage errors.
    """
    rows = []
    for path in files:
        result = replay_file(path, rules=rules, revokes=revokes)
        rows.append((path, result))
        if as_json:
            click.echo(json.dumps(result.to_json_dict(path)))
    if not as_json:
        click.echo(render_replay_table(rows))
    if not all(r.ok for _, r in rows):
        raise SystemExit(1)
