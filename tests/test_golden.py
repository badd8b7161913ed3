"""Golden deals (tests/golden/*.json, made by scripts/make_golden.py and checked by hand).

Each file fixes a deal's hands, every action, the legal actions at checkpoints and the result,
covering RULES §2 (auction), §3 (Frisch, thrown in), §4 (contracts, hook), §5 (play, the §5
example trick), §6 (scoring, with options) and §8 (three-player decks). The engine must still
produce exactly this.
"""

import json
from pathlib import Path

import pytest

from whist_sim import Rules
from whist_sim.core.cards import card_str, format_hand
from whist_sim.engine import DealState, play_deal
from whist_sim.engine.play import hands_at_start_of_play
from whist_sim.engine.record import record_from_trace, replay_record
from whist_sim.engine.state import strain_str

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_golden_files_exist():
    names = {p.stem for p in GOLDEN}
    assert {"rules_5_example", "heuristic_frisch", "heuristic_thrown_in", "three_no_low",
            "three_one_random", "random_variants", "heuristic_6h"} <= names
    assert all(load(p)["checked_by_hand"] for p in GOLDEN)


def legal_text(state):
    if state.phase == "contracts":
        return [str(a) for a in state.legal_actions()]
    return [state.describe_action(a) for a in state.legal_actions()]


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_actions_checkpoints_and_result(path):
    g = load(path)
    rules = Rules.from_dict(g["rules"])
    state = DealState.from_text(g["hands"], dealer=g["dealer"], rules=rules)
    checkpoints = {cp["step"]: cp for cp in g["checkpoints"]}
    for step, text in enumerate(g["actions"]):
        cp = checkpoints.pop(step, None)
        if cp is not None:
            assert (state.phase, state.to_move) == (cp["phase"], cp["to_move"]), f"step {step}"
            if "legal" in cp:
                assert legal_text(state) == cp["legal"], f"step {step}"
            else:
                assert len(state.legal_actions()) == cp["legal_count"]
            if "trick" in cp:
                assert [card_str(c) for _, c in state.current_trick] == cp["trick"]
        state.apply_text(text)
    assert not checkpoints and state.is_over
    r = g["result"]
    thrown = state.phase == "thrown_in"
    assert thrown == r["thrown_in"] and state.frisch_count == r["frisch_count"]
    assert (state.declarer, state.level) == (r["declarer"], r["level"])
    assert (strain_str(state.trump) if state.trump >= 0 else None) == r["trump"]
    assert [format_hand(h) for h in hands_at_start_of_play(state)] == r["hands_at_play"]
    assert list(state.scores) == r["scores"]
    if not thrown:
        assert list(state.contracts) == r["contracts"] and state.over == r["over"]
        assert list(state.tricks_taken) == r["tricks"]
        assert [[w, [card_str(c) for _, c in t]] for w, t in state.completed_tricks] == (
            r["tricks_won"])


@pytest.mark.parametrize("path", [p for p in GOLDEN if "seed" in load(p)],
                         ids=lambda p: p.stem)
def test_golden_policy_deals_are_reproduced_by_play_deal(path):
    # ENGINE §3-5: the shuffle and the policies' choices are fixed by (seed, deal)
    g = load(path)
    rules = Rules.from_dict(g["rules"])
    t = play_deal(g["seed"], g["deal"], rules, policies=g["policies"])
    assert t.dealer == g["dealer"]
    assert [format_hand(h) for h in t.dealt] == g["hands"]
    assert record_from_trace(t) == g["record"]
    assert list(t.scores) == g["result"]["scores"]
    # §10: the stored record replays to the stored result
    res = replay_record(g["record"])
    assert res.ok and list(res.scores) == g["result"]["scores"]
