"""A new strategy is its own file plus its registry entry (docs/CONTRIBUTING.md, "Adding a
strategy"): this test follows that recipe word for word on a copy of the package, with a
throw-away bidding strategy (``thrifty``: never bids in the auction, contracts the fewest tricks
it may) and a throw-away play policy (``lowest``: its lowest legal card), and plays a tournament
with them. Nothing else of the package is edited; before the dispatch is generated again the
copy refuses to load it, and afterwards every seat plays the code its entry names (a seat that
fell back to ``random`` would bid, and would not always play its lowest card).

The copy compiles a loop of its own (in a cache of its own, which it deletes with the tmp
folder), so this is one of the suite's longer tests.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import whist_sim
from whist_sim.core.registry import BID_POLICIES, PLAY_POLICIES

#: step 1 of the recipe: the strategy's own file, its decisions in the signatures of the decision
#: points (whist_sim.core.registry.Decisions)
THRIFTY = '''"""A throw-away bidding strategy: it never bids in the auction and contracts the fewest
tricks it may."""

from __future__ import annotations

from ...ground._numba import jit


@jit(inline="always")
def thrifty_decide_call(st, hm, rp, seat, lo, hi, rng, par):
    """Pass, always."""
    return 0


@jit(inline="always")
def thrifty_decide_contract(st, hm, rp, seat, lo, forbidden, rng, par):
    """The lowest legal contract."""
    return lo if lo != forbidden else lo + 1
'''

LOWEST = '''"""A throw-away play policy: its lowest legal card (the lowest card code)."""

from __future__ import annotations

from ...ground._numba import jit
from ...ground.bits import ctz


@jit(inline="always")
def lowest_decide_card(st, hm, rp, seat, legal, rng, par):
    """The lowest card of the mask ``legal``."""
    return ctz(legal)
'''

BID_ID = max(i.id for i in BID_POLICIES.values()) + 1
PLAY_ID = max(i.id for i in PLAY_POLICIES.values()) + 1

#: step 2: the entries, at the end of BID_POLICIES and PLAY_POLICIES (the next free ids)
BID_ENTRY = f'''    "thrifty": PolicyInfo(
        "thrifty", {BID_ID}, BID,
        "never bids in the auction; contracts the fewest tricks it may",
        decide=_bidder("thrifty", "thrifty_decide_call", _HEURISTIC_FRISCH,
                       "thrifty_decide_contract"),
    ),
'''
PLAY_ENTRY = f'''    "lowest": PolicyInfo(
        "lowest", {PLAY_ID}, PLAY, "plays its lowest legal card",
        decide=_player("lowest", "lowest_decide_card"),
    ),
'''

GENERATE = '''
from whist_sim.core.registry import PolicyError
try:
    import whist_sim.compiled.strategies.dispatch
except PolicyError as err:
    print("refused:", err)
from whist_sim.compiled.strategies.generate import main
main()
'''

#: step 4: a tournament with it, and the cards of a few deals that every seat plays ``lowest``
PLAY = '''
import json
from whist_sim.analyses.tournament import tournament
from whist_sim.compiled.entry.batch import play_traces
from whist_sim.core.rules import Rules

s = tournament(["thrifty/lowest", "heuristic/heuristic"], 8, 5, threads=1, progress=False)
tr = play_traces(3, 0, 12, Rules(), ["thrifty", "heuristic", "heuristic", "heuristic"],
                 ["lowest"] * 4)
print(json.dumps({"strategies": s["strategies"],
                  "traces": {k: tr[k].tolist() for k in ("hands", "plays", "n_plays")}}))
'''


def _insert(text: str, table: str, entry: str) -> str:
    """``text`` with ``entry`` at the end of the dict ``table`` (before its closing brace)."""
    start = text.index(f"{table}: dict[str, PolicyInfo] = {{")
    end = text.index("\n}\n", start) + 1
    return text[:end] + entry + text[end:]


def _run(code: str, src: Path, cache: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache))
    return subprocess.run([sys.executable, "-c", code], cwd=src, env=env, capture_output=True,
                          text=True, timeout=900)


@pytest.mark.slow
def test_a_strategy_added_by_the_recipe_plays_a_tournament(tmp_path):
    src = tmp_path / "src"
    package = src / "whist_sim"
    shutil.copytree(Path(whist_sim.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    strategies = package / "compiled" / "strategies"
    # 1. its own file
    (strategies / "bidding" / "thrifty.py").write_text(THRIFTY, encoding="utf-8")
    (strategies / "play" / "lowest.py").write_text(LOWEST, encoding="utf-8")
    # 2. its entry
    registry = package / "core" / "registry.py"
    text = registry.read_text(encoding="utf-8")
    registry.write_text(_insert(_insert(text, "BID_POLICIES", BID_ENTRY), "PLAY_POLICIES",
                                PLAY_ENTRY), encoding="utf-8")
    cache = tmp_path / "cache"
    # the dispatch not yet generated: the copy refuses to load it rather than play random; then
    # 3. the dispatch generated again (one process for both: the generator needs no dispatch)
    made = _run(GENERATE, src, cache)
    assert made.returncode == 0, made.stderr
    assert "refused: " in made.stdout and "decisions.py is stale" in made.stdout
    generated = (strategies / "decisions.py").read_text(encoding="utf-8")
    assert f"pid == {BID_ID}" in generated and "thrifty_decide_call(" in generated
    assert f"pid == {PLAY_ID}" in generated and "lowest_decide_card(" in generated
    # 4. a tournament with it
    run = _run(PLAY, src, cache)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout.strip().splitlines()[-1])
    thrifty = next(s for s in out["strategies"] if s["name"] == "thrifty/lowest")
    other = next(s for s in out["strategies"] if s["name"] == "heuristic/heuristic")
    assert thrifty["declarer_rate"] == 0 < other["declarer_rate"]  # it never bid
    tr = out["traces"]
    played = 0
    for d, hands in enumerate(tr["hands"]):
        held = list(hands)
        trick: list[int] = []
        for card in tr["plays"][d][:tr["n_plays"][d]]:
            seat = next(s for s in range(4) if held[s] >> card & 1)
            cards = [c for c in range(52) if held[seat] >> c & 1]
            follow = [c for c in cards if trick and c // 13 == trick[0] // 13]
            assert card == min(follow or cards), f"deal {d}: seat {seat} played {card}"
            held[seat] &= ~(1 << card)
            trick = [] if len(trick) == 3 else trick + [card]
            played += 1
    assert played > 0
