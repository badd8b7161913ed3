"""Analysis: whom the answers assume at the other seats, `heuristic` or `learned` bidders,
written to RESULTS/other_seats/.

    python scripts/other_seats.py --data data/default --out results [--situations 1000]
        [--seed 3101] [--choose-deals 4000] [--value-deals 10000]

`advise` and `bid-chart` value a bid against other seats that bid by one strategy (their
``--bid-policy``), and `make run` seats that strategy at the whole table. Which one by default
is a measured decision, made here by what a wrong assumption costs:

1. For each table T (every seat bidding `heuristic`, or every seat `learned`; `learned` play,
   rule book defaults), ``--situations`` contract decisions are drawn from the deals of a
   simulated T table (run ``--seed``, deals not thrown in, in order; decision ``i`` is the
   ``i % 4``-th bidder's, so the four positions come equally often): the hand at the start of
   play, the trump, the declarer, the auction's level and the contracts bid before it.
2. The advice is computed twice with ``--choose-deals`` deals (seed ``--seed + 1``): assuming
   the others bid `heuristic`, and assuming they bid `learned` (each reads the table with its own
   model, as ``advise --bid-policy`` does).
3. Where the two answers differ, both bids are valued as the table T really plays
   (``advise --bid-policy T``, ``--value-deals`` deals, an independent seed ``--seed + 2``, so the
   choice's own luck does not favour it); where they agree the difference is 0.

The figure per table is the mean, over the decisions, of (value of the bid chosen assuming
`learned`) minus (value of the bid chosen assuming `heuristic`), in points per decision, with its
95 % interval. Its sign at a table says which assumption is right there; its size, what assuming
the other one costs. The decision keeps the assumption whose larger cost when wrong is the
smaller (the safer one when the table is unknown); when the two costs cannot be told apart (their
difference's 95 % interval holds 0), the faster assumption to advise with is kept.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from report_default import command_line, git_revision

from whist_sim.analyses.reports.wording import (
    bidding_position_name,
    glossary_rows,
    points_interval,
    share_text,
)
from whist_sim.compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY
from whist_sim.core.stats import Moments, paired_test
from whist_sim.core.version import __version__

NAME = "other_seats"  # sub-directory of the results directory
MODELS = ("heuristic", "learned")  # the two assumptions compared
SITUATIONS = 1000
SEED = 3101
CHOOSE_DEALS = 4000
VALUE_DEALS = 10000
PLAYERS = 4


@dataclass(frozen=True)
class Decision:
    """One contract decision drawn from a simulated table: the bidder's hand (mask, at the start
    of play), ``trump`` (0..3 suits, 4 NT), ``declarer`` seat, auction ``level``, ``seat`` of the
    bidder and ``bids`` (the contracts before it, in bidding order from the declarer)."""

    hand: int
    trump: int
    declarer: int
    level: int
    seat: int
    bids: tuple[int, ...]

    @property
    def position(self) -> int:
        """Bidding position: 0 the declarer, ``PLAYERS - 1`` the hooked last bidder."""
        return len(self.bids)


def decisions(table: str, count: int, seed: int) -> list[Decision]:
    """``count`` contract decisions from deals of a table whose every seat bids ``table``
    (module doc, step 1)."""
    from whist_sim.compiled.entry.batch import play_batch
    from whist_sim.core.rules import Rules

    out: list[Decision] = []
    start, chunk = 0, max(2 * count, 64)
    while len(out) < count:
        r = play_batch(seed, start, chunk, Rules(), [table] * PLAYERS, [DEFAULT_PLAY] * PLAYERS)
        for i in range(chunk):
            if r["thrown_in"][i] or len(out) == count:
                continue
            k = len(out) % PLAYERS
            dec = int(r["declarer"][i])
            seat = (dec + k) % PLAYERS
            bids = tuple(int(r[f"contract_{(dec + j) % PLAYERS}"][i]) for j in range(k))
            out.append(Decision(int(r[f"hand_{seat}"][i]), int(r["trump"][i]), dec,
                                int(r["level"][i]), seat, bids))
        start += chunk
    return out


def advice(d: Decision, model: str, deals: int, seed: int) -> tuple[Any, bool]:
    """The unchecked advice for ``d`` assuming the other seats bid ``model``, and whether it read
    the table. Earlier contracts that ``model`` cannot explain (the advisor refuses them as too
    rare, as ``advise`` would) are advised without reading the table (``--no-infer``)."""
    from whist_sim.analyses.advisor.evaluate import advise
    from whist_sim.analyses.advisor.scenario import AdviceError

    def run(infer: bool) -> Any:
        return advise(d.hand, trump=d.trump, declarer=d.declarer, level=d.level, seat=d.seat,
                      bids=list(d.bids), bid_policy=model, deals=deals, seed=seed, check=None,
                      infer=infer)

    try:
        return run(True), True
    except AdviceError:
        return run(False), False


def compare(d: Decision, table: str, sizes: tuple[int, int], seed: int) -> dict[str, Any]:
    """Module doc, steps 2-3 for one decision: the bid chosen under each assumption and, when
    they differ, their values at ``table`` (``gain``: `learned`'s choice minus `heuristic`'s),
    the seconds each assumption's advice took, and the advice that could not read the table
    (``unread``: the assumptions, and ``value`` for the valuation)."""
    choose, value = sizes
    row: dict[str, Any] = {"table": table, "position": d.position, "hand": d.hand,
                           "bids": list(d.bids), "gain": 0.0, "unread": []}
    for m in MODELS:
        t0 = time.perf_counter()
        a, read = advice(d, m, choose, seed + 1)
        row[f"seconds_{m}"] = time.perf_counter() - t0
        row[f"bid_{m}"] = int(a.recommended)
        if not read:
            row["unread"].append(m)
    if row["bid_heuristic"] != row["bid_learned"]:
        a, read = advice(d, table, value, seed + 2)
        ev = a.table["ev"]
        row["gain"] = float(ev.loc[row["bid_learned"]] - ev.loc[row["bid_heuristic"]])
        if not read:
            row["unread"].append("value")
    return row


def whole_row(r: Any) -> bool:
    """Whether ``r``, read back from the progress file, is a decision as :func:`compare` writes
    it (with its index): the table, index, position, both bids, a finite gain, the seconds."""
    def num(x: Any) -> bool:
        return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)

    return (isinstance(r, dict) and r.get("table") in MODELS
            and isinstance(r.get("i"), int) and r["i"] >= 0
            and r.get("position") in range(PLAYERS) and isinstance(r.get("hand"), int)
            and isinstance(r.get("bids"), list) and len(r["bids"]) == r["position"]
            and all(isinstance(r.get(f"bid_{m}"), int) and 0 <= r[f"bid_{m}"] <= 13
                    and num(r.get(f"seconds_{m}")) for m in MODELS)
            and num(r.get("gain")) and isinstance(r.get("unread"), list))


class Progress:
    """The decisions made so far, one JSON line each after a first line with the run's options:
    an interrupted run started again with the same options goes on from where it stopped (a
    file made with other options is set aside and the run starts over)."""

    def __init__(self, path: Path, options: dict[str, Any]) -> None:
        self.path, self.rows = path, {}
        head = json.dumps({"options": options})
        if path.is_file():
            lines = path.read_text(encoding="utf-8").splitlines()
            if lines and lines[0] == head:
                for line in lines[1:]:
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:  # a line cut short by the interruption
                        break
                    if not whole_row(r):  # not what this script writes: redo from here
                        break
                    self.rows[(r["table"], r["i"])] = r
            else:
                path.replace(path.with_suffix(".stale"))
        with path.open("w", encoding="utf-8") as f:
            f.write(head + "\n")
            for r in self.rows.values():
                f.write(json.dumps(r) + "\n")

    def get(self, table: str, i: int) -> dict[str, Any] | None:
        return self.rows.get((table, i))

    def put(self, table: str, i: int, row: dict[str, Any]) -> dict[str, Any]:
        row = {"i": i, **row}
        self.rows[(table, i)] = row
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")
        return row

    def finish(self) -> None:
        self.path.unlink(missing_ok=True)
        self.path.with_suffix(".stale").unlink(missing_ok=True)


def write_decisions(path: Path, rows: list[dict[str, Any]]) -> None:
    """Every decision, one CSV row: the table, its index, the bidding position, the hand (a
    mask), the earlier contracts, each assumption's bid, the gain and what could not read the
    table."""
    fields = ["table", "i", "position", "hand", "bids", "bid_heuristic", "bid_learned", "gain",
              "unread"]
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(fields)
        for r in rows:
            w.writerow([r["table"], r["i"], r["position"], r["hand"],
                        " ".join(map(str, r["bids"])), r["bid_heuristic"], r["bid_learned"],
                        f"{r['gain']:.4f}", " ".join(r["unread"])])


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Mean gain with its 95 % interval and p, the share of decisions whose answers differ, and
    the same per bidding position."""
    def one(rs: list[dict[str, Any]]) -> dict[str, Any]:
        mean, low, high, p = paired_test(Moments.of([r["gain"] for r in rs]))
        differ = sum(r["bid_heuristic"] != r["bid_learned"] for r in rs)
        return {"n": len(rs), "gain": mean, "ci": [low, high], "p": p,
                "differ": differ / len(rs) if rs else math.nan,
                "unread": sum(bool(r["unread"]) for r in rs)}

    out = one(rows)
    out["by_position"] = {k: one([r for r in rows if r["position"] == k])
                          for k in range(PLAYERS)}
    return out


