"""The ``learned`` bidding strategy (docs/STRATEGIES.md, docs/BID_MODEL.md): its contract model
is computed alike by both engines, its contracts are legal (RULES §4: the declarer at least his
level, the last bidder off the hooked number) and follow the deal's scoring (RULES §6)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from whist_sim.compiled.entry.batch import play_batch, play_traces
from whist_sim.compiled.ground.layout import rules_array
from whist_sim.compiled.strategies.bidding.learned import contract_features as kernel_features
from whist_sim.compiled.strategies.bidding.learned import deck_row
from whist_sim.core.bid_features import (
    B_HCP,
    B_SHORT,
    BID_FEATURES,
    CLASS_DECLARER,
    CLASS_LAST,
    CLASS_MIDDLE,
    COL_LOG_SPREAD,
    COL_OVER,
    COL_STEER,
    COL_T,
    COL_Z,
    DECKS,
    FITTED,
    N_BID_FEATURES,
    ROW_LENGTH,
    SCALE,
    deck_of,
    position_class,
    weight_rows,
)
from whist_sim.core.bid_features import FITTED_ROWS as WEIGHTS
from whist_sim.core.bid_model import NOTES
from whist_sim.core.rules import Rules
from whist_sim.core.spec import parse_seat
from whist_sim.engine.learned_bidding import contract_features, contract_values
from whist_sim.engine.play import play_deal
from whist_sim.engine.policies import est_q, get_policy

SEED = 808


def _hands(n: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        cards = rng.permutation(52)[:13]
        out.append(sum(1 << int(c) for c in cards))
    return out


def test_a_bare_learned_in_a_bidding_position_is_the_learned_bidder():
    bid, play = parse_seat("learned/learned")
    assert (bid.name, bid.kind, play.name, play.kind) == ("learned", "bid", "learned", "play")


def test_the_weights_have_a_row_per_position_class_and_a_column_per_feature():
    assert len(WEIGHTS) == 3 and all(len(row) == ROW_LENGTH for row in WEIGHTS)
    assert ROW_LENGTH == 2 * N_BID_FEATURES + 3 and len(set(BID_FEATURES)) == N_BID_FEATURES


def test_a_model_fitted_with_fewer_features_weighs_the_new_ones_zero():
    """A feature added to the table does not edit the model by hand: the rows of a model fitted
    without it are laid out in today's columns with a 0 for it; a feature the table does not
    have, or a row of the wrong length, is refused."""
    old = ("one", "hcp")  # trick weights, steer, log spread, zero weights, over share
    rows = weight_rows([(1, 2, 3, 4, 5, 6, 7)] * 3, old)
    row = rows[0]
    assert row[COL_T + BID_FEATURES.index("one")] == 1 and row[COL_T + B_HCP] == 2
    assert (row[COL_STEER], row[COL_LOG_SPREAD]) == (3, 4)
    assert row[COL_Z + BID_FEATURES.index("one")] == 5 and row[COL_Z + B_HCP] == 6
    assert row[COL_OVER] == 7
    assert sum(abs(x) for x in row) == 28  # every other column 0
    with pytest.raises(ValueError, match="does not have: suits"):
        weight_rows([(0,) * 7] * 3, ("one", "suits"))
    with pytest.raises(ValueError, match="rows of 7 columns"):
        weight_rows([(0,) * 6] * 3, old)


def test_position_classes():
    assert position_class(True, 0, 4) == CLASS_DECLARER
    assert position_class(False, 1, 4) == CLASS_MIDDLE
    assert position_class(False, 3, 4) == CLASS_LAST
    assert position_class(False, 2, 3) == CLASS_LAST


def test_both_engines_compute_the_same_hand_features():
    rules = Rules()
    hands = _hands(300, 1)
    seen = set()
    for k, hand in enumerate(hands):
        trump = k % 5
        earlier = [(k + j) % 4 for j in range(k % 4)]  # 0 to 3 contracts, zeros among them
        ref = contract_features(hand, trump, earlier, est_q(hand, trump, rules), rules)
        mine = kernel_features(np.uint64(hand), trump, sum(earlier), len(earlier),
                               earlier.count(0), est_q(hand, trump, rules), 0)
        assert tuple(int(x) for x in mine) == tuple(ref), (hand, trump)
        seen.update((i, v) for i, v in enumerate(ref))
    for i in range(N_BID_FEATURES):  # every feature took two values at least
        assert len({v for j, v in seen if j == i}) >= (1 if i == 0 else 2), BID_FEATURES[i]


@pytest.mark.parametrize("rules", [Rules(), Rules(players=3, three_player_deck="no_suit"),
                                   Rules(players=3, three_player_deck="no_low"),
                                   Rules(players=3, three_player_deck="one_random")], ids=str)
def test_each_deck_bids_with_its_own_trained_model(rules):
    """RULES §7: three players play another deck; the bidder reads the model fitted on it, the
    same one in both engines, and no deck stands in for another."""
    deck = deck_of(rules.players, rules.three_player_deck)
    for cls in (CLASS_DECLARER, CLASS_MIDDLE, CLASS_LAST):
        assert deck_row(rules_array(rules), cls) == 3 * deck + cls
    assert "not trained" not in NOTES[DECKS[deck]]
    others = [FITTED[d] for d in range(len(DECKS)) if d != deck]
    assert all(FITTED[deck] != o for o in others)


def test_no_suit_deck_counts_no_void_in_the_missing_suit():
    """RULES §7: the no_suit deck has no clubs; a hand without clubs is not short in them."""
    rules = Rules(players=3, three_player_deck="no_suit")
    hand = sum(1 << (13 * s + r) for s in (1, 2, 3) for r in range(4))  # no clubs
    assert contract_features(hand, 3, [], 0, rules)[B_SHORT] == 0


@pytest.mark.parametrize("rules", [Rules(), Rules(zero_under=100, made_bonus=20),
                                   Rules(miss_per_trick=5, zero_fail_first=-80),
                                   Rules(players=3, three_player_deck="no_low"),
                                   Rules(players=3, three_player_deck="no_suit"),
                                   Rules(players=3, three_player_deck="one_random",
                                         after_third_frisch="redeal")],
                         ids=str)
def test_engines_agree_deal_for_deal_with_learned_bidders(rules):
    p = rules.players
    bid = ("learned", "heuristic", "learned", "learned")[:p]
    play = ("heuristic",) * p
    n = 60
    tr = play_traces(SEED, 0, n, rules, bid, play)
    policies = []
    for s in range(p):
        b, c = get_policy(bid[s]), get_policy(play[s])
        policies.append(lambda st, rng, b=b, c=c: c(st, rng) if st.phase == "play" else b(st, rng))
    for j in range(n):
        ref = play_deal(SEED, j, rules, policies=policies)
        if tr["thrown_in"][j]:
            assert ref.thrown_in
            continue
        assert tuple(int(x) for x in tr["contracts"][j]) == ref.contracts, j
        assert tuple(int(x) for x in tr["scores"][j]) == ref.scores, j


def test_contracts_are_legal_over_many_deals():
    """RULES §4 on 3,000 deals: the declarer bids at least his level, the contracts never sum
    to the tricks."""
    out = play_batch(SEED, 0, 3000, Rules(), ("learned",) * 4, ("heuristic",) * 4)
    played = ~out["thrown_in"]
    c = np.stack([out[f"contract_{s}"] for s in range(4)])[:, played].astype(int)
    decl = out["declarer"][played].astype(int)
    level = out["level"][played].astype(int)
    assert (c[decl, np.arange(c.shape[1])] >= level).all()
    assert (c.sum(0) != 13).all()


def test_a_richer_zero_is_bid_more_often():
    """RULES §6: the zero's score is read from the rules; at 100 points a zero made under, the
    learned bidder bids zero more often than at the rule book's 50."""
    zeros = []
    for rules in (Rules(), Rules(zero_under=100)):
        out = play_batch(SEED, 0, 1500, rules, ("learned",) * 4, ("heuristic",) * 4)
        played = ~out["thrown_in"]
        c = np.stack([out[f"contract_{s}"] for s in range(4)])[:, played]
        zeros.append((c == 0).mean())
    assert zeros[1] > zeros[0] + 0.01


