"""Conditional dealing in the compiled engine (whist_sim.compiled.ground.conditional).

* With nothing known, ``deal_hidden`` is the engine's own deal (docs/ENGINE.md §3.1; RULES §1,
  §8), draw for draw.
* Known cards stay where they are and every other card of the deck is dealt exactly once.
* The hidden hands follow exact combinatorics: the suit length of a hidden hand against the
  hypergeometric law, chi-square at a strict threshold with a fixed seed; the same under a
  "void" constraint (rejection sampling) and with some cards of a hidden hand known; the
  acceptance rate of a constraint against its exact probability.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats as sps

from whist_sim.compiled.ground.conditional import (
    CONS_HCP_MAX,
    CONS_HCP_MIN,
    CONS_MAX,
    CONS_MIN,
    deal_constrained,
    deal_hidden,
    hcp,
    satisfies,
    unconstrained,
)
from whist_sim.compiled.ground.layout import (
    H_DEALT,
    H_HAND,
    H_START,
    S_REMOVED,
    deck_array,
    new_state,
    rules_array,
    sampler_scratch,
)
from whist_sim.compiled.ground.rng import stream_start
from whist_sim.compiled.loop.phases import deal_cards
from whist_sim.core.cards import SUIT_MASKS, parse_hand
from whist_sim.core.rng import DealRng
from whist_sim.core.rules import Rules
from whist_sim.engine.state import deal_hands

SEED = 20260511
ALPHA = 1e-3  # strict: a correct sampler fails this at a fixed seed with probability 0.1 %
VARIANTS = [
    Rules(),
    Rules(players=3, three_player_deck="no_suit"),
    Rules(players=3, three_player_deck="no_low"),
    Rules(players=3, three_player_deck="one_random"),
]
SPADES = 3


class Dealer:
    """Python driver of deal_hidden / deal_constrained on one set of state arrays."""

    def __init__(self, rules: Rules, known: dict[int, int] | None = None,
                 cons: np.ndarray | None = None):
        self.rules = rules
        self.p = rules.players
        self.st, self.hm, self.rng = new_state()
        self.rp = rules_array(rules)
        self.work, self.tab = sampler_scratch()
        self.known = np.zeros(self.p, dtype=np.uint64)
        for s, m in (known or {}).items():
            self.known[s] = m
        self.deck = np.uint64(rules.deck_mask)
        self.cons = unconstrained(self.p, rules.hand_size) if cons is None else cons

    def start(self, seed: int, deal: int) -> None:
        self.rng[0] = stream_start(np.uint64(seed), np.uint64(deal))

    def deal(self, seed: int, deal: int) -> list[int]:
        self.start(seed, deal)
        deal_hidden(self.st, self.hm, self.rp, self.known, self.deck, self.work, self.tab,
                    self.rng)
        return [int(self.hm[H_HAND + s]) for s in range(self.p)]

    def deal_constrained(self, seed: int, deal: int, max_tries: int = 10_000) -> int:
        self.start(seed, deal)
        return int(deal_constrained(self.st, self.hm, self.rp, self.known, self.deck, self.cons,
                                    True, (self.work, self.tab), self.rng, max_tries))

    def hands(self) -> list[int]:
        return [int(self.hm[H_HAND + s]) for s in range(self.p)]


def suit_len(mask: int, suit: int) -> int:
    return (mask & SUIT_MASKS[suit]).bit_count()


def chi2_pvalue(observed: np.ndarray, probs: np.ndarray, min_expected: float = 5.0) -> float:
    """Chi-square goodness-of-fit p-value, bins with small expectation pooled (tail ends)."""
    n = observed.sum()
    exp = probs * n
    obs_b, exp_b = [], []
    o_acc = e_acc = 0.0
    for o, e in zip(observed, exp, strict=True):
        o_acc += o
        e_acc += e
        if e_acc >= min_expected:
            obs_b.append(o_acc)
            exp_b.append(e_acc)
            o_acc = e_acc = 0.0
    if e_acc > 0 or o_acc > 0:  # the remaining tail joins the last bin
        obs_b[-1] += o_acc
        exp_b[-1] += e_acc
    obs_b, exp_b = np.array(obs_b), np.array(exp_b)
    stat = ((obs_b - exp_b) ** 2 / exp_b).sum()
    return float(sps.chi2.sf(stat, len(obs_b) - 1))


def hypergeom_probs(total: int, good: int, draws: int, top: int) -> np.ndarray:
    return sps.hypergeom(total, good, draws).pmf(np.arange(top + 1))


# ------------------------------------------------------------------------ the engine's deal


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: str(r))
def test_nothing_known_is_the_engines_deal(rules):
    """ENGINE.md §3.1: the same draws give the same hands (and removed card) as deal_cards and as
    the reference engine's deal."""
    d = Dealer(rules)
    st2, hm2, rng2 = new_state()
    rp, deck = rules_array(rules), deck_array(rules)
    work = np.zeros(52, dtype=np.int64)
    for deal in range(25):
        hands = d.deal(SEED, deal)
        rng2[0] = stream_start(np.uint64(SEED), np.uint64(deal))
        deal_cards(st2, hm2, rp, deck, work, rng2)
        assert hands == [int(hm2[H_DEALT + s]) for s in range(rules.players)]
        assert d.rng[0] == rng2[0]  # same number of draws
        ref_hands, ref_removed = deal_hands(rules, DealRng(SEED, deal))
        assert tuple(hands) == ref_hands
        if rules.three_player_deck == "one_random" and rules.players == 3:
            assert d.st[S_REMOVED] == st2[S_REMOVED] == ref_removed
        for s in range(rules.players):
            assert d.hm[H_DEALT + s] == d.hm[H_START + s] == d.hm[H_HAND + s]


