"""The ``learned`` play policy (docs/ENGINE.md §8) and its training (scripts/train_play.py).

The compiled and the reference engine play it move for move (tests/test_engines_agree.py, the
``learned`` seating) and it is blind to the names of the suits (tests/test_play_symmetry.py);
here: its weights and features are the ones the docs state, its tie-breaks are the documented
ones, and the training's objective has the gradient it claims.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from whist_sim.compiled.entry.decide import KernelSeats
from whist_sim.compiled.ground.layout import R_MODEL_DECK, rules_array
from whist_sim.compiled.strategies.play import learned as compiled
from whist_sim.compiled.strategies.registry import PLAY_LEARNED, get_info
from whist_sim.core import play_features, play_model
from whist_sim.core.cards import NT, mask_of, parse_card
from whist_sim.core.play_features import FEATURES, N_FEATURES, index_of, weight_rows
from whist_sim.core.rules import DECKS, Rules
from whist_sim.engine import policies as ref
from whist_sim.engine.play import play_deal, resolve_policies
from whist_sim.engine.state import PASS, DealState, bid_code

ROOT = Path(__file__).resolve().parent.parent


def test_the_weights_are_one_integer_row_per_situation_and_feature_for_every_deck():
    assert set(play_model.MODELS) == set(DECKS)  # four players and each three-player deck
    assert play_model.SITUATIONS == compiled.N_CONTEXTS == 252
    assert play_model.WEIGHTS == play_features.FITTED[0]  # the name kept from one model
    for d, w in zip(DECKS, play_features.FITTED, strict=True):
        assert len(w) == 252 and all(len(row) == N_FEATURES for row in w)
        assert all(isinstance(x, int) for row in w for x in row)
        # the file lists the rows with weights; a situation it leaves out weighs 0
        assert all(w[i] == play_model.MODELS[d][i] for i in play_model.MODELS[d])
        assert all(not any(w[i]) for i in range(252) if i not in play_model.MODELS[d])
    assert Path(play_model.__file__).stat().st_size < 1_000_000  # the issue: a small model


def test_a_deck_with_no_play_model_is_an_error_not_a_stand_in():
    models = dict(play_model.MODELS)
    del models["no_low"]
    with pytest.raises(ValueError, match="no weights for the deck.*no_low"):
        play_features.fitted_models(models)
    models = dict(play_model.MODELS)
    models["no_low"] = {252: (1,)}
    with pytest.raises(ValueError, match="no_low has rows for situations"):
        play_features.fitted_models(models)


@pytest.mark.parametrize("deck", DECKS)
def test_each_deck_plays_its_own_model(deck, monkeypatch):
    # RULES §8: three players play another deck, and `learned` plays the weights fitted on it.
    # The rules array names the deck's block of weights for the compiled policy; in the
    # reference, a model whose rows for this deck value a card's rank and whose other decks'
    # rows value its lowness plays the highest legal rank at every decision
    rules = Rules() if deck == "four" else Rules(players=3, three_player_deck=deck)
    assert rules_array(rules)[R_MODEL_DECK] == DECKS.index(deck)
    rank = index_of("rank")
    high = tuple(tuple(1 if k == rank else 0 for k in range(N_FEATURES))
                 for _ in range(compiled.N_CONTEXTS))
    low = tuple(tuple(-x for x in row) for row in high)
    monkeypatch.setattr(ref, "FITTED", tuple(high if d == deck else low for d in DECKS))
    heuristic = resolve_policies("heuristic", rules.players)[0]
    seen = 0

    def policy(state, rng):
        nonlocal seen
        if state.phase != "play":
            return heuristic(state, rng)
        card = ref.learned_card(state)
        assert card % 13 == max(c % 13 for c in state.legal_actions())
        seen += 1
        return card

    for d in range(3):
        play_deal(7, d, rules, policies=[policy] * rules.players)
    assert seen > 0



def test_both_engines_name_the_same_features_in_the_same_order():
    assert ref.LEARNED_FEATURES is FEATURES  # the one table of core/play_features.py
    doc = (ROOT / "docs" / "ENGINE.md").read_text(encoding="utf-8")
    for name in FEATURES:  # ENGINE §8 states every feature (a block made by make docs)
        assert f"`{name}`" in doc


def test_each_feature_has_its_index_constant():
    for i, name in enumerate(FEATURES):
        assert getattr(play_features, f"F_{name.upper()}") == i == index_of(name)
    with pytest.raises(ValueError, match="no learned feature 'nope'"):
        index_of("nope")


def test_a_short_weight_row_is_padded_with_zeros_and_a_long_one_refused():
    # a feature added after the training: the trained rows give it weight 0
    assert weight_rows(((1, 2), (3,))) == ((1, 2) + (0,) * (N_FEATURES - 2),
                                           (3,) + (0,) * (N_FEATURES - 1))
    with pytest.raises(ValueError, match="more than"):
        weight_rows(((0,) * (N_FEATURES + 1),))


def test_learned_is_registered_in_both_engines():
    assert get_info("learned", "play").id == PLAY_LEARNED
    assert "learned" in ref.POLICIES


def _deals(seed: int, n: int):
    """``n`` reference deals at the start of play: seat 0 declares 5 in a random strain and the
    contracts are 6, 2, 3, 0."""
    rnd = random.Random(seed)
    for _ in range(n):
        deck = list(range(52))
        rnd.shuffle(deck)
        hands = [sum(1 << c for c in deck[13 * s:13 * s + 13]) for s in range(4)]
        state = DealState(Rules(), 3, hands)
        state.apply(bid_code(5, rnd.randrange(5)))
        for _ in range(3):
            state.apply(PASS)
        for k in (6, 2, 3, 0):
            state.apply(k)
        yield state


def test_the_card_has_the_top_score():
    # ENGINE §8: the legal card with the largest score
    for state in _deals(5, 12):
        while state.phase == "play":
            card = ref.learned_card(state)
            if len(state.legal_actions()) > 1:
                scores = ref.learned_scores(state)
                assert scores[card] == max(scores.values())
            state.apply(card)


def test_a_tie_goes_to_the_lower_card_then_the_larger_suit_picture(monkeypatch):
    # ENGINE §8: with every weight 0 every card ties: the lowest card of the suit with the
    # largest suit picture (the lower suit code on equal pictures)
    zero = tuple((0,) * N_FEATURES for _ in range(compiled.N_CONTEXTS))
    monkeypatch.setattr(ref, "FITTED", tuple(zero for _ in DECKS))
    for state in _deals(6, 6):
        while state.phase == "play":
            legal = sorted(state.legal_actions())
            out, voids = ref._out(state), ref.shown_voids(state)
            pictures = {ref.suit_of(c): ref.suit_picture(state, ref.suit_of(c), out, voids)
                        for c in legal}
            suit = max(sorted(pictures), key=lambda s: pictures[s])
            card = ref.learned_card(state)
            assert card == min(c for c in legal if ref.suit_of(c) == suit)
            state.apply(card)


# ------------------------------------------------------------------------------ the training

@pytest.fixture
def train(load_script):
    """scripts/train_play.py as a module."""
    return load_script("train_play")


def _decisions(train, rng):
    """Random decisions: 2-5 cards each, 3 contexts, 4 features, values in points x picks."""
    rows = {k: [] for k in ("decision", "chosen", "value", "context", "expert", "features",
                            "deal")}
    for d in range(60):
        k = int(rng.integers(2, 6))
        ctx = int(rng.integers(0, 3))
        pick = int(rng.integers(0, k))
        for i in range(k):
            rows["decision"].append(d)
            rows["deal"].append(d)
            rows["chosen"].append(int(i == pick))
            rows["value"].append(int(rng.integers(-40, 40)) * 8)
            rows["context"].append(ctx)
            rows["expert"].append(int(i == 0))  # expert's card: one a decision
            rows["features"].append(rng.integers(0, 4, size=4))
    part = {k: np.array(v) for k, v in rows.items()}
    part["picks"] = np.int64(8)
    return train.Decisions([part], 3), part


def test_the_fit_objective_has_its_gradient(train):
    data, _ = _decisions(train, np.random.default_rng(1))
    w = np.random.default_rng(2).normal(size=12)
    w0 = np.zeros(12)
    f, g = data.loss(w, w0, 0.01)
    eps = 1e-6
    num = np.array([(data.loss(w + eps * e, w0, 0.01)[0] - data.loss(w - eps * e, w0, 0.01)[0])
                    / (2 * eps) for e in np.eye(12)])
    assert np.allclose(g, num, atol=1e-6)
    assert f > 0


def test_regret_is_what_the_top_card_loses_against_the_best(train):
    data, part = _decisions(train, np.random.default_rng(3))
    W = np.random.default_rng(4).normal(size=(3, 4))
    by_dec: dict[int, list[int]] = {}
    for i, d in enumerate(part["decision"]):
        by_dec.setdefault(int(d), []).append(i)
    losses = []
    for rows in by_dec.values():
        scores = [part["features"][i] @ W[part["context"][i]] for i in rows]
        top = rows[int(np.argmax(scores))]
        best = max(part["value"][i] for i in rows)
        losses.append((best - part["value"][top]) / 8)
    assert data.regret(W) == pytest.approx(np.mean(losses))
    # expert's card (flagged, not a feature) is measured the same way
    first = [rows[0] for rows in by_dec.values()]
    assert data.expert_regret() == pytest.approx(np.mean(
        [(max(part["value"][i] for i in rows) - part["value"][rows[0]]) / 8
         for rows in by_dec.values()]))
    assert data.expert_agreement() == pytest.approx(np.mean(part["chosen"][first]))
    # the fit lowers the regret of its own training decisions from the starting weights
    W1 = train.fit(data, np.zeros((3, 4)), 1e-4, 50)
    assert data.regret(W1) <= data.regret(np.zeros((3, 4))) + 1e-12


def test_runs_are_keyed_by_suit_and_cards_out_above(train):
    out = (1 << 12) | (1 << 5)  # the ace and the seven of clubs are out
    assert train._run(3, out) == train._run(4, out)  # no card out between the 5 and the 6
    assert train._run(4, out) != train._run(6, out)  # the 7 is out between the 6 and the 8
    assert train._run(13 + 3, out) == 16  # a diamond: nothing out above it in its suit


def test_a_collection_is_reused_only_with_its_own_options_and_weights(train, tmp_path):
    # the files of a round are read back verified: a key of other options, other weights, a
    # file without a column the fit reads or an unreadable file means collecting again
    key = train.collect_key(11, 0, 100, "learned", 32, "expert")
    path = tmp_path / "round1_0.npz"
    np.savez_compressed(path, key=np.array(key), decision=np.zeros(1), value=np.zeros(1),
                        features=np.zeros((1, 17)))  # the earlier format: no expert column
    assert not train._reusable(path, key)
    np.savez_compressed(path, key=np.array(key), decision=np.zeros(1), value=np.zeros(1),
                        expert=np.zeros(1), features=np.zeros((1, 16)))
    assert train._reusable(path, key)
    assert not train._reusable(path, train.collect_key(11, 0, 100, "learned", 16, "expert"))
    assert not train._reusable(path, train.collect_key(11, 0, 100, "learned", 32, "learned"))
    assert not train._reusable(tmp_path / "missing.npz", key)
    path.write_bytes(b"not a numpy file")
    assert not train._reusable(path, key)


# ------------------------------------------------------------------ the features of ENGINE §8

def _opening_lead(declarer_hand: str, strain: int, contract: int) -> DealState:
    """Seat 0 holds ``declarer_hand`` (card texts), declares ``contract`` in ``strain`` and
    leads; the other seats hold the rest of the deck, dealt in order, and contract 0."""
    mine = [parse_card(c) for c in declarer_hand.split()]
    rest = [c for c in range(52) if c not in mine]
    hands = [mask_of(mine)] + [mask_of(rest[13 * k:13 * k + 13]) for k in range(3)]
    state = DealState(Rules(), 3, hands)
    state.apply(bid_code(contract, strain))
    for _ in range(3):
        state.apply(PASS)
    for k in (contract, 0, 0, 0):
        state.apply(k)
    assert state.phase == "play" and state.to_move == 0
    return state


def _feature(state: DealState, card: str, name: str) -> int:
    out, voids = ref._out(state), ref.shown_voids(state)
    return ref.learned_features(state, parse_card(card), out, voids)[index_of(name)]


STRONG = "AS KS QS JS TS 9S 8S AH KH QH AD KD 2C"
ONE_TRUMP = "AS AH KH QH JH TH 9H 8H AD KD QD 2C 3C"


def test_no_return_is_a_lead_without_a_master_and_without_a_trump_after_it():
    # ENGINE §8 `no_return`: in spades the club lead keeps seven trumps to come back with
    state = _opening_lead(STRONG, 3, 12)
    assert _feature(state, "2C", "no_return") == 0
    # at No Trump nothing brings the lead back: the clubs are the defenders' to run
    state = _opening_lead(STRONG, NT, 12)
    assert _feature(state, "2C", "no_return") == 1
    assert _feature(state, "AH", "no_return") == 0  # a master
    # the last trump led, not a master: no way back
    state = _opening_lead("2S AH KH QH JH TH 9H 8H AD KD QD AC KC", 3, 10)
    assert _feature(state, "2S", "no_return") == 1


def test_last_trump_is_the_only_trump_while_a_side_suit_has_no_master():
    state = _opening_lead(ONE_TRUMP, 3, 11)
    assert _feature(state, "AS", "last_trump") == 1  # the clubs have no master
    assert _feature(state, "AH", "last_trump") == 0  # not a trump
    state = _opening_lead(STRONG, 3, 12)  # seven trumps
    assert _feature(state, "AS", "last_trump") == 0
    state = _opening_lead("AS AH KH QH JH TH 9H 8H AD KD QD AC KC", 3, 12)  # no side loser
    assert _feature(state, "AS", "last_trump") == 0


def test_side_vs_trumps_counts_the_trumps_out_against_a_side_lead():
    # ENGINE §8 `side_vs_trumps`: seven spades held, six out; a heart led may meet any of them
    state = _opening_lead(STRONG, 3, 12)
    assert _feature(state, "AH", "side_vs_trumps") == 6
    assert _feature(state, "2C", "side_vs_trumps") == 6
    assert _feature(state, "AS", "side_vs_trumps") == 0  # a trump
    state = _opening_lead(STRONG, NT, 12)  # no trumps at No Trump
    assert _feature(state, "AH", "side_vs_trumps") == 0
    state = _opening_lead(ONE_TRUMP, 3, 11)  # twelve trumps out: at most 6
    assert _feature(state, "AH", "side_vs_trumps") == 6
    # not a lead: zero whatever is out
    state.apply(parse_card("AH"))
    assert _feature(state, "3C", "side_vs_trumps") == 0


def test_likely_tricks_split_the_short_situation():
    # ENGINE §8: A-K-5-4-3-2 of trumps with 7 out (m = 3): max(2, 6 - 3 + 2) = 5; the side ace:
    # 1 (at most 10 // 3 + 1); sure tricks 2 + 1 = 3 (§7)
    hand = "AS KS 5S 4S 3S 2S AH 3H 2H 4D 3D 2D 2C"
    for contract, status in ((5, 6), (6, 5), (7, 0)):
        state = _opening_lead(hand, 3, contract)
        out, voids = ref._out(state), ref.shown_voids(state)
        assert ref.trick_counts(state, out, voids, 0)[:2] == (3, 6)  # sure, likely
        # (((position * 7 + need) * 3 + winner) * 2 + declarer) * 2 + over, at the lead
        ctx = ref.learned_context(state, out, voids)
        assert ctx // 12 % 7 == status
        assert ctx % 4 == 2  # the declarer, under


# ------------------------------------------------------- both engines compute every feature alike

#: constructed deals: seat 0's hand, the strain (0..3 = C, D, H, S, 4 = NT) and its contract; the
#: others hold the rest of the deck in order and contract 0
CONSTRUCTED = [(STRONG, 3, 12), (STRONG, NT, 12), (ONE_TRUMP, 3, 11),
               ("AS 5S 4S AH 9H 8H 7H 6H KD 4D 3D 2D 2C", 2, 6),
               ("KS QS 3S 2S KH 2H QD JD TD 9D AC 9C 3C", 0, 5)]


def _positions(tricks: int = 5):
    """Every decision of the first ``tricks`` tricks of the constructed deals, played by the
    reference ``learned``: ``(state, kernel)`` pairs, the compiled state mirroring the
    reference one (the same calls, contracts and cards applied to both)."""
    for hand, strain, contract in CONSTRUCTED:
        state = _opening_lead(hand, strain, contract)
        kernel = KernelSeats(Rules(), ["heuristic"] * 4, ["learned"] * 4, 3, state.dealt, 0)
        for call in state.calls:
            kernel.apply(call)
        for k in state.contracts:
            kernel.apply(k)
        for _ in range(4 * tricks):
            yield state.clone(), kernel
            card = ref.learned_card(state)
            state.apply(card)
            kernel = _mirror(kernel, card)


def _mirror(kernel: KernelSeats, card: int) -> KernelSeats:
    """A copy of ``kernel`` with ``card`` played (the positions yielded before keep theirs)."""
    new = object.__new__(KernelSeats)
    new.__dict__.update({k: (v.copy() if isinstance(v, np.ndarray) else v)
                         for k, v in kernel.__dict__.items()})
    new.apply(card)
    return new


@pytest.fixture(scope="module")
def positions():
    return list(_positions())


@pytest.mark.parametrize("name", FEATURES)
def test_both_engines_compute_the_feature_alike(name, positions):
    # the compiled policy's training rows (decision_rows) against the reference twin, card by
    # card, on every constructed position; the positions show the feature taking two values
    i = index_of(name)
    rows = np.zeros((13, 3 + N_FEATURES), np.int64)
    values = set()
    for state, kernel in positions:
        legal = mask_of(state.legal_actions())
        k = compiled.decision_rows(kernel.st, kernel.hm, kernel.rp, np.int64(state.to_move),
                                   np.uint64(legal), kernel.rng, rows)
        assert k == legal.bit_count()
        out, voids = ref._out(state), ref.shown_voids(state)
        for row in rows[:k]:  # card, situation, expert's card, the features
            expected = ref.learned_features(state, int(row[0]), out, voids)[i]
            assert row[3 + i] == expected, (name, state, int(row[0]))
            values.add(expected)
    assert len(values) >= 2, (name, values)


def test_a_collection_is_keyed_by_its_deck(train):
    # a three-player deck's decisions are never read as another deck's
    keys = {train.collect_key(21, 0, 100, "learned", 32, "learned", d) for d in DECKS}
    assert len(keys) == len(DECKS)


def test_the_trainer_writes_one_decks_play_model_and_keeps_the_others(train, tmp_path):
    path = tmp_path / "play_model.py"
    path.write_text("WEIGHTS = ((1, 2), (3, 4))\n")  # the first format: four players only
    assert train.read_model(path)[0] == {"four": ((1, 2), (3, 4))}
    train.write_model(path, "no_low", np.array([[5, 6], [7, 8]]), "trained")
    models, notes = train.read_model(path)
    assert models["four"] == ((1, 2), (3, 4)) and models["no_low"] == ((5, 6), (7, 8))
    assert models["no_suit"] == models["four"] and "not trained" in notes["no_suit"]
    assert notes["no_low"] == "trained"
    train.write_model(path, "no_suit", np.array([[0, 0], [9, 0]]), "trained")  # a row of 0s
    space: dict = {}
    exec(path.read_text(), space)
    assert space["MODELS"]["no_suit"] == {1: (9, 0)}  # only the rows with weights are written
    assert train.read_model(path)[0]["no_suit"] == ((0, 0), (9, 0))
    assert space["WEIGHTS"] == ((1, 2), (3, 4)) and space["SITUATIONS"] == 2


def test_the_data_card_keeps_the_sections_of_the_decks_not_trained(train, tmp_path):
    card = tmp_path / "card.md"
    card.write_text("# card\n\nfour-player part\n\n<!-- deck: no_low -->\nold no_low\n"
                    "<!-- /deck: no_low -->\n")
    parts = train.card_parts(card.read_text())
    assert set(parts) == {"four", "no_low"} and "four-player part" in parts["four"]
    rounds = [{"round": 0, "play": "learned", "held_out_decisions": 10, "regret_expert": 2.0,
               "regret_played": 1.5, "regret_fitted": 1.2, "agreement_fitted_with_played": 0.9,
               "agreement_expert_with_played": 0.5}]
    args = SimpleNamespace(deck="no_suit", card=card, layouts=4, finisher="learned", rounds=1,
                           deals=100, start="four", seed=21, l2=1e-5, maxiter=10, jobs=2)
    train.write_card(args, rounds, {"markdown": "| measured |"}, 1.0)
    text = card.read_text()
    assert text.index("four-player part") < text.index("deck: no_suit") < text.index(
        "deck: no_low")  # the decks in the order of DECKS
    assert "old no_low" in text and "| measured |" in text and "the `four` weights" in text
    args.deck = "no_low"
    train.write_card(args, rounds, {"markdown": "| new |"}, 1.0)
    text = card.read_text()
    assert "old no_low" not in text and text.count("<!-- deck: no_low -->") == 1
    assert "deck: no_suit" in text and "four-player part" in text


def test_a_three_player_deck_trains_from_the_four_player_weights_by_default(train, tmp_path):
    args = SimpleNamespace(deck="one_random", seed=None, rounds=None, deals=None, start=None,
                           work=tmp_path)
    train._deck_defaults(args)
    assert (args.start, args.work) == ("four", tmp_path / "one_random")
    args.finisher = "learned"
    assert train.play_of(args, 0) == "learned" and train.finisher_of(args, 0) == "learned"
    args = SimpleNamespace(deck="four", seed=None, rounds=None, deals=None, start=None,
                           work=tmp_path, finisher="learned")
    train._deck_defaults(args)
    assert (args.seed, args.rounds, args.deals, args.start) == (11, 4, 24000, "zero")
    assert train.play_of(args, 0) == "rollout:n=64" and train.finisher_of(args, 0) == "expert"
    assert train.play_of(args, 1) == "learned" and train.finisher_of(args, 1) == "learned"
    with pytest.raises(SystemExit, match="cannot start from itself"):
        train._deck_defaults(SimpleNamespace(deck="no_low", seed=None, rounds=None, deals=None,
                                             start="no_low", work=tmp_path))


def test_the_tables_take_turns_by_blocks_of_deals_whatever_the_split(train):
    # a deal is bid at the same table whichever process collects it: the blocks are cut at
    # the multiples of STEP, and a block's table is read from its first deal
    tables = ("heuristic", "learned", "cautious")
    step = train.STEP
    for start, count in ((0, 3 * step), (step - 7, 2 * step + 11), (5, 1)):
        covered = []
        for s0, n in train.blocks(start, count):
            assert n >= 1 and (s0 // step) == ((s0 + n - 1) // step)  # within one block
            covered.extend(range(s0, s0 + n))
            assert {train.table_of(d, tables) for d in range(s0, s0 + n)} == {
                train.table_of(s0, tables)}
        assert covered == list(range(start, start + count))
    assert [train.table_of(k * step, tables) for k in range(4)] == [
        "heuristic", "learned", "cautious", "heuristic"]


def test_a_collection_is_keyed_by_its_tables_and_a_bad_table_is_named(train):
    one = train.collect_key(11, 0, 100, "learned", 32, "learned", "four", ("heuristic",))
    mix = train.collect_key(11, 0, 100, "learned", 32, "learned", "four",
                            ("heuristic", "cautious"))
    assert one != mix and train.TABLES == ("heuristic",)
    assert train._tables("heuristic, ltc") == ("heuristic", "ltc")
    with pytest.raises(argparse.ArgumentTypeError, match="nosuch: not a bidding strategy"):
        train._tables("heuristic,nosuch")
    assert "`heuristic` bidding" == train.bidding_text(SimpleNamespace(tables=("heuristic",)))
    assert "`ltc` bidders in turn" in train.bidding_text(
        SimpleNamespace(tables=("heuristic", "ltc")))


def test_a_deck_fitted_before_a_feature_was_added_weighs_it_zero(train, tmp_path):
    path = tmp_path / "play_model.py"
    train.write_model(path, "four", np.array([[1, 2], [3, 4]]), "old")
    train.write_model(path, "no_low", np.array([[5, 6, 7], [8, 9, 1]]), "with a new feature")
    models, _ = train.read_model(path)
    assert models["four"] == ((1, 2, 0), (3, 4, 0)) and models["no_low"] == ((5, 6, 7), (8, 9, 1))