def decide(by_table: dict[str, dict[str, Any]], seconds: dict[str, float]) -> dict[str, Any]:
    """The default assumption (module doc): the cost of assuming ``m`` at the other table is
    ``-gain`` there for `learned` and ``+gain`` for `heuristic`; keep the smaller worst cost
    unless the two cannot be told apart, then the faster one."""
    cost = {"learned": -by_table["heuristic"]["gain"], "heuristic": by_table["learned"]["gain"]}
    # the two costs come from independent samples: their difference's interval
    se = [(t["ci"][1] - t["ci"][0]) / (2 * 1.96) for t in by_table.values()]
    spread = 1.96 * math.sqrt(sum(s * s for s in se))
    apart = abs(cost["learned"] - cost["heuristic"]) > spread
    faster = min(MODELS, key=lambda m: seconds.get(m, math.inf))
    choice = min(MODELS, key=lambda m: cost[m]) if apart else faster
    return {"cost": cost, "cost_difference_ci_half_width": spread, "apart": apart,
            "faster": faster, "speed_ratio": seconds["learned"] / seconds["heuristic"],
            "choice": choice}


def _table_words(table: str) -> str:
    return f"every seat bidding `{table}`"


def _p_text(p: float) -> str:
    return "< 1e-300" if p == 0 else (f"{p:.3f}" if p >= 0.001 else f"{p:.1e}")