@settings(max_examples=60, deadline=None)
@given(data=hs.data(), which=hs.sampled_from(range(len(VARIANTS))))
def test_known_cards_stay_and_the_deck_is_dealt_once(data, which):
    """RULES §1/§8: every card of the deck in exactly one place, each hand of the right size; the
    known cards are in their seats."""
    rules = VARIANTS[which]
    p, h = rules.players, rules.hand_size
    deck = [c for c in range(52) if rules.deck_mask >> c & 1]
    perm = data.draw(hs.permutations(deck))
    known: dict[int, int] = {}
    i = 0
    for s in range(p):
        k = data.draw(hs.integers(0, h), label=f"known in seat {s}")
        known[s] = sum(1 << c for c in perm[i:i + k])
        i += k
    d = Dealer(rules, known)
    hands = d.deal(data.draw(hs.integers(0, 2**64 - 1)), data.draw(hs.integers(0, 10**6)))
    union = 0
    for s in range(p):
        assert hands[s].bit_count() == h
        assert hands[s] & known[s] == known[s]
        assert union & hands[s] == 0
        union |= hands[s]
    rest = rules.deck_mask & ~union
    if rules.players == 3 and rules.three_player_deck == "one_random":
        assert rest.bit_count() == 1 and int(d.st[S_REMOVED]) == rest.bit_length() - 1
    else:
        assert rest == 0


# ------------------------------------------------------------------------ exact laws

HAND = parse_hand("AKQ2.K3.QJ54.872")  # 4 spades: 9 spades among the 39 hidden cards
N_SAMPLES = 20_000


def test_hidden_hand_suit_length_is_hypergeometric():
    """With seat 0's hand fixed, each hidden hand's spade length is hypergeometric(39, 9, 13)."""
    d = Dealer(Rules(), {0: HAND})
    counts = np.zeros((4, 14), dtype=np.int64)
    for j in range(N_SAMPLES):
        hands = d.deal(SEED, j)
        assert hands[0] == HAND
        for s in (1, 2, 3):
            counts[s, suit_len(hands[s], SPADES)] += 1
    law = hypergeom_probs(39, 9, 13, 13)
    for s in (1, 2, 3):
        assert chi2_pvalue(counts[s], law) > ALPHA, f"seat {s}: {counts[s]}"
    # the test has power: the law of a hand holding one spade more is rejected
    wrong = hypergeom_probs(39, 10, 13, 13)
    assert chi2_pvalue(counts[1], wrong) < 1e-6


