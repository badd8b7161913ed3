"""``whist-sim dd``: double-dummy analysis of one deal (or of every deal in a file).

Bridge mode answers the classic question (tricks of a partnership, best play by all four), with the
bridge world's table convention; whist mode answers the Israeli Whist questions for one seat against
the other three (whist-sim docs dd).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import click
from tqdm.auto import tqdm

from ...core.cards import STRAINS, NotationError, parse_deal, parse_strain
from ...core.pbn import format_pbn_deal, is_pbn, parse_pbn
from ...dd import DDError, bridge_table, solve, warm_up, whist_summary, whist_table
from .options import NamedPath, progress_option, show_progress

_COMPASS = "NESW"


def _parse_strain(value: str) -> int:
    try:
        return parse_strain(value)
    except NotationError:
        raise click.BadParameter(
            f"unknown strain {value!r} (use C, D, H, S or NT, or 0..4)", param_hint="--trump"
        ) from None


def _parse_seat(value: str, name: str) -> int:
    v = value.strip().upper()
    if v in _COMPASS and v:
        return _COMPASS.index(v)
    if v.isdigit() and 0 <= int(v) <= 3:
        return int(v)
    raise click.BadParameter(f"unknown seat {value!r} (use 0..3 or N, E, S, W)", param_hint=name)


def _deals(deal: str | None, file: Path | None) -> Iterator[tuple[str, str]]:
    """(where, text) of every deal to analyse: DEAL, then the deals of --file (a PBN file's
    ``Deal`` tags, or one deal per line)."""
    if deal is not None:
        yield "DEAL", deal
    if file is not None:
        try:
            content = file.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as e:
            reason = e.strerror if isinstance(e, OSError) else "not UTF-8 text"
            raise click.BadParameter(f"cannot read {file}: {reason}", param_hint="--file") from None
        if file.suffix.lower() == ".pbn" or is_pbn(content):
            try:
                boards = parse_pbn(content)
            except NotationError as e:
                raise click.BadParameter(f"{file}: {e}", param_hint="--file") from None
            for b in boards:
                if b.deal_text is None:
                    continue  # a game without a deal (a header game of event tags)
                name = f"board {b.tags['Board']}" if "Board" in b.tags else "board"
                yield f"{file}:{b.line} ({name})", b.deal_text
            return
        lines = content.splitlines()
        for i, line in enumerate(lines, start=1):
            text = line.strip()
            if text and not text.startswith("#"):
                yield f"{file}:{i}", text


def _checked_hands(text: str) -> list[int]:
    """The hands of a deal, which must all hold the same number of cards."""
    hands = parse_deal(text)
    sizes = {int(h).bit_count() for h in hands}
    if len(sizes) != 1:
        raise DDError(
            "the four hands must hold the same number of cards (a position at a trick boundary), "
            f"got {[int(h).bit_count() for h in hands]}"
        )
    return hands


def _analyse(text: str, mode: str, trump: int | None, leader: int | None, seat: int | None,
             table: bool, node_limit: int | None = None,
             min_node_limit: int | None = None) -> dict:
    hands = _checked_hands(text)
    out: dict = {"deal": format_pbn_deal(hands), "mode": mode}
    if mode == "bridge":
        if table:
            out["table"] = bridge_table(hands, node_limit=node_limit)
            return out
        t = 4 if trump is None else trump
        declarer = 0 if seat is None else seat
        ld = (declarer + 1) % 4 if leader is None else leader
        out.update(
            trump=STRAINS[t],
            declarer=declarer,
            leader=ld,
            tricks=solve(hands, t, ld, "bridge", declarer, node_limit=node_limit),
        )
        return out
    ld = 0 if leader is None else leader
    t = 4 if trump is None else trump
    out.update(trump=STRAINS[t], leader=ld)
    if table:
        # every seat; every strain too unless --trump names one (``seats`` keeps the one strain's
        # rows, NT without --trump, as it always has)
        if trump is None:
            rows = whist_table(hands, ld, node_limit=node_limit, min_node_limit=min_node_limit)
            out["seats"] = rows[STRAINS[t]]
            out["table"] = rows
        else:
            summary = whist_summary(hands, t, ld, node_limit=node_limit,
                                    min_node_limit=min_node_limit)
            out["seats"] = [summary[s] for s in range(4)]
        return out
    p = 0 if seat is None else seat
    out.update(seat=p, **whist_summary(hands, t, ld, [p], node_limit=node_limit,
                                       min_node_limit=min_node_limit)[p])
    return out


#: hand size from which whist questions without a node limit earn a notice (full deals are slow)
SLOW_WHIST_CARDS = 10


def _slow_whist_notice(hands, mode: str, node_limit: int | None) -> str | None:
    """A one-line notice when whist mode runs without --node-limit on a (nearly) full deal."""
    if mode != "whist" or node_limit is not None:
        return None
    if int(hands[0]).bit_count() < SLOW_WHIST_CARDS:
        return None
    return ("note: whist questions of a full deal can take minutes or far longer without a "
            "limit; --node-limit N (e.g. 5000000) stops each solve with a proved range")


def _value(x, bounds=None) -> str:
    """A solved number, or ``?`` with the proved range of a solve stopped by --node-limit."""
    if x is not None:
        return str(x)
    if bounds is None:
        return "?"
    return f"?[{bounds[0]}-{bounds[1]}]"


def _exact_text(exact) -> str:
    if exact is None:
        return "? (over the node limit)"
    return ", ".join(map(str, exact)) or "none"


_UNSOLVED_LEGEND = ("  ? = over --node-limit (whist-min: --min-node-limit, if given); [lo-hi] = "
                    "the range proved before stopping")


def _render(res: dict) -> str:
    lines = [f"deal {res['deal']}"]
    if res["mode"] == "bridge":
        if "table" in res:
            lines.append("tricks for declarer's side, the player on declarer's left leading:")
            lines.append("       " + "".join(f"{s:>4}" for s in STRAINS))
            for d in range(4):
                row = "".join(f"{_value(res['table'][s][d]):>4}" for s in STRAINS)
                lines.append(f"  {_COMPASS[d]} ({d})" + row)
        else:
            d = res["declarer"]
            lines.append(
                f"{res['trump']}, seat {res['leader']} leads: seats {d} and {(d + 2) % 4} take "
                f"{_value(res['tricks'])} tricks"
            )
        return "\n".join(lines)
    if "seats" in res:
        blocks = res.get("table", {res["trump"]: res["seats"]})
        for strain, seats in blocks.items():
            lines.append(f"{strain}, seat {res['leader']} leads:")
            lines.append("  seat  whist-max  whist-min  exactly makeable")
            for i, c in enumerate(seats):
                mx = _value(c["max"], c.get("max_bounds"))
                mn = _value(c["min"], c.get("min_bounds"))
                lines.append(f"  {i:>4}  {mx:>9}  {mn:>9}  {_exact_text(c['exact'])}")
        if any(c["max"] is None or c["min"] is None or c["exact"] is None
               for seats in blocks.values() for c in seats):
            lines.append(_UNSOLVED_LEGEND)
        return "\n".join(lines)
    lines.append(f"{res['trump']}, seat {res['leader']} leads; seat {res['seat']}:")
    mx = _value(res["max"], res.get("max_bounds"))
    mn = _value(res["min"], res.get("min_bounds"))
    lines.append(f"  whist-max {mx} (the most it can guarantee against the other three)")
    lines.append(f"  whist-min {mn} (the fewest it can hold itself to)")
    lines.append(f"  exactly makeable: {_exact_text(res['exact'])}")
    if res["max"] is None or res["min"] is None or res["exact"] is None:
        lines.append(_UNSOLVED_LEGEND)
    return "\n".join(lines)


@click.command("dd")
@click.argument("deal", required=False)
@click.option("--trump", "trump_text", default=None,
              help="trump: C, D, H, S or NT [default: NT; with --table: every strain]")
@click.option("--leader", "leader_text", default=None,
              help="seat that leads to the first trick, 0..3 or N/E/S/W "
                   "[bridge: declarer's left; whist: 0]")
@click.option("--mode", type=click.Choice(["bridge", "whist"]), default="bridge", show_default=True,
              help="bridge: tricks of a partnership; whist: one seat against the other three")
@click.option("--seat", "seat_text", default=None,
              help="bridge: the declarer (tricks of seats p and p+2); whist: the seat analysed "
                   "[default: 0]")
@click.option("--table", is_flag=True,
              help="bridge: every strain x declarer; whist: every seat, in every strain "
                   "unless --trump names one")
@click.option("--json", "as_json", is_flag=True, help="one JSON object per deal (for programs)")
@click.option("--file", "file", type=NamedPath(path_type=Path, dir_okay=False), default=None,
              help="read deals from a file: a PBN file (.pbn, or any file of [Deal \"N:...\"] "
                   "tags: every board) or one deal per line ('#' starts a comment)")
@click.option("--node-limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="stop each solve after N card plays (about 10 million a second) and print "
                   "it as unknown (JSON null) with the range proved so far [default: no limit; "
                   "the whist questions of a full deal can take minutes or far longer]")
@click.option("--min-node-limit", type=click.IntRange(min=1), default=None, metavar="N",
              help="whist mode: whist-min's own node limit (whist-min of a full deal is the "
                   "slow question) [default: --node-limit]")
@progress_option("a progress bar over the deals on stderr (with several deals)")
def command(deal, trump_text, leader_text, mode, seat_text, table, as_json, file, node_limit,
            min_node_limit, progress):
    """Double-dummy analysis of DEAL (every hand visible, perfect play by all).

    DEAL is four hands in seat order, '0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 ...', or bridge PBN
    'N:...' (N, E, S, W = seats 0, 1, 2, 3). Hands may be shorter than 13 cards (an ending) but
    must all be the same size. Deals are printed in PBN form ('N:...'). See `whist-sim docs dd`
    for the questions and the JSON format.
    """
    if deal is None and file is None:
        raise click.UsageError("give a DEAL or --file F")
    if min_node_limit is not None and mode != "whist":
        raise click.UsageError("--min-node-limit is for --mode whist (whist-min's own limit)")
    trump = None if trump_text is None else _parse_strain(trump_text)
    leader = None if leader_text is None else _parse_seat(leader_text, "--leader")
    seat = None if seat_text is None else _parse_seat(seat_text, "--seat")
    deals = list(_deals(deal, file))
    if not deals:
        raise click.BadParameter(f"{file} holds no deal (only blank lines and '#' comments, or "
                                 "PBN games without a Deal tag)", param_hint="--file")
    for where, text in deals:  # a bad deal is reported before any compile wait
        try:
            _checked_hands(text)
        except (NotationError, DDError) as e:
            raise click.BadParameter(str(e), param_hint=where) from None
    first = parse_deal(deals[0][1])
    notice = _slow_whist_notice(first, mode, node_limit)
    if notice:
        click.echo(notice, err=True)
    warm_up(lambda msg: click.echo(msg, err=True))
    if progress is None:  # the default: a bar for several deals, on a terminal
        progress = len(deals) > 1 and show_progress(None)
    bar = tqdm(total=len(deals), unit="deal", desc="double dummy", file=sys.stderr,
               disable=not progress, dynamic_ncols=True)
    try:
        for where, text in deals:
            try:
                res = _analyse(text, mode, trump, leader, seat, table, node_limit,
                               min_node_limit)
            except (NotationError, DDError) as e:
                raise click.BadParameter(str(e), param_hint=where) from None
            with tqdm.external_write_mode(file=sys.stderr):
                click.echo(json.dumps(res) if as_json else _render(res))
            bar.update(1)
    finally:
        bar.close()
