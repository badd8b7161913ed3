"""Analysis: OpenSpiel's ISMCTS bot against whist-sim's play policies, written to RESULTS/play/.

    python scripts/openspiel_match.py --out results [--deals N] [--simulations S] [--seed 2026]

An outside yardstick for the play ladder (results/play/README.md). Every seat bids ``heuristic``
(calls, Frisch cards, contracts), so only the card play differs. Duplicate: deal ``i`` of the run
``seed`` (the reference engine's deal, dealer ``i % 4``, rule book defaults) is played

* once with every seat playing ``expert`` (the default play before ``learned``, kept so that
  the figures stay comparable), and
* four times more, each time with OpenSpiel's ISMCTS bot (``open_spiel.python.algorithms.ismcts``,
  random-rollout evaluator, ``--simulations`` simulations a card, the game ``israeli_whist`` of
  :mod:`whist_sim.interfaces.openspiel` with its ``resample_from_infostate``) playing the cards of
  one seat and ``expert`` the other three;
* four times with ``learned`` play at that seat (the default play of every other answer);
* and four times with ``heuristic`` play at that seat (the rung below ``expert``).

The unit is the duplicate deal: per deal, the mean over the four seats of the seat's points with
ISMCTS minus its points with ``expert`` (and with ``learned``, ``heuristic``), on the same cards;
Student t 95 % intervals over deals. Writes ``RESULTS/play/openspiel_match.md`` and ``.json`` (the
budget, the sample size, the means and intervals, the time, versions) and the section "An outside
yardstick" of ``RESULTS/play/README.md`` (which ``scripts/play_ladder.py`` keeps when it rewrites
the README). Slow: ISMCTS runs in Python; the default (40 deals x 4 seats, 100 simulations a card)
takes about a quarter of an hour on one core.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

SEATS = 4
DEFAULT_DEALS = 40
DEFAULT_SIMULATIONS = 100
UCT_C = 2.0
ROLLOUTS = 1  # random rollouts per leaf (OpenSpiel's RandomRolloutEvaluator)


def _os_state(game: Any, ds: Any) -> Any:
    """The OpenSpiel state of the reference engine's deal ``ds`` (same cards, same moves)."""
    from whist_sim.core.cards import cards_of
    from whist_sim.interfaces.openspiel import CALLS, CONTRACTS, FRISCH, PLAY

    s = game.new_initial_state()
    p = ds.players
    queues = {seat: cards_of(ds.dealt[seat]) for seat in range(p)}
    for i in range(ds.rules.hand_size * p):
        s.apply_action(queues[(ds.dealer + 1 + i) % p].pop(0))
    calls = list(ds.calls)
    frisch = 0
    while True:
        os_ds = s.deal_state
        if os_ds.phase == "auction" and calls:
            s.apply_action(CALLS + calls.pop(0))
        elif os_ds.phase == "frisch" and frisch < len(ds.frisch):
            for _ in range(p):
                for c in cards_of(ds.frisch[frisch][s.current_player()]):
                    s.apply_action(FRISCH + c)
            frisch += 1
        else:
            break
    if s.deal_state.phase == "contracts":
        for seat in s.deal_state.contract_order:
            if ds.contracts[seat] is None:
                break
            s.apply_action(CONTRACTS + ds.contracts[seat])
    for c in ds.plays:
        s.apply_action(PLAY + c)
    return s


def seeded_resampling(bot: Any) -> None:
    """Draw the bot's resampled worlds from its own seeded random state. OpenSpiel's ISMCTS
    otherwise hands ``resample_from_infostate`` a ``pyspiel.UniformProbabilitySampler`` made
    afresh at every draw with a seed of its own, and two runs of the same seed differ."""
    def resample(state: Any, player: int) -> Any:
        return state.resample_from_infostate(player, bot.random_number)

    bot.set_resampler(resample)


def ismcts_policy(game: Any, bot: Any) -> Any:
    """A reference-engine policy: ``heuristic`` bidding, the ISMCTS bot's cards."""
    from whist_sim.engine.policies import heuristic_policy
    from whist_sim.interfaces.openspiel import PLAY

    def policy(state: Any, rng: Any) -> int:
        if state.phase != "play":
            return heuristic_policy(state, rng)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        action = bot.step(_os_state(game, state))
        return int(action) - PLAY

    return policy


