"""Readable renderings: a deal trace as a table-side narrative, and replay results as a table.

Cards are written as in RULES §9 (``AS``, ``TH``); hands as ``S:AKQ2 H:K3 D:QJ54 C:872``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..core.cards import card_str, cards_of, format_hand
from .play import DealTrace
from .record import GameReplayResult, ReplayResult
from .state import PASS, call_str, strain_str, winning_index


def render_trace(trace: DealTrace, policies: Sequence[str] | None = None) -> str:
    """A multi-line description of one deal: hands, calls, Frisch passes, contracts, every trick
    with its winner, and the scores (RULES §2-§6)."""
    r = trace.rules
    p = r.players
    lines: list[str] = []
    head = f"Deal {trace.deal} of seed {trace.seed}: dealer seat {trace.dealer}, {p} players"
    lines.append(head)
    lines.append(f"Rules: {r}")
    if policies:
        lines.append("Policies: " + ", ".join(f"seat {s} {n}" for s, n in enumerate(policies)))
    if trace.removed_card >= 0:
        lines.append(f"Removed card (one_random deck): {card_str(trace.removed_card)}")
    lines.append("")
    lines.append("Hands as dealt:")
    for s in range(p):
        lines.append(f"  seat {s}  {format_hand(trace.dealt[s], style='suits')}")

    # auction rounds, split by Frisch (RULES §2, §3)
    first = (trace.dealer + 1) % p
    rounds: list[list[int]] = []
    current: list[int] = []
    highest = PASS
    for code in trace.calls:
        current.append(code)
        if code != PASS:
            highest = code
        if highest == PASS and len(current) == p:
            rounds.append(current)
            current, highest = [], PASS
    if current or not rounds:
        rounds.append(current)
    min_level = 5
    for a, calls in enumerate(rounds):
        lines.append("")
        lines.append(f"Auction {a + 1} (minimum level {min_level}, seat {first} calls first):")
        cells = [f"seat {(first + i) % p}: {call_str(c)}" for i, c in enumerate(calls)]
        for i in range(0, len(cells), p):
            lines.append("  " + "   ".join(f"{c:<14}" for c in cells[i : i + p]).rstrip())
        if a < len(trace.frisch):
            passed = trace.frisch[a]
            off = r.direction_offset(a)
            lines.append("")
            lines.append(f"Frisch {a + 1}: every seat passes three cards {r.frisch_directions[a]}")
            for k in range(p):
                s = (first + k) % p
                cards = " ".join(card_str(c) for c in cards_of(passed[s]))
                lines.append(f"  seat {s} passes {cards} to seat {(s + off) % p}")
            if r.frisch_raises_minimum:
                min_level += 1
    lines.append("")
    if trace.thrown_in:
        why = "Frisch is off" if not r.frisch else "three Frisches were played"
        lines.append(f"All passed and {why}: the deal is thrown in; everyone scores 0.")
        return "\n".join(lines)

    lines.append(
        f"Declarer: seat {trace.declarer}, {trace.level}{strain_str(trace.trump)} "
        f"(trump {'none (NT)' if trace.trump == 4 else strain_str(trace.trump)}, "
        f"level {trace.level})"
    )
    if trace.frisch:
        lines.append("Hands at the start of play:")
        for s in range(p):
            lines.append(f"  seat {s}  {format_hand(trace.hands[s], style='suits')}")
    order = [(trace.declarer + k) % p for k in range(p)]
    total = sum(trace.contracts)
    kind = "over" if trace.over else "under"
    lines.append(
        "Contracts (declarer first): "
        + ", ".join(f"seat {s} {trace.contracts[s]}" for s in order)
        + f"; sum {total} of {r.n_tricks} tricks: {kind}"
    )
    lines.append("")
    lines.append("Play:")
    leader = trace.declarer
    plays = trace.plays
    for t in range(len(plays) // p):
        trick = plays[t * p : (t + 1) * p]
        seats = [(leader + k) % p for k in range(p)]
        winner = seats[winning_index(list(zip(seats, trick, strict=True)), trace.trump)]
        cells = "  ".join(f"{s}:{card_str(c)}" for s, c in zip(seats, trick, strict=True))
        lines.append(f"  trick {t + 1:>2}  {cells}   -> seat {winner}")
        leader = winner
    lines.append("")
    lines.append("seat  contract  tricks  score")
    for s in range(p):
        lines.append(
            f"{s:>4}  {trace.contracts[s]:>8}  {trace.tricks[s]:>6}  {trace.scores[s]:>5}"
        )
    return "\n".join(lines)


def render_replay_table(rows: Sequence[tuple[str, ReplayResult]]) -> str:
    """A readable table of replay results, one row per file (refused records show the breach)."""
    header = ("file", "result", "declarer", "bid", "contracts", "over", "tricks", "scores")
    table: list[tuple[str, ...]] = []
    for name, res in rows:
        if not res.ok:
            table.append((name, "REFUSED", res.error))
            continue
        if res.thrown_in:
            table.append((name, "thrown in", "", "", "", "", "",
                          " ".join(str(x) for x in res.scores or ())))
            continue
        status = "ok" if res.finished else "unfinished"
        if res.revokes:
            status += f", {len(res.revokes)} revoke(s)"
        table.append(
            (
                name,
                status,
                "" if res.declarer < 0 else str(res.declarer),
                "" if res.declarer < 0 else f"{res.level}{strain_str(res.trump)}",
                " ".join(str(x) for x in res.contracts) if res.contracts is not None else "",
                "" if res.over is None else ("over" if res.over else "under"),
                " ".join(str(x) for x in res.tricks) if res.tricks is not None else "",
                " ".join(str(x) for x in res.scores) if res.scores is not None else "",
            )
        )
    widths = [len(h) for h in header]
    for row in table:
        widths = [max(w, len(c)) for w, c in zip(widths, row[:2], strict=False)] + widths[2:]
        if len(row) == len(header):
            widths = [max(w, len(c)) for w, c in zip(widths, row, strict=True)]
    out = ["  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip()]
    for row in table:
        if len(row) == 3:  # refused: file, result, error
            out.append(f"{row[0].ljust(widths[0])}  {row[1].ljust(widths[1])}  {row[2]}")
        else:
            out.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(out)


__all__ = ["render_replay_table", "render_trace"]


def render_game_replay(name: str, res: GameReplayResult) -> str:
    """The replay of a game record: one line per deal with the running totals, then the end."""
    if not res.ok:
        return f"{name}  REFUSED  {res.error}"
    rows = [(f"{name}[{k}]", d) for k, d in enumerate(res.deals)]
    table = render_replay_table(rows).splitlines()
    out = [table[0] + "  totals"]
    for line, totals in zip(table[1:], res.running_totals, strict=True):
        out.append(f"{line}  {' '.join(str(x) for x in totals)}")
    if res.finished:
        who = ", ".join(f"seat {s}" for s in res.winners)
        out.append(f"{name}: game ok, {len(res.deals)} deals, winner {who}"
                   f"{' (shared)' if len(res.winners) > 1 else ''}")
    else:
        out.append(f"{name}: game ok so far, {len(res.deals)} deals, no total has reached the "
                   "target")
    return "\n".join(out)
