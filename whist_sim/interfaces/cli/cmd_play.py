"""``whist-sim play``: play one deal in the terminal, one seat yours, the others bots.

You type your calls (``6S``, ``pass``), Frisch cards (``2C 3C 4C``), contract (``7``) and cards
(``AS``; the symbols ♠♥♦♣ are accepted); ``hint`` asks your seat's strategy (and, for the
contract, the advisor) what it would do and why; ``history`` shows the calls and tricks,
``hand`` your cards, ``legal`` your choices, ``quit`` stops. At the end the deal's record is
printed (or written with ``--record FILE``); ``whist-sim replay`` accepts it.
"""

from __future__ import annotations

import json
import sys

import click

from .options import NamedPath, rule_options
from .seats import per_seat, seat_spec, split_list

HELP = ("type a move, or: hint (what your strategy would do, and why), history (calls and "
        "tricks), hand, legal (your choices), quit")


def _say(text: str = "") -> None:
    click.echo(text)


def _event_text(ev, human: int) -> str:
    who = "you" if ev.seat == human else f"seat {ev.seat}"
    if ev.phase == "auction":
        return f"{who}: {ev.text}"
    if ev.phase == "frisch":
        return f"{who}: passed three cards" if ev.seat != human else f"you pass {ev.text}"
    if ev.phase == "contracts":
        return f"{who}: contract {ev.text}"
    return f"{who}: {ev.text}"


def _status(table) -> list[str]:
    from ...core.cards import STRAINS
    from ...engine.state import call_str
    from ...engine.table import card_text, hand_text

    s = table.state
    lines = [f"your hand: {hand_text(s.hand(table.human))}"]
    if s.phase == "auction":
        high = call_str(s.highest_bid) if s.highest_bid else "none"
        lines.append(f"auction (minimum {s.min_level}, highest bid {high}): your call")
    elif s.phase == "frisch":
        lines.append(f"Frisch {s.frisch_count + 1}: choose three cards to pass")
    elif s.phase == "contracts":
        done = [f"{seat}:{c}" for seat, c in enumerate(s.contracts) if c is not None]
        lines.append(f"trump {STRAINS[s.trump]}, declarer seat {s.declarer} at {s.level}; "
                     f"contracts so far {' '.join(done) or '-'}: your contract")
    elif s.phase == "play":
        trick = " ".join(f"{seat}:{card_text(c)}" for seat, c in s.current_trick) or "you lead"
        lines.append(f"trick {s.trick_number + 1} ({trick}); contracts "
                     + " ".join(str(c) for c in s.contracts) + "; tricks "
                     + " ".join(str(t) for t in s.tricks_taken) + ": your card")
    legal = table.legal()
    if s.phase == "frisch":
        lines.append("choose any three cards of your hand")
    else:
        lines.append("legal: " + ", ".join(t for _, t in legal))
    return lines


def _advisor_lines(table, seed: int) -> list[str]:
    """For a contract: the advisor's recommendation on sampled deals (RULES §4)."""
    s = table.state
    if s.phase != "contracts":
        return []
    try:
        from ...analyses.advisor import advise

        order = s.contract_order
        bids = [s.contracts[seat] for seat in order if s.contracts[seat] is not None]
        a = advise(s.hand(table.human), trump=s.trump, declarer=s.declarer, level=s.level,
                   seat=table.human, bids=bids, deals=400, seed=seed, rules=s.rules)
    except Exception as e:  # the hint must never end the game
        return [f"(the advisor could not answer: {e})"]
    ev = a.table["ev"]
    return [f"the advisor (400 sampled deals, heuristic play): bid {a.recommended}, expected "
            f"score {ev.loc[a.recommended]:.1f} points"
            + (f" (next best {a.runner_up}: {ev.loc[a.runner_up]:.1f})"
               if a.runner_up is not None else "")]


@click.command("play")
@click.option("--seat", type=int, required=True, help="your seat, 0..P-1")
@click.option("--seats", "seats_text", required=True, metavar="A,B,C,D",
              help="a BID or BID/PLAY spec per seat, comma separated: the bots, and for your "
                   "own seat the strategy that 'hint' asks (a seat without /PLAY plays "
                   "heuristic)")
@click.option("--seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
              help="the deal's random stream is (seed, deal)")
@click.option("--deal", "deal_index", type=click.IntRange(min=0), default=0, show_default=True,
              help="deal index")