def run(deals: int, simulations: int, seed: int, progress: bool = True) -> dict[str, Any]:
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import whist_sim.interfaces.openspiel  # noqa: F401  (registers israeli_whist)
    from whist_sim import Rules
    from whist_sim.core.stats import mean_interval
    from whist_sim.engine import play_deal
    from whist_sim.engine.seats import seat_policy

    rules = Rules()
    expert = seat_policy("heuristic", "expert")
    heuristic = seat_policy("heuristic", "heuristic")
    learned = seat_policy("heuristic", "learned")
    rows = []
    t0 = time.perf_counter()
    decisions = 0
    for i in range(deals):
        dealer = i % SEATS
        game = pyspiel.load_game("israeli_whist", {"dealer": dealer})
        base = play_deal(seed, i, rules, dealer=dealer, policies=[expert] * SEATS)
        for seat in range(SEATS):
            bot = ismcts.ISMCTSBot(
                game, mcts.RandomRolloutEvaluator(ROLLOUTS, np.random.RandomState(seed + i)),
                uct_c=UCT_C, max_simulations=simulations,
                random_state=np.random.RandomState(1000 * i + seat))
            seeded_resampling(bot)
            pol = ismcts_policy(game, bot)
            seats = [expert] * SEATS
            seats[seat] = pol
            with_bot = play_deal(seed, i, rules, dealer=dealer, policies=seats)
            seats[seat] = heuristic
            with_heur = play_deal(seed, i, rules, dealer=dealer, policies=seats)
            seats[seat] = learned
            with_learned = play_deal(seed, i, rules, dealer=dealer, policies=seats)
            decisions += sum(1 for k in range(len(with_bot.plays)) if k % SEATS == 0)
            rows.append({"deal": i, "seat": seat, "ismcts": with_bot.scores[seat],
                         "expert": base.scores[seat], "heuristic": with_heur.scores[seat],
                         "learned": with_learned.scores[seat],
                         "thrown_in": base.thrown_in})
        if progress:
            el = time.perf_counter() - t0
            print(f"openspiel_match: deal {i + 1}/{deals} ({el:.0f} s)", file=sys.stderr,
                  flush=True)
    wall = time.perf_counter() - t0
    by_deal = {k: np.array([[r[k] for r in rows if r["deal"] == i] for i in range(deals)],
                           dtype=float) for k in ("ismcts", "expert", "learned", "heuristic")}

    def interval(x: np.ndarray) -> dict[str, Any]:
        m, sd, lo, hi = mean_interval(x.mean(axis=1))
        return {"mean": round(m, 3), "ci": [round(lo, 3), round(hi, 3)], "sd": round(sd, 3)}

    return {
        "deals": deals, "seats": SEATS, "plays_with_ismcts": deals * SEATS, "seed": seed,
        "rules": "rule book defaults", "bidding": "heuristic at every seat",
        "ismcts": {"max_simulations": simulations, "uct_c": UCT_C,
                   "evaluator": f"random rollouts ({ROLLOUTS} per leaf)",
                   "final_policy": "most visited", "world_samples": "unlimited",
                   "resampler": "israeli_whist resample_from_infostate"},
        "points": {k: interval(v) for k, v in by_deal.items()},
        "ismcts_minus_expert": interval(by_deal["ismcts"] - by_deal["expert"]),
        "ismcts_minus_heuristic": interval(by_deal["ismcts"] - by_deal["heuristic"]),
        "expert_minus_heuristic": interval(by_deal["expert"] - by_deal["heuristic"]),
        "ismcts_minus_learned": interval(by_deal["ismcts"] - by_deal["learned"]),
        "learned_minus_expert": interval(by_deal["learned"] - by_deal["expert"]),
        "wall_s": round(wall, 1),
        "rows": rows,
    }


def _ci(d: dict[str, Any]) -> str:
    return f"{d['mean']:+.2f} | [{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}]"


def report(s: dict[str, Any], command: str, versions: dict[str, str]) -> str:
    b = s["ismcts"]
    pts = s["points"]
    return "\n".join([
        "# An outside yardstick: OpenSpiel's ISMCTS against whist-sim's play",
        "",
        f"Made by `{command}` ({', '.join(f'{k} {v}' for k, v in versions.items())}); "
        f"seed {s['seed']}, {s['rules']}, {s['bidding']}: only the card play differs. "
        f"Total time {s['wall_s'] / 60:.1f} min.",
        "",
        f"**Sample: {s['deals']} duplicate deals x {s['seats']} seats = "
        f"{s['plays_with_ismcts']} deals played with ISMCTS at one seat** (small: ISMCTS runs in "
        "Python on a shared machine; the intervals say how much that tells).",
        "",
        f"**ISMCTS budget:** OpenSpiel's `ISMCTSBot` (`open_spiel.python.algorithms.ismcts`), "
        f"{b['max_simulations']} simulations per card, UCT c = {b['uct_c']}, {b['evaluator']}, "
        f"{b['final_policy']} child, {b['world_samples']} world samples drawn by "
        f"`{b['resampler']}` (whist-sim's sampler of hidden hands, fed from the bot's seeded "
        "random state). It plays the cards of one "
        "seat; the other three play `expert`. The same deal is played with `expert`, with "
        "`learned` (the default play) and with `heuristic` at that seat.",
        "",
        "| the seat plays | mean points per seat and deal | 95% CI |",
        "|---|---:|---|",
        f"| ISMCTS ({b['max_simulations']} simulations) | {_ci(pts['ismcts'])} |",
        f"| `expert` | {_ci(pts['expert'])} |",
        f"| `learned` | {_ci(pts['learned'])} |",
        f"| `heuristic` | {_ci(pts['heuristic'])} |",
        "",
        "| difference (paired over deals) | points per seat and deal | 95% CI |",
        "|---|---:|---|",
        f"| ISMCTS - `expert` | {_ci(s['ismcts_minus_expert'])} |",
        f"| ISMCTS - `learned` | {_ci(s['ismcts_minus_learned'])} |",
        f"| ISMCTS - `heuristic` | {_ci(s['ismcts_minus_heuristic'])} |",
        f"| `learned` - `expert` (same deals) | {_ci(s['learned_minus_expert'])} |",
        f"| `expert` - `heuristic` (same deals) | {_ci(s['expert_minus_heuristic'])} |",
        "",
        "Per deal: the mean over the four seats of the seat's points; intervals: Student t over "
        "the duplicate deals. `openspiel_match.json` holds every deal and seat.",
        "",
    ])


