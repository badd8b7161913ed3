"""``whist-sim advise``: which contract to bid with a hand, by simulation (docs: whist-sim docs
advisor)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import click

from ...analyses.advisor import DEFAULT_DEALS, MODEL_BID_POLICIES, AdviceError, advise
from ...analyses.advisor.dd_view import DEFAULT_DD_DEALS, DEFAULT_DD_NODE_LIMIT, EVALUATIONS
from ...analyses.advisor.evaluate import planned_check_deals, with_check
from ...analyses.advisor.options import AdviseOptions, checked_bid_policy, screen_plan
from ...analyses.advisor.sampling import DEFAULT_EPS
from ...analyses.advisor.scenario import parse_auction, resolve_scenario
from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY, SEARCHING_PLAY
from ...runs.executors import default_threads
from .options import (
    FiniteFloatRange,
    NamedPath,
    Parsed,
    check_options,
    checked_play,
    packed,
    progress_option,
    rule_options,
    show_progress,
)
from .seats import play_help, play_spec


def _known(values: tuple[str, ...]) -> dict[int, str]:
    out: dict[int, str] = {}
    for v in values:
        seat, sep, cards = v.partition(":")
        try:
            s = int(seat)
        except ValueError:
            s = None
        if not sep or s is None or not cards.strip():
            raise click.BadParameter(
                f"{v!r}: expected SEAT:CARDS, e.g. 1:AS,KH", param_hint="--known"
            )
        if s in out:
            raise click.BadParameter(f"seat {s} given twice", param_hint="--known")
        out[s] = cards
    return out


def _check_auction(auction: str | None, dealer: int | None, rules) -> None:
    """The --auction and --dealer options on their own, each error naming its option."""
    if auction is None:
        if dealer is not None:
            raise click.UsageError("--dealer applies to a given --auction only")
        return
    try:
        parse_auction(auction, dealer, rules)
    except AdviceError as e:
        hint = "--dealer" if str(e).startswith("dealer") else "--auction"
        raise click.BadParameter(str(e).removeprefix("auction: "), param_hint=hint) from None


@click.command("advise")
@click.argument("hand")
@click.option("--trump", default=None, metavar="S|H|D|C|NT",
              help="trump of the deal: advise the contract; without it, advise the auction call")
@click.option("--declarer", type=int, default=None, metavar="SEAT",
              help="seat that won the auction [default: follows from --seat and --bids]")
@click.option("--level", type=int, default=None, metavar="N",
              help="declarer's auction level (auction mode: lowest level considered) [default: 5]")
@click.option("--seat", type=int, default=None, metavar="SEAT",
              help="your seat (0..3) [default: the next bidder after --bids, or 0]")
@click.option("--bids", default=None, metavar="B,B,...",
              help="contracts already bid, in bidding order starting with the declarer, e.g. 7,0")
@click.option("--auction", default=None, metavar="CALLS",
              help="the whole trump auction, every call in order from the seat after --dealer, "
              "e.g. pass,5S,pass,6H,pass,pass,pass (p for pass; every round, a Frisch after a "
              "round of passes): the declarer, trump and level follow, and --infer reads the "
              "calls too")
@click.option("--dealer", type=int, default=None, metavar="SEAT",
              help="with --auction: the dealer (the seat after him calls first) [default: the "
              "last seat, so seat 0 calls first]")
@click.option("--play", default=DEFAULT_PLAY, show_default=True, metavar="SPEC",
              help=play_help("play policy of every seat"))
@click.option("--bid-policy", default=DEFAULT_BID, show_default=True, metavar="SPEC",
              help="bidding strategy assumed for the other seats: NAME[:KEY=VALUE...], NAME one "
              f"of {', '.join(MODEL_BID_POLICIES)}")
@click.option("--deals", type=click.IntRange(1, 100_000_000), default=DEFAULT_DEALS,
              show_default=True,
              help="sampled deals; every candidate bid is played on all of them")
@click.option("--seed", type=click.IntRange(0, (1 << 64) - 1), default=0, show_default=True,
              help="sampled deal j uses the random stream (seed, j)")
@click.option("--infer/--no-infer", default=True, show_default=True,
              help="read the table: condition the hidden hands on the earlier contracts (and "
              "the --auction calls), as --model would have made them (whist-sim docs "
              "strategies: Reading the table)")
@click.option("--model", default=None, metavar="SPEC",
              help="bidding strategy assumed for the earlier bidders when reading the table "
              "[default: --bid-policy]")
@click.option("--eps", type=FiniteFloatRange(0, 1), default=DEFAULT_EPS, show_default=True,
              help="weight of a deal per earlier contract the model would have bid otherwise "
              "(0: keep only deals the model explains exactly)")
@click.option("--constrain", multiple=True, metavar="SEAT:KEY=RANGE",
              help="constraint on a hidden hand (repeatable): 1:S=0-2, 2:hcp=12-, 3:void=H")
@click.option("--known", multiple=True, metavar="SEAT:CARDS",
              help="cards known to be in another seat's hand (repeatable), e.g. 1:AS,KH")
@click.option("--confidence", type=FiniteFloatRange(0, 1, min_open=True, max_open=True),
              default=0.95, show_default=True, help="coverage of the intervals")
@click.option("--threads", type=click.IntRange(min=1), default=None,
              help="local threads [default: every CPU] (results do not depend on it)")
@click.option("--eval", "evaluation", type=click.Choice(EVALUATIONS), default="heuristic",
              show_default=True,
              help="dd: also solve the first --dd-deals sampled deals double dummy (your "
                   "whist-max, whist-min and exactly makeable tricks; four players only)")
@click.option("--dd-deals", type=click.IntRange(min=1), default=None, metavar="M",
              help=f"with --eval dd: sampled deals solved, the first M of --deals "
                   f"[default: {DEFAULT_DD_DEALS}, at most --deals]")
@click.option("--dd-node-limit", type=click.IntRange(min=1), default=None, metavar="N",
              help=f"with --eval dd: card plays a solve may try before the deal is left "
                   f"unsolved [default: {DEFAULT_DD_NODE_LIMIT:_}]")
@click.option("--dd-min-node-limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="with --eval dd: whist-min's own node limit (it nearly always runs into the "
                   "limit on full deals: a lower one, e.g. 30000, makes the view several times "
                   "faster) [default: --dd-node-limit]")
@click.option("--screen", type=click.IntRange(min=0), default=None, metavar="K",
              help="with a searching --play (rollout): play every bid with its base policy "
              "first and search only the K best per strain on the same deals (0: search every "
              "bid)  [default: 3]")
@check_options()
@progress_option("a progress bar on stderr (a searching play, the check, the double-dummy "
                 "evaluation)")
@click.option("--json", "as_json", is_flag=True, help="print JSON (schema: whist-sim docs advisor)")
@click.option("--plot", type=NamedPath(dir_okay=False), default=None, metavar="FILE",
              help="draw the expected score per bid with error bars to FILE (.png, .svg, .pdf)")
@rule_options
@packed
def command(o: Parsed) -> None:
    """Advise the contract to bid with HAND (RULES §9, e.g. AKQ2.K3.QJ54.872 or
    "S:AKQ2 H:K3 D:QJ54 C:872"; put -- before a hand that starts with -).

    With --trump: for each legal contract, P(make), the expected score with confidence
    intervals and the trick distribution, played out on the same sampled deals; the
    recommended bid has the highest expected score. Without --trump: for each strain, what
    declaring in it is worth, and the best call.

    With --eval dd, also what you could do with every hand in view and perfect play, alone
    against the other three, on the first --dd-deals sampled deals (whist-sim docs advisor).

    Unless --no-check: the best bids and the zero bid are played again under --check (a
    searching play; the default is the strongest the play ladder measures) on a subsample of
    the same deals, and the output gives the check's verdict: confirmed, not contradicted (with
    the difference it could have seen) or contradicted.
    """
    bid_spec = _parsed(checked_bid_policy, o.bid_policy, "--bid-policy")
    model = None if o.model is None else _parsed(checked_bid_policy, o.model, "--model")
    check_play = checked_play(o.check, o.no_check, o.check_deals)
    spec = play_spec(o.play, "--play")
    _parsed(lambda s: screen_plan(s, o.screen), spec, "--screen")  # the screening rule, said once
    rules, deals = o.rules, o.deals
    if o.evaluation == "heuristic":
        for name, value in (("--dd-deals", o.dd_deals), ("--dd-node-limit", o.dd_node_limit),
                            ("--dd-min-node-limit", o.dd_min_node_limit)):
            if value is not None:
                raise click.UsageError(f"{name} applies to the double-dummy evaluation only: "
                                       "add --eval dd")
    else:
        if rules.players != 4:
            raise click.UsageError(
                "--eval dd: the double-dummy solver plays the four-player game only (the 52-card "
                f"deck, RULES §1), not --players {rules.players} (RULES §8)"
            )
        if o.dd_deals is not None and o.dd_deals > deals:
            raise click.BadParameter(
                f"{o.dd_deals} is more than the {deals} sampled deals (--deals): the "
                "double-dummy view solves the first M of them", param_hint="--dd-deals"
            )
    progress = show_progress(o.progress)
    plot = o.plot
    if plot:
        _check_plot(plot)
    try:
        # every check of the scenario before the compile wait (advise() repeats it: cheap)
        _check_auction(o.auction, o.dealer, rules)
        known = _known(o.known)
        resolve_scenario(o.hand, o.trump, o.declarer, o.level, o.seat, o.bids or (), rules,
                         o.constrain, known, o.auction, o.dealer)
        threads = default_threads() if o.threads is None else o.threads
        # the advice's options, built once from the parsed ones (the specs as parsed above)
        options = AdviseOptions(
            trump=o.trump, declarer=o.declarer, level=o.level, seat=o.seat, bids=o.bids or (),
            auction=o.auction, dealer=o.dealer, constraints=o.constrain, known=known,
            rules=rules, play=spec, bid_policy=bid_spec, deals=deals, seed=o.seed,
            infer=o.infer, model=model, eps=o.eps, confidence=o.confidence, threads=threads,
            evaluation=o.evaluation, dd_deals=o.dd_deals, dd_node_limit=o.dd_node_limit,
            dd_min_node_limit=o.dd_min_node_limit, screen=o.screen)
        searching = spec.name in SEARCHING_PLAY
        with _compile_notice(), _search_bar(searching and progress, deals) as on_deals:
            a = advise(o.hand, options, on_deals=on_deals, progress=progress,
                       notify=lambda msg: click.echo(msg, err=True))
        if check_play is not None:
            n_check = planned_check_deals(a, o.check_deals)
            with _compile_notice(), _search_bar(progress, n_check, "check") as on_check:
                a = with_check(a, check_play, o.check_deals, threads, on_check)
        if plot:
            _write_plot(a, plot)
    except AdviceError as e:
        raise click.ClickException(str(e)) from None
    click.echo(a.to_json() if o.as_json else str(a))


def _parsed(parse: Callable[[Any], Any], value: Any, option: str) -> Any:
    """``parse(value)``, an :class:`AdviceError` said as a bad value of ``option``."""
    try:
        return parse(value)
    except AdviceError as e:
        raise click.BadParameter(str(e), param_hint=option) from None


def _check_plot(plot: str) -> None:
    """--plot's folder and format, said before the advice is computed, not after."""
    from pathlib import Path

    parent = Path(plot).parent
    if not parent.is_dir():
        raise click.BadParameter(f"{parent} is not a folder", param_hint="--plot")
    from matplotlib.backend_bases import FigureCanvasBase

    fmt = Path(plot).suffix[1:].lower()
    formats = FigureCanvasBase.get_supported_filetypes()
    if fmt and fmt not in formats:
        raise click.BadParameter(
            f"{plot}: the plot's format follows its extension, and .{fmt} is none of "
            f"{', '.join(sorted(formats))}", param_hint="--plot")