@click.option("--dealer", type=int, default=None, help="dealer seat [default: deal % P]")
@click.option("--record", "record_path", type=NamedPath(dir_okay=False), default=None,
              help="write the deal's record (JSON) to this file instead of printing it")
@rule_options
def command(seat, seats_text, seed, deal_index, dealer, record_path, rules):
    """Play one deal against the bots: you hold seat --seat, the others play their --seats
    strategies (any of the registry). The cards, the calls and every rule are the engine's."""
    from ...compiled.entry.decide import KernelSeats
    from ...compiled.strategies.spec import parse_seat
    from ...core.cards import NotationError
    from ...core.rng import DealRng
    from ...engine.state import DealState, IllegalAction
    from ...engine.table import Table, hand_text

    p = rules.players
    if not 0 <= seat < p:
        raise click.BadParameter(f"seat {seat} is not in 0..{p - 1}", param_hint="--seat")
    if dealer is None:
        dealer = deal_index % p
    elif not 0 <= dealer < p:
        raise click.BadParameter(f"seat {dealer} is not in 0..{p - 1}", param_hint="--dealer")
    items = per_seat(split_list(seats_text) or (), "--seats", p)
    bids, plays = [], []
    for s, text in enumerate(items):
        seat_spec(text, "--seats", s)
        b, q = parse_seat(text)
        bids.append(b.text)
        plays.append(q.text if q is not None else "heuristic")
    rng = DealRng(seed, deal_index)
    state = DealState.deal(rules, rng, dealer)
    bots = KernelSeats(rules, bids, plays, dealer, state.dealt, rng.state, state.removed_card,
                       deal_index)
    table = Table(state, seat, bots)
    stdin = sys.stdin  # click's test runner feeds it too

    _say(f"whist-sim play: you are seat {seat} of {p}; dealer seat {dealer}; {rules}")
    _say("bots: " + ", ".join(f"{s}={items[s]}" for s in range(p) if s != seat))
    _say(f"your hand: {hand_text(state.hand(seat))}")
    _say(HELP)
    while True:
        for ev in table.run_bots():
            _say(_event_text(ev, seat))
        if table.over:
            break
        _say("")
        for line in _status(table):
            _say(line)
        while table.waiting:
            click.echo("> ", nl=False)
            line = stdin.readline()
            if not line:
                _say("\ninput ended: the deal is left unfinished")
                sys.exit(1)
            text = line.strip()
            if not text:
                continue
            word = text.lower()
            if word in ("quit", "exit"):
                _say("stopped: the deal is left unfinished")
                sys.exit(1)
            if word in ("help", "?"):
                _say(HELP)
            elif word == "hint":
                h = table.hint()
                verb = {"auction": "call", "frisch": "pass", "contracts": "bid"}.get(
                    state.phase, "play")
                _say(f"hint: {items[seat]} would {verb} {h.text}")
                for why in h.why:
                    _say(f"  {why}")
                for why in _advisor_lines(table, seed):
                    _say(f"  {why}")
            elif word == "history":
                for h_line in table.history() or ["nothing yet"]:
                    _say(h_line)
            elif word == "hand":
                _say(f"your hand: {hand_text(state.hand(seat))}")
            elif word == "legal":
                for s_line in _status(table)[1:]:
                    _say(s_line)
            else:
                try:
                    ev = table.move(text)
                except (IllegalAction, NotationError) as e:
                    _say(f"refused: {e}")
                    continue
                _say(_event_text(ev, seat))
    _say("")
    if state.phase == "thrown_in":
        _say("the deal was thrown in: no score")
    else:
        _say("contracts " + " ".join(str(c) for c in state.contracts) + "; tricks "
             + " ".join(str(t) for t in state.tricks_taken) + "; scores "
             + " ".join(str(x) for x in state.scores))
        _say(f"you: contract {state.contracts[seat]}, tricks {state.tricks_taken[seat]}, "
             f"score {state.scores[seat]}")
    record = table.record(seed, deal_index)
    record["policies"] = [("you" if s == seat else items[s]) for s in range(p)]
    if record_path:
        with open(record_path, "w", encoding="utf-8") as f:
            json.dump(record, f)
        _say(f"record written to {record_path} (check it with: whist-sim replay {record_path})")
    else:
        _say("record: " + json.dumps(record))
