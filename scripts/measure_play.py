"""Measurement: the ``learned`` play policy against ``expert`` and ``rollout:n=16``.

    python scripts/measure_play.py [--deals 20000] [--rollout-deals 2000] [--seconds 3]

Prints one JSON object (``markdown``: the tables of docs/PLAY_MODEL.md):

* ``strength``: a duplicate tournament ``heuristic/learned`` against ``heuristic/expert``, every
  seating, ``--deals`` deals, seed 2026: the difference in points per seat and deal, its 95 % CI
  and p-value;
* ``rollout``: the same with ``heuristic/rollout:n=16`` as a third entrant, ``--rollout-deals``
  deals (every seating of three entrants);
* ``declarer``: one seat plays ``learned`` (each seat in turn), the others ``expert``; the share
  of its declarer contracts made, against ``expert`` in its seat, on the same deals and contracts
  (heuristic bidding; ``--deals`` deals);
* ``declarer_search``: the same for ``rollout:n=16`` in that seat, with ``learned`` and ``expert``
  on the same contracts (the first ``--rollout-deals`` deals): how far search gets as declarer;
* ``speed``: deals per second on one thread, heuristic bidding, the policy at every seat, for
  ``heuristic``, ``expert`` and ``learned`` in the same run (``learned`` as a ratio to
  ``heuristic``).

With ``--deck`` (a three-player deck of ``core.rules.DECKS``): ``learned`` against ``expert``
and against its searcher ``rollout:n=16:base=learned`` on that deck's rules (``--deals`` and
``--rollout-deals`` deals).

``scripts/train_play.py`` runs it after training (in a fresh process: the policy compiles with
the new weights) and puts its tables in the data card.
"""

from __future__ import annotations

import argparse
import json

from whist_sim.analyses.bench.play import play_rate
from whist_sim.analyses.tournament import tournament
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.core.rules import Rules, deck_rules

SEED = 2026


def deck_flags(deck: str) -> str:
    """The command-line options of a deck's rules, with a leading space (empty for four)."""
    flags = deck_rules(deck).flags()
    return f" {flags}" if flags else ""


def strength(deals: int, plays: tuple[str, ...], deck: str = "four") -> dict:
    entrants = [f"heuristic/{p}" for p in plays]
    s = tournament(entrants, deals, SEED, rules=deck_rules(deck), rotations="all", out=None,
                   threads=None, progress=False,
                   command=f"whist-sim tournament --strategies {','.join(entrants)} --deals "
                   f"{deals} --seed {SEED}{deck_flags(deck)}")
    return {"deals": s["deals"], "plays": s["plays"],
            "means": {e["play"]: e["mean"] for e in s["strategies"]},
            "declarer_made": {e["play"]: e["declarer_hit_rate"] for e in s["strategies"]},
            "pairs": [{k: p[k] for k in ("a", "b", "diff", "ci", "p")} for p in s["pairs"]]}


def declarer(deals: int, plays: tuple[str, ...] = ("learned",)) -> dict:
    """Declarer contracts made by each of ``plays`` in one seat among ``expert`` players (each
    seat in turn, the deals' first ``deals``), and by ``expert`` in its seat: ``contracts``,
    ``made_expert`` and ``made_<play>`` for each play (its name before any ``:``)."""
    names = [pl.split(":")[0] for pl in plays]
    if len(set(names)) != len(names):
        raise ValueError(f"the plays must differ by name (their keys): {plays}")
    rules = Rules()
    bid = ["heuristic"] * 4
    base = play_batch(SEED, 0, deals, rules, bid, ["expert"] * 4)
    n = made_base = 0
    made = dict.fromkeys(plays, 0)
    for s in range(4):
        mine = (~base["thrown_in"]) & (base["declarer"] == s)
        n += int(mine.sum())
        made_base += int((base[f"tricks_{s}"] == base[f"contract_{s}"])[mine].sum())
        for pl in plays:
            r = play_batch(SEED, 0, deals, rules, bid, ["expert"] * s + [pl] + ["expert"] * (3 - s))
            made[pl] += int((r[f"tricks_{s}"] == r[f"contract_{s}"])[mine].sum())
    out = {"contracts": n, "made_expert": made_base / n}
    out.update({f"made_{pl.split(':')[0]}": k / n for pl, k in made.items()})
    return out