def _write_plot(advice, path: str) -> None:
    """Write the advice's figure to --plot (the format follows the extension; PNG without
    one). It is drawn in memory and then written, because matplotlib's ``savefig`` to a file
    name loses some write errors (a full device: ``/dev/full`` gave no plot and exit 0); a
    regular file is written atomically (no half plot), a device or pipe in place. Any failure
    is one line naming --plot and the file (exit 1)."""
    import io
    from pathlib import Path

    from ...runs.dataset import atomic_write_bytes

    target = Path(path)
    fmt = target.suffix[1:].lower() or "png"
    buf = io.BytesIO()
    try:
        advice.figure().savefig(buf, format=fmt, dpi=100)
    except ValueError as e:  # a format matplotlib does not write
        raise click.ClickException(f"cannot write the plot (--plot) {path}: {e}") from None
    try:
        if target.exists() and not target.is_file():
            with open(target, "wb") as f:
                f.write(buf.getvalue())
        else:
            atomic_write_bytes(target, buf.getvalue())
    except OSError as e:
        raise click.ClickException(
            f"cannot write the plot (--plot) {path}: {e.strerror or e}") from None


@contextmanager
def _search_bar(show: bool, deals: int, desc: str = "search"):
    """A tqdm bar on stderr over the sampled deals of a searching play's run (a callback for
    :func:`~whist_sim.analyses.advisor.advise`'s ``on_deals``, or ``None``)."""
    if not show:
        yield None
        return
    import threading

    from tqdm import tqdm

    lock = threading.Lock()
    with tqdm(total=deals, unit="deal", desc=desc, file=sys.stderr, leave=False) as bar:
        def step(m: int) -> None:
            with lock:
                bar.update(m)

        yield step


def _compile_notice():
    """Words on stderr while the advisor's kernels compile, or the check's searching loop, or
    while another process compiles them (silent when they load from the cache)."""
    from ...compiled.ground._numba import ENGINE_COMPILE_NOTICE, compile_notice

    return compile_notice(lambda msg: click.echo(msg, err=True), ENGINE_COMPILE_NOTICE)
