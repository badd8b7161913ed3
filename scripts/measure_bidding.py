"""Measurement: the ``learned`` bidder in a field of ``heuristic`` bidders, per deck.

    python scripts/measure_bidding.py [--decks four,no_suit,...] [--deals N] [--seed S]
        [--seconds 3]

For each deck (:data:`whist_sim.core.rules.DECKS`; its rules are the rule book's otherwise),
prints in one JSON object (``markdown``: the table of docs/BID_MODEL.md's strength section):

* ``field``: one ``learned`` bidder among ``heuristic`` ones, ``learned`` play at every seat,
  against the all-``heuristic`` table on the same deals: the per-deal difference of the
  ``learned`` seat's points and a ``heuristic`` seat's in the same position, averaged over the
  positions (the same figure as ``whist-sim tournament --strategies learned,heuristic,...``
  against four ``heuristic``: the first entrant's per-deal difference), with its 95 % CI and
  p-value; and how often each bids zero;
* ``speed``: deals per second on one thread of that table against the all-``heuristic`` one
  (:func:`whist_sim.analyses.bench.bidder.bench_bidder`).

Sizes and seeds by default: four players 20,000 deals, seed 2027; a three-player deck 10,000
deals, seed 2029 (neither is a training seed: ``scripts/train_bidding.py`` charts with seeds 0
and 1). ``scripts/train_bidding.py`` runs it after training, in a fresh process (the bidder
compiles with the new weights), and puts its table in the data card.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from whist_sim.core.rules import DECK_WORDS

#: deals and seed of each deck's field by default
DEFAULTS = {"four": (20000, 2027)}
THREE_PLAYER_DEFAULT = (10000, 2029)


def defaults(deck: str) -> tuple[int, int]:
    """``(deals, seed)`` of a deck's field by default."""
    return DEFAULTS.get(deck, THREE_PLAYER_DEFAULT)


def field(deck: str, deals: int, seed: int) -> dict:
    """One ``learned`` bidder among ``heuristic`` ones against the all-``heuristic`` table
    (module doc): ``diff``, ``ci``, ``p`` (points per deal), ``zero_learned`` and
    ``zero_heuristic`` (zero bids per seat-deal not thrown in), ``deals``, ``seed``."""
    from whist_sim.compiled.entry.batch import play_batch
    from whist_sim.compiled.strategies.registry import DEFAULT_PLAY
    from whist_sim.core.rules import deck_rules
    from whist_sim.core.stats import Moments, paired_test

    if deals < 2:
        raise ValueError(f"--deals must be at least 2, got {deals}")
    rules = deck_rules(deck)
    p = rules.players
    play = [DEFAULT_PLAY] * p
    base = play_batch(seed, 0, deals, rules, ["heuristic"] * p, play)
    live = ~base["thrown_in"]
    diff = np.zeros(deals)
    zeros_learned = 0
    for s in range(p):
        bid = ["heuristic"] * p
        bid[s] = "learned"
        r = play_batch(seed, 0, deals, rules, bid, play)
        diff += r[f"score_{s}"] - base[f"score_{s}"]
        zeros_learned += int(((r[f"contract_{s}"] == 0) & ~r["thrown_in"]).sum())
    diff /= p
    mean, low, high, pval = paired_test(Moments.of(diff))
    zeros_heuristic = sum(int(((base[f"contract_{s}"] == 0) & live).sum()) for s in range(p))
    seat_deals = p * int(live.sum())
    return {"deals": deals, "seed": seed, "diff": mean, "ci": [low, high], "p": pval,
            "zero_learned": zeros_learned / seat_deals,
            "zero_heuristic": zeros_heuristic / seat_deals}


def speed(deck: str, seconds: float) -> float:
    """Deals/s of one ``learned`` bidder among ``heuristic`` ones over the all-``heuristic``
    table's, one thread, the same process."""
    from whist_sim.analyses.bench.bidder import bench_bidder
    from whist_sim.core.rules import deck_rules

    return bench_bidder(seconds, deck_rules(deck))["bidder_learned_vs_heuristic"]


def command(deck: str, deals: int, seed: int) -> str:
    """The tournament command whose first entrant's per-deal difference from the same command
    with every seat ``heuristic`` is the field figure."""
    from whist_sim.core.rules import deck_rules

    rules = deck_rules(deck)
    flags = rules.flags()
    others = ",".join(["heuristic"] * (rules.players - 1))
    return (f"whist-sim tournament --strategies learned,{others} --deals {deals} --seed {seed}"
            + (f" {flags}" if flags else "") + " --no-check")


def markdown(rows: list[dict]) -> str:
    """The strength table of the data card."""
    out = ["| rules | over a `heuristic` bidder in its seat, points per deal | zero bids: "
           "`learned` / `heuristic` | deals/s against the all-`heuristic` table | deals, seed "
           "| command (against the same with every seat `heuristic`) |",
           "| --- | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        f = r["field"]
        p = "p < 1e-300" if f["p"] == 0 else f"p = {f['p']:.1e}"
        out.append(
            f"| {DECK_WORDS[r['deck']]} | {f['diff']:+.2f} [{f['ci'][0]:+.2f}, "
            f"{f['ci'][1]:+.2f}], {p} | {f['zero_learned']:.1%} / "
            f"{f['zero_heuristic']:.1%} | {r['speed']:.2f} x | {f['deals']:,}, {f['seed']} | "
            f"`{command(r['deck'], f['deals'], f['seed'])}` |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    from whist_sim.core.rules import DECKS

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decks", default=",".join(DECKS),
                    help=f"decks to measure, comma-separated ({', '.join(DECKS)})")
    ap.add_argument("--deals", type=int, default=None,
                    help="deals per deck [default: 20,000 with four players, 10,000 with three]")
    ap.add_argument("--seed", type=int, default=None,
                    help="seed [default: 2027 with four players, 2029 with three]")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds per speed measurement")
    args = ap.parse_args(argv)
    decks = [d.strip() for d in args.decks.split(",") if d.strip()]
    bad = [d for d in decks if d not in DECKS]
    if bad or not decks:
        ap.error(f"--decks: unknown deck(s) {', '.join(bad) or '(none given)'}; the decks: "
                 f"{', '.join(DECKS)}")
    if args.deals is not None and args.deals < 2:
        ap.error(f"--deals must be at least 2, got {args.deals}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be positive, got {args.seconds}")
    rows = []
    for deck in decks:
        deals, seed = defaults(deck)
        deals = args.deals if args.deals is not None else deals
        seed = args.seed if args.seed is not None else seed
        rows.append({"deck": deck, "field": field(deck, deals, seed),
                     "speed": speed(deck, args.seconds)})
    print(json.dumps({"rows": rows, "markdown": markdown(rows)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