def deck_measure(deck: str, deals: int, search_deals: int) -> dict:
    """A three-player deck's model: ``learned`` against ``expert`` (``deals`` deals) and against
    its searcher ``rollout:n=16:base=learned`` (``search_deals`` deals), duplicate, every
    seating, heuristic bidding, that deck's rules."""
    st = strength(deals, ("learned", "expert"), deck)
    ro = strength(search_deals, ("learned", "rollout:n=16:base=learned"), deck)
    rows = ["| measure | value | command |", "| --- | --- | --- |"]
    for m in (st, ro):
        p = m["pairs"][0]
        a, b = p["a"].split("/", 1)[1], p["b"].split("/", 1)[1]
        rows.append(
            f"| `{a}` - `{b}`, points per seat and deal (heuristic bidding, duplicate, every "
            f"seating, {m['deals']:,} deals) | {p['diff']:+.2f} [{p['ci'][0]:+.2f}, "
            f"{p['ci'][1]:+.2f}], p = {p['p']:.1e} | `whist-sim tournament --strategies "
            f"heuristic/{a},heuristic/{b} --deals {m['deals']} --seed {SEED}"
            f"{deck_flags(deck)}` |")
    return {"deck": deck, "strength": st, "search": ro, "seed": SEED,
            "markdown": "\n".join(rows)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--rollout-deals", type=int, default=2000)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--deck", default="four", help="the model's deck (core.rules.DECKS); a "
                    "three-player deck measures learned against expert and against "
                    "rollout:n=16:base=learned on that deck")
    args = ap.parse_args()
    if args.deck != "four":
        print(json.dumps(deck_measure(args.deck, args.deals, args.rollout_deals),
                         default=float))
        return
    rules = Rules()
    speed = {p: play_rate(rules, p, args.seconds, 2000) for p in ("heuristic", "expert", "learned")}
    st = strength(args.deals, ("learned", "expert"))
    ro = strength(args.rollout_deals, ("learned", "expert", "rollout:n=16"))
    dc = declarer(args.deals)
    ds = declarer(args.rollout_deals, ("learned", "rollout:n=16"))
    pair = st["pairs"][0]
    rows = [
        "| measure | value | command |",
        "| --- | --- | --- |",
        f"| `learned` - `expert`, points per seat and deal (heuristic bidding, duplicate, every "
        f"seating, {st['deals']:,} deals) | {pair['diff']:+.2f} [{pair['ci'][0]:+.2f}, "
        f"{pair['ci'][1]:+.2f}], p = {pair['p']:.1e} | `whist-sim tournament --strategies "
        f"heuristic/learned,heuristic/expert --deals {st['deals']} --seed {SEED}` |",
    ]
    for p in ro["pairs"]:
        rows.append(
            f"| `{p['a'].split('/', 1)[1]}` - `{p['b'].split('/', 1)[1]}` (three entrants, "
            f"{ro['deals']:,} deals) | {p['diff']:+.2f} [{p['ci'][0]:+.2f}, {p['ci'][1]:+.2f}], "
            f"p = {p['p']:.1e} | `whist-sim tournament --strategies heuristic/learned,"
            f"heuristic/expert,heuristic/rollout:n=16 --deals {ro['deals']} --seed {SEED}` |")
    rows += [
        f"| declarer contracts made, one seat `learned` among `expert` players ({dc['contracts']:,}"
        f" contracts) | {100 * dc['made_learned']:.1f} % (`expert` in its seat: "
        f"{100 * dc['made_expert']:.1f} %) | `python scripts/measure_play.py` |",
        f"| the same, one seat `rollout:n=16` ({ds['contracts']:,} contracts of the first "
        f"{args.rollout_deals:,} deals) | {100 * ds['made_rollout']:.1f} % (`learned` "
        f"{100 * ds['made_learned']:.1f} %, `expert` {100 * ds['made_expert']:.1f} %) | `python "
        f"scripts/measure_play.py` |",
        f"| deals/s on one thread: `learned` / `expert` / `heuristic` | {speed['learned']:,.0f} / "
        f"{speed['expert']:,.0f} / {speed['heuristic']:,.0f} (`learned`: "
        f"{speed['learned'] / speed['heuristic']:.2f} x `heuristic`) | `python "
        f"scripts/measure_play.py` |",
    ]
    print(json.dumps({"strength": st, "rollout": ro, "declarer": dc, "declarer_search": ds,
                      "speed": speed,
                      "seed": SEED, "markdown": "\n".join(rows)}, default=float))


if __name__ == "__main__":
    main()