SECTION = "## An outside yardstick: OpenSpiel's ISMCTS"


def outside_section(s: dict[str, Any]) -> list[str]:
    """The section of the play ladder's README (results/play/README.md) on this match: ISMCTS
    and ``learned`` against ``expert`` at the same seat, with the budget and the sample size."""
    b = s["ismcts"]
    d = s["ismcts_minus_expert"]
    e = s.get("learned_minus_expert")  # absent from a match run before `learned` played in it
    return [
        SECTION,
        "",
        f"OpenSpiel's ISMCTS bot ({b['max_simulations']} simulations per card, "
        f"{b['evaluator']}) playing the cards of one seat, the other three `expert`, every seat "
        f"bidding `heuristic`; {s['deals']} duplicate deals x {s['seats']} seats "
        f"(`scripts/openspiel_match.py`, details in [openspiel_match.md](openspiel_match.md)).",
        "",
        "| at one seat | minus `expert` at that seat (points per seat and deal) | 95% CI | "
        "duplicate deals |",
        "|---|---:|---|---:|",
        f"| ISMCTS, {b['max_simulations']} simulations | {d['mean']:+.2f} | "
        f"[{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}] | {s['deals']} x {s['seats']} seats |",
        *([f"| `learned` (the default play) | {e['mean']:+.2f} | "
           f"[{e['ci'][0]:+.2f}, {e['ci'][1]:+.2f}] | {s['deals']} x {s['seats']} seats |"]
          if e else []),
        "",
    ]


def update_readme(readme: Path, s: dict[str, Any]) -> None:
    """Put :func:`outside_section` into the play ladder's README, before ``## The matches`` (or
    in place of an earlier one)."""
    if not readme.is_file():
        return
    text = readme.read_text(encoding="utf-8")
    section = "\n".join(outside_section(s)) + "\n"
    if SECTION in text:
        start = text.index(SECTION)
        end = text.find("\n## ", start + len(SECTION))
        text = text[:start] + section + (text[end + 1:] if end >= 0 else "")
    elif "## The matches" in text:
        i = text.index("## The matches")
        text = text[:i] + section + text[i:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    readme.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results", help="results folder (writes OUT/play/...)")
    parser.add_argument("--data", default=None,
                        help="unused: make_results.py passes the default dataset to every script")
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.deals < 2 or args.simulations < 1:
        print("Error: --deals must be >= 2 and --simulations >= 1", file=sys.stderr)
        return 2
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("Error: needs OpenSpiel: pip install 'whist-sim[openspiel]'", file=sys.stderr)
        return 2
    from importlib.metadata import version

    from report_default import command_line

    s = run(args.deals, args.simulations, args.seed, progress=not args.no_progress)
    versions = {name: version(name) for name in ("whist-sim", "open-spiel")}
    command = command_line(__file__, sys.argv[1:] if argv is None else argv)
    out = Path(args.out) / "play"
    out.mkdir(parents=True, exist_ok=True)
    (out / "openspiel_match.md").write_text(report(s, command, versions))
    (out / "openspiel_match.json").write_text(json.dumps(
        {**s, "command": command, "versions": versions}, indent=1) + "\n")
    update_readme(out / "README.md", s)
    d = s["ismcts_minus_expert"]
    print(f"ISMCTS - expert: {d['mean']:+.2f} points per seat and deal, 95% CI "
          f"[{d['ci'][0]:+.2f}, {d['ci'][1]:+.2f}] over {s['deals']} deals; written to {out}")
    return 0 if math.isfinite(d["mean"]) else 1


if __name__ == "__main__":
    sys.exit(main())
