"""Games to the target with three equal players: how many deals they take, per strategy and deck.

For every bidding strategy of the heuristic family and every three-player deck (RULES §8), play
``--games`` games (seeds 1..games) of three seats with that strategy, to the rule book's target,
stopping unfinished after ``--max-deals`` deals; print a Markdown table of the games that ended
and the median and largest number of deals (unfinished games count as ``max_deals``).

    python scripts/three_player_games.py --games 20 --max-deals 400 [--play heuristic]
        [--strategies heuristic,cautious] [--decks no_suit,no_low]
"""

from __future__ import annotations

import argparse
import statistics
import sys

from whist_sim.analyses.reports.render import markdown_rows
from whist_sim.core.rules import Rules
from whist_sim.runs.game import play_game

STRATEGIES = ("heuristic", "hcp", "ltc", "cautious", "aggressive")
DECKS = ("no_suit", "no_low", "one_random")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--max-deals", type=int, default=400)
    ap.add_argument("--play", default="heuristic")
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--decks", default=",".join(DECKS))
    args = ap.parse_args()
    print(f"games of 3 equal players to the default target, play {args.play}, "
          f"{args.games} games (seeds 1..{args.games}), at most {args.max_deals} deals")
    print()
    rows = []
    for name in args.strategies.split(","):
        for deck in args.decks.split(","):
            rules = Rules(players=3, three_player_deck=deck)
            seats = [f"{name}/{args.play}"] * 3
            lengths = []
            ended = 0
            for seed in range(1, args.games + 1):
                g = play_game(seed, rules, seats, args.max_deals)
                lengths.append(g.n_deals)
                ended += g.finished
            rows.append([name, deck, f"{ended}/{args.games}",
                         f"{statistics.median(lengths):g}", str(max(lengths))])
            print(f"{name}, {deck}: done", file=sys.stderr, flush=True)
    print(markdown_rows(["strategy", "deck", "ended", "median deals", "max deals"], rows))


if __name__ == "__main__":
    main()