def test_the_value_of_a_contract_follows_the_scoring():
    """RULES §6: a larger made bonus raises every non-zero contract's value by the chance of
    making it times the extra points (20 here); a zero's value does not move."""
    hand = _hands(1, 3)[0]
    feats = contract_features(hand, 2, [3], est_q(hand, 2, Rules()), Rules())
    legal = list(range(14))
    a = contract_values(feats, CLASS_MIDDLE, legal, 13, -1, Rules())
    b = contract_values(feats, CLASS_MIDDLE, legal, 13, -1, Rules(made_bonus=30))
    assert a[0] == b[0]
    gains = [b[k] - a[k] for k in range(1, 14)]
    assert all(0 <= g <= 20 + 1e-9 for g in gains)  # 20 extra points times a chance
    assert max(gains) > 0.1


def test_the_trainer_values_contracts_as_the_reference_does(load_script):
    mod = load_script("train_bidding")
    rules = Rules()
    hands = _hands(12, 5)
    feats = np.array([contract_features(h, k % 5, [k % 4] * (k % 3), est_q(h, k % 5, rules), rules)
                      for k, h in enumerate(hands)], dtype=float)
    cls = np.array([k % 3 for k in range(12)])
    over = np.where(cls == CLASS_LAST, np.arange(12) % 2, -1)
    theta = np.array(WEIGHTS, dtype=float) / SCALE
    mine = mod.values(theta.ravel(), feats, cls, over, 13)
    for k in range(12):
        ref = contract_values([int(x) for x in feats[k]], int(cls[k]), list(range(14)), 13,
                              int(over[k]), rules)
        assert np.allclose([ref[b] for b in range(14)], mine[k], atol=1e-9), k