def _clear(s: dict[str, Any]) -> int:
    """+1 when the interval is above 0, -1 below, 0 when it holds 0."""
    return 1 if s["ci"][0] > 0 else (-1 if s["ci"][1] < 0 else 0)


def decision_text(verdict: dict[str, Any]) -> str:
    """The decided default in a sentence, and whether the code's default agrees with it."""
    cost, choice = verdict["cost"], verdict["choice"]
    if verdict["apart"]:
        why = f"the larger cost of a wrong assumption is the smaller with `{choice}`"
    else:
        why = (f"the two costs cannot be told apart (their difference is "
               f"{cost['learned'] - cost['heuristic']:+.2f} ± "
               f"{verdict['cost_difference_ci_half_width']:.2f} points per decision), and "
               f"`{verdict['faster']}` is the faster to advise with (advice assuming `learned` "
               f"takes {verdict['speed_ratio']:.1f} × as long as advice assuming `heuristic`)")
    agree = "agrees with" if choice == DEFAULT_BID else "**differs from**"
    return (f"So the default is `{choice}`: {why}. The code's default (`DEFAULT_BID`, "
            f"`{DEFAULT_BID}`) {agree} this measurement.")


def in_short(by_table: dict[str, dict[str, Any]], verdict: dict[str, Any]) -> str:
    """The report's opening sentences, read from the figures."""
    h, le = by_table["heuristic"], by_table["learned"]
    out = ["`advise` and `bid-chart` value a bid against other seats that bid by one strategy, "
           "and `make run` seats it at the whole table; here the two candidates, `heuristic` "
           "and `learned`, are tried on contract decisions drawn from tables of each."]
    out.append(
        f"At a table where every seat bids `heuristic`, assuming `learned` bidders costs "
        f"{points_interval(-h['gain'], -h['ci'][1], -h['ci'][0], 2, False)} per decision; where "
        f"every seat bids `learned`, assuming `heuristic` ones costs "
        f"{points_interval(le['gain'], le['ci'][0], le['ci'][1], 2, False)} ({h['n']:,} and "
        f"{le['n']:,} decisions; the answers differ on {share_text(h['differ'], 1)} and "
        f"{share_text(le['differ'], 1)} of them).")
    if _clear(h) < 0 and _clear(le) > 0:
        out.append("At each table the right assumption is the table's own.")
    pos = {k: (by_table["heuristic"]["by_position"][k]["differ"]
               + by_table["learned"]["by_position"][k]["differ"]) / 2 for k in range(PLAYERS)}
    most = max(pos, key=lambda k: pos[k])
    out.append(f"The answers differ most often for the {bidding_position_name(most, PLAYERS)} "
               f"({share_text(pos[most], 1)} of his decisions, on average over the two tables).")
    out.append(decision_text(verdict))
    if _clear(le) > 0:
        out.append("At a table known to bid like `learned`, give `--bid-policy learned` "
                   "(`--bid learned` for `bid-chart`, `--policy learned` for `simulate`).")
    return " ".join(out)


