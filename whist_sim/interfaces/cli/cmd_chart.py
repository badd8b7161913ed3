"""``whist-sim chart``: what to bid with a hand, read from a bid chart in well under a second
(docs: whist-sim docs advisor, "The chart lookup")."""

from __future__ import annotations

from pathlib import Path

import click

from ._json import echo_json


@click.command("chart")
@click.argument("hand")
@click.option("--trump", required=True, metavar="S|H|D|C|NT", help="trump of the deal")
@click.option("--declarer", type=int, default=None, metavar="SEAT",
              help="seat that won the auction [default: follows from --seat and --bids]")
@click.option("--level", type=int, default=None, metavar="N",
              help="declarer's auction level [default: 5]")
@click.option("--seat", type=int, default=None, metavar="SEAT",
              help="your seat [default: the next bidder after --bids, or 0]")
@click.option("--bids", default=None, metavar="B,B,...",
              help="contracts already bid, in bidding order starting with the declarer, e.g. 7,0")
@click.option("--players", type=click.IntRange(3, 4), default=4, show_default=True,
              help="players at the table: the committed chart for that many (RULES §8)")
@click.option("--chart", "chart_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, metavar="DIR",
              help="a chart folder written by whist-sim bid-chart [default: the committed "
                   "chart, results/bid_chart]")
@click.option("--json", "as_json", is_flag=True, help="print JSON (whist-sim docs advisor)")
def command(hand: str, trump: str, declarer: int | None, level: int | None, seat: int | None,
            bids: str | None, players: int, chart_dir: Path | None, as_json: bool) -> None:
    """What to bid with HAND (RULES §9, e.g. AKQ2.K3.QJ54.872), read from a bid chart: the
    best bid and the runner-up of the hand's cell (bidding position, high-card points, trump
    length) with their expected scores, and how sure the chart is; no sampling. A cell
    averages many hands: `whist-sim advise` with the same options gives this hand's own
    answer."""
    from ...analyses.advisor.chart_lookup import (
        ChartLookupError,
        lookup,
        render_text,
        to_json,
    )
    from ...analyses.advisor.scenario import AdviceError, resolve_scenario
    from ...core.rules import Rules

    try:
        scenario = resolve_scenario(hand, trump, declarer, level, seat, bids or (),
                                    Rules(players=players))
    except AdviceError as e:
        raise click.ClickException(str(e)) from None
    try:
        answer = lookup(scenario, chart_dir)
    except ChartLookupError as e:
        hint = "--chart" if chart_dir is not None else None
        raise click.ClickException(f"{hint}: {e}" if hint else str(e)) from None
    if as_json:
        echo_json(to_json(answer))
    else:
        click.echo(render_text(answer))