def test_the_trainers_gradient_is_the_derivative_of_its_loss(load_script):
    """The fit follows the gradient written out in the trainer: it must be the loss's slope
    (central differences), for every weight of every position class."""
    mod = load_script("train_bidding")
    rules = Rules()
    hands = _hands(30, 7)
    feats = np.array([contract_features(h, k % 5, [k % 3] * (k % 4), est_q(h, k % 5, rules),
                                        rules)
                      for k, h in enumerate(hands)], dtype=float)
    cls = np.array([k % 3 for k in range(30)])
    over = np.where(cls == CLASS_LAST, np.arange(30) % 2, -1)
    over[1] = -1  # a middle seat: the zero's over share counts
    regret = np.random.default_rng(3).uniform(0.0, 20.0, (30, 14))
    theta = np.array(WEIGHTS, dtype=float).ravel() / SCALE

    def loss(th):
        v = mod.values(th, feats, cls, over, 13) / 2.0
        p = np.exp(v - v.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        e = (p * regret).sum(1)
        dv = p * (regret - e[:, None]) / (2.0 * len(e))
        return e.mean(), mod.values(th, feats, cls, over, 13, grad=dv)[1]

    _, grad = loss(theta)
    for i in range(theta.size):
        d = np.zeros_like(theta)
        d[i] = 1e-6
        slope = (loss(theta + d)[0] - loss(theta - d)[0]) / 2e-6
        assert abs(slope - grad[i]) < 1e-5 * max(1.0, abs(slope)), i


def test_the_trainer_writes_one_decks_model_and_keeps_the_others(tmp_path, load_script):
    mod = load_script("train_bidding")
    path = tmp_path / "bid_model.py"
    four = tuple(tuple(range(k, k + ROW_LENGTH)) for k in range(3))
    mod.write_model(path, "four", four, "four's note")
    models, notes = mod.read_model(path)
    assert models["no_low"] == four and "not trained" in notes["no_low"]
    low = tuple(tuple(-x for x in row) for row in four)
    mod.write_model(path, "no_low", low, "no_low's note")
    models, notes = mod.read_model(path)
    assert (models["four"], models["no_low"], notes["four"], notes["no_low"]) == (
        four, low, "four's note", "no_low's note")


def test_the_data_card_keeps_the_sections_of_the_decks_not_trained(tmp_path, load_script):
    mod = load_script("train_bidding")
    card = tmp_path / "card.md"
    card.write_text("# card\n\n## Held-out figures\n\n### four players\n\nfour's figures\n\n"
                    "### three players, `no_low` deck\n\nold no_low\n\n## Features\n")
    assert set(mod.card_sections(card.read_text())) == {"four", "no_low"}
    measures = {"hands": 10, "model_regret": 1.0, "model_own": 0.5, "heuristic_regret": 2.0,
                "heuristic_own": 0.4, "classes": {}, "tables": {}}
    opts = SimpleNamespace(min_hands=5, deals=10, tables="`heuristic`", seed=0, rounds=1,
                           tau=2.0, l2=1e-4, maxiter=10)
    mod.write_card(card, opts, {"no_low": (measures, {"heuristic": (0, 10)})}, 60.0)
    text = card.read_text()
    assert "four's figures" in text and "old no_low" not in text  # kept, and written anew
    assert text.index("### four players") < text.index("### three players, `no_low`") < text.index(
        "## Features")
    assert text.count("### three players, `no_low` deck") == 1


def test_bench_measures_the_learned_bidder_against_the_heuristic():
    from whist_sim.analyses.bench.bidder import bench_bidder

    r = bench_bidder(seconds=0.05)
    assert set(r) == {"bidder_learned_deals_per_s", "bidder_heuristic_deals_per_s",
                      "bidder_learned_vs_heuristic"}
    assert r["bidder_learned_vs_heuristic"] == pytest.approx(
        r["bidder_learned_deals_per_s"] / r["bidder_heuristic_deals_per_s"])
    assert all(v > 0 for v in r.values())


def test_the_field_figure_is_the_tournaments_first_entrant_against_the_heuristic_table(
        tmp_path, load_script):
    """The data card's strength: one learned bidder among heuristic ones, in each position in
    turn, minus the all-heuristic table on the same deals, is the tournament's figure."""
    import pandas as pd

    from whist_sim.analyses.tournament import tournament

    mod = load_script("measure_bidding")
    deals, seed = 40, 5
    f = mod.field("four", deals, seed)
    scores = {}
    for name, entrants in (("mixed", ["learned"] + ["heuristic"] * 3), ("base", ["heuristic"] * 4)):
        tournament(entrants, deals, seed, rules=Rules(), rotations="4", out=tmp_path / name,
                   threads=1, progress=False, check=None, command="test")
        scores[name] = pd.read_parquet(tmp_path / name / "scores" / "part-00000.parquet")
    per_deal = scores["mixed"].iloc[:, 1] - scores["base"].drop(columns="deal").mean(axis=1)
    assert f["diff"] == pytest.approx(per_deal.mean())
    assert f["ci"][0] < f["diff"] < f["ci"][1] and 0.0 <= f["p"] <= 1.0
    assert 0.0 <= f["zero_heuristic"] <= 1.0 and 0.0 <= f["zero_learned"] <= 1.0
    assert "--deals 40 --seed 5" in mod.command("four", deals, seed)
    assert "--players 3 --three-player-deck no_low" in mod.command("no_low", deals, seed)


def test_the_strength_section_is_renewed_in_place_and_kept_by_a_new_card(tmp_path, load_script):
    mod = load_script("train_bidding")
    card = tmp_path / "card.md"
    card.write_text("# card\n\n## Held-out figures\n\n### four players\n\nfour's figures\n\n"
                    "## Features\n\n| f |\n")
    mod.write_strength(card, "| old table |")
    mod.write_strength(card, "| new table |")
    text = card.read_text()
    assert text.count(mod.STRENGTH) == 1 and "new table" in text and "old table" not in text
    assert text.index("four's figures") < text.index(mod.STRENGTH) < text.index("## Features")
    measures = {"hands": 10, "model_regret": 1.0, "model_own": 0.5, "heuristic_regret": 2.0,
                "heuristic_own": 0.4, "classes": {}, "tables": {}}
    opts = SimpleNamespace(min_hands=5, deals=10, tables="`heuristic`", seed=0, rounds=1,
                           tau=2.0, l2=1e-4, maxiter=10)
    mod.write_card(card, opts, {"four": (measures, {"heuristic": (0, 10)})}, 60.0)
    text = card.read_text()  # a card written anew keeps the strength until measured again
    assert text.count(mod.STRENGTH) == 1 and "new table" in text
    assert text.index(mod.STRENGTH) < text.index("## Features")
    card.write_text("# card without features\n")
    with pytest.raises(ValueError, match="Features"):
        mod.write_strength(card, "| t |")