def cost_table(by_table: dict[str, dict[str, Any]]) -> str:
    """The table of what a wrong assumption costs, one row per table (also in the README)."""
    lines = ["| the table | decisions | answers differ | `learned`'s choice − `heuristic`'s, "
             "points per decision | p |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for t in MODELS:
        s = by_table[t]
        lines.append(f"| {_table_words(t)} | {s['n']:,} | {share_text(s['differ'], 1)} | "
                     f"{points_interval(s['gain'], s['ci'][0], s['ci'][1], 2, unit='')} | "
                     f"{_p_text(s['p'])} |")
    return "\n".join(lines)


def markdown(by_table: dict[str, dict[str, Any]], verdict: dict[str, Any],
             meta: dict[str, str]) -> str:
    """The report: the decision in sentences first, then the tables, provenance and glossary."""
    lines = [
        "# Whom the answers assume at the other seats",
        "",
        f"**In short.** {in_short(by_table, verdict)}",
        "",
        "## What a wrong assumption costs",
        "",
        "Per table: the contract chosen assuming `learned` bidders minus the contract chosen "
        "assuming `heuristic` ones, both valued as the table really bids, points per decision "
        "(95 % interval; 0 where the two answers agree).",
        "",
        cost_table(by_table),
    ]
    lines += ["", "By bidding position:", "",
              "| the table | position | decisions | answers differ | `learned`'s choice − "
              "`heuristic`'s, points per decision |",
              "| --- | --- | ---: | ---: | ---: |"]
    for t in MODELS:
        for k, s in by_table[t]["by_position"].items():
            lines.append(f"| {_table_words(t)} | {bidding_position_name(k, PLAYERS)} | "
                         f"{s['n']:,} | {share_text(s['differ'], 1)} | "
                         f"{points_interval(s['gain'], s['ci'][0], s['ci'][1], 2, unit='')} |")
    lines += ["", "## How it was made", ""]
    lines += [f"- {k}: {v}" for k, v in meta.items()]
    lines += ["", "## Glossary", "", "| term | meaning |", "| --- | --- |"]
    extra = {
        "decision": "one bidder's contract: the hand, trump, declarer, level and earlier "
                    "contracts of a deal of the simulated table.",
        "assumption": "the bidding strategy the advice gives the other seats: their later "
                      "contracts, and the reading of their earlier ones.",
        "cost": "how much less a decision scores, as the table really bids, when the advice "
                "assumes the other strategy; mean over the decisions.",
    }
    for term, text in glossary_rows(["decision", "assumption", "cost", "declarer",
                                     "95 % interval", "points"], extra):
        lines.append(f"| {term} | {text} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default="data/default", help="default dataset (not read)")
    ap.add_argument("--out", default="results", help="results directory")
    ap.add_argument("--situations", type=int, default=SITUATIONS,
                    help=f"contract decisions per table [default: {SITUATIONS}]")
    ap.add_argument("--seed", type=int, default=SEED,
                    help=f"seed of the tables; the advice uses seed+1 and seed+2 "
                         f"[default: {SEED}]")
    ap.add_argument("--choose-deals", type=int, default=CHOOSE_DEALS,
                    help=f"deals of each advice that chooses a bid [default: {CHOOSE_DEALS}]")
    ap.add_argument("--value-deals", type=int, default=VALUE_DEALS,
                    help=f"deals of the advice that values two bids [default: {VALUE_DEALS}]")
    ap.add_argument("--no-progress", action="store_true", help="no progress lines")
    args = ap.parse_args(argv)
    for name in ("situations", "choose_deals", "value_deals"):
        if getattr(args, name) < 2:
            ap.error(f"--{name.replace('_', '-')} must be at least 2, got {getattr(args, name)}")
    if not 0 <= args.seed < 2**64 - 2:
        ap.error(f"--seed must be 0 .. 2**64-3, got {args.seed}")
    t0 = time.perf_counter()
    out = Path(args.out) / NAME
    out.mkdir(parents=True, exist_ok=True)
    options = {"situations": args.situations, "seed": args.seed,
               "choose_deals": args.choose_deals, "value_deals": args.value_deals,
               "version": __version__}
    done = Progress(out / "decisions.partial.jsonl", options)
    by_table, rows = {}, []
    for table in MODELS:
        mine = []
        for i, d in enumerate(decisions(table, args.situations, args.seed)):
            row = done.get(table, i)
            if row is None:
                row = done.put(table, i, compare(d, table, (args.choose_deals,
                                                            args.value_deals), args.seed))
            mine.append(row)
            if not args.no_progress and (i + 1) % 50 == 0:
                print(f"other_seats: {table} table, {i + 1}/{args.situations} decisions, "
                      f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        by_table[table] = summary(mine)
        rows += mine
    clock = {m: sum(r[f"seconds_{m}"] for r in rows) for m in MODELS}
    verdict = decide(by_table, clock)
    meta = {"command": f"`{command_line(__file__, argv)}`",
            "tables": f"every seat bidding the table's strategy, `{DEFAULT_PLAY}` play, the rule "
                      f"book's rules, four players; decisions from deals of run {args.seed}",
            "advice": f"{args.choose_deals:,} deals to choose (seed {args.seed + 1}), "
                      f"{args.value_deals:,} to value (seed {args.seed + 2}), no check",
            "not read": "decisions whose earlier contracts an assumption could not explain (the "
                        "advisor refuses them as too rare), advised without reading the table "
                        "under it: " + ", ".join(f"{by_table[t]['unread']} of {by_table[t]['n']:,}"
                                                 f" at the `{t}` table" for t in MODELS),
            "version": f"whist-sim {__version__}" + (f", code {git_revision()}"
                                                    if git_revision() else ""),
            "time": f"{(time.perf_counter() - t0) / 60:.1f} min on {os.cpu_count()} CPUs"}
    write_decisions(out / "decisions.csv", rows)
    done.finish()
    (out / "report.md").write_text(markdown(by_table, verdict, meta), encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(
        {"tables": by_table, "decision": verdict, "meta": meta}, indent=1) + "\n",
        encoding="utf-8")
    print(f"other_seats: default assumption {verdict['choice']} ({out / 'report.md'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
