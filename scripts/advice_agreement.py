"""Analysis: does the advice hold under search? ``advise`` on twelve hands under several plays.

    python scripts/advice_agreement.py [--deals 2000] [--plays learned,expert,rollout:n=16]

Twelve contract decisions chosen across the shapes that matter (strong trump hands, balanced
hands, zero-bid hands, No Trump hands; declarer, middle and last bidder). For each, ``advise``
(heuristic bidding assumed for the others, reading the table, ``--deals`` sampled deals, seed 1,
no check) recommends a contract under every play of
``--plays`` (every seat plays it); a searching play is screened as ``advise --play`` does by
default. Prints a Markdown table: per hand, each play's recommended bid with its expected score
(points), and whether the first play's bid equals the last's (by default: ``learned`` against
``rollout:n=16``). docs/STRATEGIES.md quotes it.
"""

from __future__ import annotations

import argparse
import sys
import time

from whist_sim.analyses.advisor.evaluate import advise

#: (label, hand, trump, declarer, earlier contracts in bidding order from the declarer)
HANDS = (
    ("strong spades, declarer", "AKQJ72.A4.K53.82", "S", 0, ""),
    ("long hearts, declarer", "K4.AQJ9863.A7.52", "H", 0, ""),
    ("7-card spade suit, declarer", "AKQ9843.K3.Q5.72", "S", 0, ""),
    ("balanced 13 HCP, second", "KJ4.Q83.A742.K95", "S", 0, "6"),
    ("balanced 10 HCP, third", "Q84.K72.J953.A64", "H", 0, "7,2"),
    ("balanced 15 HCP, last", "AQ5.KJ4.Q863.K72", "D", 0, "7,3,2"),
    ("weak, zero candidate, second", "8652.743.962.T84", "S", 0, "6"),
    ("weak with an ace, third", "J652.A43.9652.84", "H", 0, "6,1"),
    ("zero candidate, last", "9752.832.T64.753", "C", 0, "5,2,3"),
    ("NT, 24 HCP, declarer", "AK5.AQJ4.KQ3.AJ2", "NT", 0, ""),
    ("NT, 20 HCP, declarer", "AQ4.KQ3.AJ52.KJ4", "NT", 0, ""),
    ("two suits, declarer", "AKJ94.AQT83.K.72", "D", 0, ""),
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--plays", default="learned,expert,rollout:n=16")
    ap.add_argument("--hands", type=int, default=len(HANDS), help="the first N hands only")
    args = ap.parse_args(argv)
    plays = args.plays.split(",")
    rows = []
    same = 0
    t0 = time.time()
    for label, hand, trump, declarer, bids in HANDS[: args.hands]:
        cells = []
        recs = []
        for play in plays:
            a = advise(hand, trump=trump, declarer=declarer, bids=bids, play=play,
                       deals=args.deals, seed=1, check=None)
            ev = float(a.table.loc[a.recommended, "ev"])
            recs.append(a.recommended)
            cells.append(f"{a.recommended} ({ev:+.1f})")
            print(f"{label}: {play}: {a.recommended} ({ev:+.1f}), {time.time() - t0:.0f} s",
                  file=sys.stderr, flush=True)
        agree = recs[0] == recs[-1]
        same += agree
        pos = f"{len(bids.split(',')) if bids else 0}"
        rows.append(f"| {label} | `{hand}` | {trump} | {bids or '-'} (position {pos}) | "
                    + " | ".join(cells) + f" | {'yes' if agree else '**no**'} |")
    head = ("| hand | cards | trump | contracts before | " + " | ".join(f"`{p}`" for p in plays)
            + f" | `{plays[0]}` = `{plays[-1]}` |")
    print(head)
    print("|" + " --- |" * (4 + len(plays) + 1))
    print("\n".join(rows))
    print(f"\n{same} of {len(rows)} hands: `{plays[0]}` and `{plays[-1]}` recommend the same bid "
          f"({args.deals:,} deals a play, seed 1).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
