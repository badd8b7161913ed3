"""RULES.md §1 — table, cards, deal: every player gets his share of the deck, uniformly at random;
the dealer moves one seat clockwise after every deal."""

import math

import numpy as np
import pytest
from scipy import stats

from whist_sim import Rules
from whist_sim.compiled.entry.batch import play_batch
from whist_sim.core.rng import DealRng
from whist_sim.engine import play_game
from whist_sim.engine.state import deal_hands

VARIANTS = [
    Rules(),
    Rules(players=3, three_player_deck="no_suit"),
    Rules(players=3, three_player_deck="no_low"),
    Rules(players=3, three_player_deck="one_random"),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: str(r))
def test_every_seat_gets_a_disjoint_share_of_the_deck(rules):
    # §1: 52 cards, 13 each; §8: 39/36/51 cards in the three-player decks
    for deal in range(200):
        hands, removed = deal_hands(rules, DealRng(11, deal))
        assert len(hands) == rules.players
        assert all(bin(h).count("1") == rules.hand_size for h in hands)
        union = 0
        for h in hands:
            assert union & h == 0
            union |= h
        if removed >= 0:
            assert rules.three_player_deck == "one_random"
            union |= 1 << removed
        assert union == rules.deck_mask


def _chi_square_p(observed: np.ndarray, expected: np.ndarray) -> float:
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    return float(stats.chi2.sf(chi2, df=observed.size - 1))


def test_reference_deal_puts_each_card_at_each_seat_uniformly():
    # each card lands with each seat with probability 1/4 (a fixed seed, a strict threshold)
    rules = Rules()
    n = 3000
    where = np.zeros((52, 4))
    for deal in range(n):
        hands, _ = deal_hands(rules, DealRng(5, deal))
        for seat, h in enumerate(hands):
            for c in range(52):
                if h >> c & 1:
                    where[c, seat] += 1
    for c in range(52):
        assert _chi_square_p(where[c], np.full(4, n / 4)) > 1e-4


def _hypergeom_suit_lengths(hand_size: int, suit_size: int, deck: int) -> np.ndarray:
    return np.array(
        [
            math.comb(suit_size, k)
            * math.comb(deck - suit_size, hand_size - k)
            / math.comb(deck, hand_size)
            for k in range(hand_size + 1)
        ]
    )


def test_compiled_deal_suit_lengths_follow_the_hypergeometric_law():
    # the number of spades in seat 0's hand: hypergeometric(52, 13 spades, 13 cards)
    rules = Rules()
    n = 40_000
    out = play_batch(
        3, 0, n, rules, bid=("heuristic",) * 4, play=("heuristic",) * 4, store_dealt=True
    )
    for seat in range(4):
        dealt = out[f"dealt_{seat}"].astype(np.uint64)
        spades = np.array([bin(int(h) >> 39 & 0x1FFF).count("1") for h in dealt])
        observed = np.bincount(spades, minlength=14).astype(float)
        expected = _hypergeom_suit_lengths(13, 13, 52) * n
        keep = expected >= 5  # pool the rare long suits into the last kept bin
        last = np.flatnonzero(keep)[-1]
        obs = np.append(observed[:last], observed[last:].sum())
        exp = np.append(expected[:last], expected[last:].sum())
        assert _chi_square_p(obs, exp) > 1e-4


def test_dealer_moves_one_seat_clockwise_each_deal():
    # §1 and §7: the player to the dealer's left deals next, thrown-in deals included
    game = play_game(seed=4, rules=Rules(target=150), policies=("random",) * 4, first_dealer=2)
    dealers = [t.dealer for t in game.traces]
    assert dealers[0] == 2
    assert all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:], strict=False))
