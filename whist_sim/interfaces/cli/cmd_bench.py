"""``whist-sim bench``: deals per second of the compiled and the reference engine."""

from __future__ import annotations

import json

import click

from ...analyses.bench import DEFAULT_SECONDS, SECTIONS, format_results, run_bench
from .options import FiniteFloatRange


@click.command("bench")
@click.option("--json", "as_json", is_flag=True, help="print one JSON object with every figure")
@click.option("--seconds", type=FiniteFloatRange(min=0, min_open=True),
              default=DEFAULT_SECONDS, show_default=True,
              help="time budget of each steady-state measurement (s); below the default, the "
              "sections of fixed sizes (dd) measure fewer deals in proportion")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="threads of the *_all measurements [default: every CPU]")
@click.option("--only", multiple=True, metavar="SECTION",
              help="run only this section (repeatable); sections: " + ", ".join(SECTIONS))
@click.option("--skip", multiple=True, metavar="SECTION", help="leave this section out")
def command(as_json: bool, seconds: float, threads: int | None, only: tuple[str, ...],
            skip: tuple[str, ...]) -> None:
    """Measure deals/s: compiled engine (random, heuristic; 1 thread and all threads, steady
    state), its compile time, and the reference engine in the same run, with ratios."""
    for name in (*only, *skip):
        if name not in SECTIONS:
            raise click.BadParameter(
                f"unknown section {name!r} (known: {', '.join(SECTIONS)})", param_hint="--only"
            )
    log = None if as_json else (lambda msg: click.echo(msg, err=True))
    results = run_bench(seconds=seconds, threads=threads, only=only or None, skip=skip, log=log)
    if as_json:
        click.echo(json.dumps(results, sort_keys=False))
    else:
        click.echo(format_results(results))