def test_partly_known_hidden_hand():
    """Seat 1 is known to hold AS and KH (say, after a Frisch): its other 11 cards come from the
    37 unknown ones (8 spades left), so its spade length is 1 + hypergeometric(37, 8, 11)."""
    a_s, k_h = 1 << 51, 1 << 37
    hand0 = parse_hand("Q432.Q3.QJ54.872")  # no AS / KH; 4 spades
    d = Dealer(Rules(), {0: hand0, 1: a_s | k_h})
    counts = np.zeros(14, dtype=np.int64)
    for j in range(N_SAMPLES):
        hands = d.deal(SEED + 1, j)
        assert hands[1] & (a_s | k_h) == a_s | k_h
        counts[suit_len(hands[1], SPADES) - 1] += 1
    assert chi2_pvalue(counts, hypergeom_probs(37, 8, 11, 13)) > ALPHA


def test_void_constraint_law_and_acceptance_rate():
    """Seat 1 void in spades (rejection): seat 2 then holds hypergeometric(26, 9, 13) spades, and
    the acceptance rate matches the exact P(void) = C(30,13) / C(39,13)."""
    cons = unconstrained(4, 13)
    cons[1, CONS_MIN + SPADES] = cons[1, CONS_MAX + SPADES] = 0
    d = Dealer(Rules(), {0: HAND}, cons)
    counts = np.zeros(14, dtype=np.int64)
    tries = 0
    n = 6_000
    for j in range(n):
        t = d.deal_constrained(SEED + 2, j)
        assert t > 0
        tries += t
        hands = d.hands()
        assert suit_len(hands[1], SPADES) == 0
        counts[suit_len(hands[2], SPADES)] += 1
    assert chi2_pvalue(counts, hypergeom_probs(26, 9, 13, 13)) > ALPHA
    exact = sps.hypergeom(39, 9, 13).pmf(0)  # = C(30,13) / C(39,13)
    # accepted deals ~ n, tries ~ n / exact: test the rate by the exact binomial test
    assert sps.binomtest(n, tries, exact).pvalue > ALPHA


def test_hcp_and_length_constraints_are_met():
    cons = unconstrained(4, 13)
    cons[2, CONS_HCP_MIN], cons[2, CONS_HCP_MAX] = 15, 18
    cons[3, CONS_MIN + 2], cons[3, CONS_MAX + 2] = 5, 6  # 5-6 hearts
    d = Dealer(Rules(), {0: HAND}, cons)
    for j in range(300):
        assert d.deal_constrained(SEED + 3, j) > 0
        hands = d.hands()
        assert 15 <= hcp(np.uint64(hands[2])) <= 18
        assert 5 <= suit_len(hands[3], 2) <= 6


def test_impossible_constraints_give_up_after_max_tries():
    cons = unconstrained(4, 13)
    cons[1, CONS_MIN + SPADES] = 10  # only 9 spades are hidden
    d = Dealer(Rules(), {0: HAND}, cons)
    assert d.deal_constrained(SEED, 0, max_tries=50) == -50


def test_satisfies_bounds_are_inclusive():
    rules = Rules()
    st, hm, rng = new_state()
    hands = [HAND, parse_hand("JT98.AQJ.AK.AKQJ"), parse_hand("765.T9876.T98.T9"),
             parse_hand("3.542.7632.6543")]
    for s, m in enumerate(hands):
        hm[H_HAND + s] = m
    rp = rules_array(rules)
    cons = unconstrained(4, 13)
    assert satisfies(hm, rp, cons)
    assert hcp(np.uint64(hands[1])) == 1 + 7 + 7 + 10
    cons[1, CONS_HCP_MIN] = cons[1, CONS_HCP_MAX] = 25
    cons[3, CONS_MIN + SPADES] = cons[3, CONS_MAX + SPADES] = 1
    assert satisfies(hm, rp, cons)
    cons[1, CONS_HCP_MIN] = 26
    assert not satisfies(hm, rp, cons)
    cons[1, CONS_HCP_MIN] = 25
    cons[3, CONS_MAX + SPADES] = 0
    assert not satisfies(hm, rp, cons)
