"""RULES.md §8 — three-player variants: the three decks (the encyclopedia page's Variations), and
our readings for the rest: the removed suit (clubs, not biddable), the trick count, the hook,
over/under and the pass counts."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from whist_sim import Rules
from whist_sim.core.cards import cards_of, parse_hand
from whist_sim.core.rng import DealRng
from whist_sim.engine import DealState, IllegalAction, play_deal
from whist_sim.engine.state import deal_hands

DECKS = {"no_suit": (39, 13), "no_low": (36, 12), "one_random": (51, 17)}


@pytest.mark.parametrize("deck", sorted(DECKS))
def test_deck_sizes_and_hand_sizes(deck):
    # §8: no_suit 39 cards, 13 each; no_low 36, 12 each; one_random 51, 17 each
    rules = Rules(players=3, three_player_deck=deck)
    n_cards, hand = DECKS[deck]
    for i in range(5):
        hands, removed = deal_hands(rules, DealRng(9, i))
        assert len(hands) == 3 and all(h.bit_count() == hand for h in hands)
        union = hands[0] | hands[1] | hands[2]
        assert union.bit_count() == n_cards
        assert rules.n_tricks == hand
        if deck == "no_suit":
            assert union & 0x1FFF == 0  # §8 (ours: which suit), ENGINE §3: clubs are removed
        if deck == "no_low":
            assert all(c % 13 >= 4 for c in cards_of(union))  # no 2, 3, 4, 5
        if deck == "one_random":
            assert 0 <= removed < 52 and cards_of(((1 << 52) - 1) & ~union) == [removed]
        else:
            assert removed == -1


def test_one_random_removes_a_different_card_per_deal():
    # §8: one random card removed each deal
    rules = Rules(players=3, three_player_deck="one_random")
    removed = {deal_hands(rules, DealRng(1, i))[1] for i in range(40)}
    assert len(removed) > 10


@pytest.mark.parametrize("deck", sorted(DECKS))
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_full_three_player_deals(deck, policy):
    # §8: other rules as above: tricks sum to the trick count, the hook uses the trick count
    rules = Rules(players=3, three_player_deck=deck)
    n = rules.n_tricks
    played = 0
    for i in range(25):
        t = play_deal(5, i, rules, policies=(policy,) * 3)
        assert t.dealer == i % 3
        if t.thrown_in:
            continue
        played += 1
        assert len(t.plays) == 3 * n and len(set(t.plays)) == 3 * n
        assert sum(t.tricks) == n
        assert sum(t.contracts) != n  # the last bidder may not make the sum the trick count
        assert t.over == (sum(t.contracts) > n)
        assert t.contracts[t.declarer] >= t.level and t.level <= n
    assert played


def test_auction_and_contracts_go_up_to_the_trick_count():
    # §8 with §2/§4: n and contracts run up to the number of tricks (17 with one_random)
    rules = Rules(players=3, three_player_deck="one_random")
    s = DealState.deal(rules, DealRng(2, 0), dealer=0)
    assert s.legal_actions()[-1] == 5 * 17 + 4  # 17NT
    s.apply_text("17NT", "pass", "pass")
    assert s.legal_actions() == [17]  # the declarer must bid at least his level
    s.apply(17)
    assert s.legal_actions() == list(range(18))
    s.apply(0)
    assert 0 not in s.legal_actions()  # 17 + 0 + 0 = 17 is the trick count: hooked
    with pytest.raises(IllegalAction, match="sum to 17"):
        s.apply(0)


def test_auction_ends_after_two_passes_and_frisch_after_three():
    # §8 (ours: the pages give three players only their decks): a bid then the two others pass;
    # all three pass for a Frisch (ENGINE §3: P - 1 passes, P passes)
    rules = Rules(players=3)
    s = DealState.deal(rules, DealRng(3, 0), dealer=2)
    s.apply_text("pass", "pass", "pass")
    assert s.phase == "frisch"
    for _ in range(3):
        s.apply(s.legal_actions()[0])
    s.apply_text("6S", "pass", "pass")
    assert s.phase == "contracts" and s.declarer == 0


def test_frisch_right_with_three_players_is_offset_two():
    # §3 with §8: 'right' is the seat before, (s + 2) % 3; 'across' needs four players
    rules = Rules(players=3, frisch_directions="right,left,right")
    s = DealState.deal(rules, DealRng(3, 1), dealer=0)
    s.apply_text("pass", "pass", "pass")
    before, laid = s.hands, {}
    for _ in range(3):
        laid[s.to_move] = s.legal_actions()[-1]
        s.apply(laid[s.to_move])
    for seat in range(3):
        assert s.hand(seat) == (before[seat] & ~laid[seat]) | laid[(seat + 1) % 3]
    from whist_sim import RulesError

    with pytest.raises(RulesError, match="across"):
        Rules(players=3, frisch_directions="left,across,left")


def test_three_player_hands_must_come_from_the_deck():
    # §8/§9: a club in a no_suit deal is refused with a clear message
    rules = Rules(players=3)
    with pytest.raises(ValueError, match="not in this deck"):
        DealState.from_text(["AKQJT98765432...", "-.AKQJT98765432..", "..AKQJT9876543.2"],
                            rules=rules)


# ----------------------------------------------------------------------- the heuristic's estimate


@pytest.mark.parametrize("deck, adjust", [("no_suit", 0), ("no_low", -2), ("one_random", 5)])
def test_the_heuristic_estimate_knows_the_three_player_deck(deck, adjust):
    # ENGINE §5: no ruffing value for the clubs the no_suit deck lacks; the deck's share of the
    # tricks it has more or fewer than the four-player deal, 4 * (N - 13) // P quarter tricks
    from whist_sim.engine.policies import deck_adjust_q, est_q

    rules = Rules(players=3, three_player_deck=deck)
    assert deck_adjust_q(rules) == adjust and deck_adjust_q(Rules()) == 0
    if deck == "no_suit":  # 13 spades: voids in hearts, diamonds and clubs (8 q each)
        hand = parse_hand("AKQJT98765432.-.-.-")
        assert est_q(hand, 3, rules) == est_q(hand, 3) - 8  # the clubs void is no ruff here
    else:
        hand = parse_hand("AKQJT9876.AKQ.-.-")
        assert est_q(hand, 3, rules) == est_q(hand, 3) + adjust
        assert est_q(hand, 4, rules) == est_q(hand, 4) + adjust


@settings(max_examples=200, deadline=None)
@given(hs.integers(0, 2**52 - 1), hs.sampled_from(["no_suit", "no_low", "one_random"]))
def test_the_engines_agree_on_the_deck_estimates(hand, deck):
    import numpy as np

    from whist_sim.compiled.ground.layout import rules_array
    from whist_sim.compiled.strategies.bidding.heuristic import est_q_deck
    from whist_sim.engine.policies import est_q

    rules = Rules(players=3, three_player_deck=deck)
    if deck == "no_suit":
        hand &= rules.deck_mask
    got = est_q_deck(np.uint64(hand), rules_array(rules))
    assert tuple(int(x) for x in got) == tuple(est_q(hand, t, rules) for t in range(5))


@pytest.mark.parametrize("deck", ["no_suit", "no_low", "one_random"])
@pytest.mark.parametrize("bidder", ["heuristic", "aggressive", "hcp", "ltc", "cautious"])
def test_three_player_games_end(deck, bidder):
    # §7-§8: three heuristic-family players reach the target (before the deck-aware estimate, a
    # no_suit game of heuristic players never ended: totals near -2,400 after 200 deals; before
    # cautious eased its shading by the deck's share gap, 7 of 20 no_suit games ended in 400)
    from whist_sim.runs.game import play_game

    for seed in (3, 4):
        g = play_game(seed, Rules(players=3, three_player_deck=deck), (bidder,) * 3,
                      max_deals=400)
        assert g.finished, (deck, bidder, seed, g.totals)


def test_the_advisor_never_suggests_clubs_without_clubs():
    # §8: with the no_suit deck clubs are no bid, so the advisor leaves them out
    from whist_sim.analyses.advisor import AdviceError, advise

    rules = Rules(players=3, three_player_deck="no_suit")
    hand = "S:AKQJT9 H:AKQ D:A987 C:-"
    a = advise(hand, rules=rules, deals=40, seed=1)
    assert "C" not in set(a.table.index.get_level_values("strain"))
    with pytest.raises(AdviceError, match="no clubs"):
        advise(hand, trump="C", declarer=0, rules=rules, deals=40)


@pytest.mark.parametrize("players, deck, gap", [
    (4, "no_suit", 0), (3, "no_suit", 4), (3, "no_low", 5), (3, "one_random", 4)])
def test_the_share_gap_of_the_shaded_strategies(players, deck, gap):
    # a player's share of the tricks, 4 N // P quarter tricks, beyond the four-player 13 and the
    # estimate's deck adjustment: cautious lowers its zero threshold by it and its shift by half
    from whist_sim.compiled.ground.layout import rules_array
    from whist_sim.compiled.strategies.bidding.estimators import share_gap_q

    assert share_gap_q(rules_array(Rules(players=players, three_player_deck=deck))) == gap


@pytest.mark.parametrize("deck", ["no_suit", "no_low", "one_random"])
def test_the_share_gap_eases_the_shift_both_ways(deck):
    # §8 with §5: shift_q moves gap // 2 towards 0, not past it. With three players cautious's
    # +2 and aggressive's -2 become 0 (every gap is 4 or 5), so on the same deals their contracts
    # are those of shift_q=0; with four players (gap 0) the shift stays
    from whist_sim.compiled.entry.batch import play_batch

    three = Rules(players=3, three_player_deck=deck)
    for name in ("cautious", "aggressive"):
        runs = [play_batch(6, 0, 300, rules, (spec,) * rules.players,
                           ("heuristic",) * rules.players)
                for rules in (three, Rules()) for spec in (name, f"{name}:shift_q=0")]
        same3 = all((runs[0][f"contract_{s}"] == runs[1][f"contract_{s}"]).all() for s in range(3))
        same4 = all((runs[2][f"contract_{s}"] == runs[3][f"contract_{s}"]).all() for s in range(4))
        assert same3 and not same4, name


def test_each_deck_names_its_rules_and_its_command_line_options():
    """§8: the decks a learned model is fitted for are four players and three with each deck
    option; a deck's rules and deck_of are inverses, and the rules say their own flags."""
    from whist_sim.core.rules import DECKS, deck_of, deck_rules

    for i, deck in enumerate(DECKS):
        rules = deck_rules(deck)
        assert deck_of(rules.players, rules.three_player_deck) == i
    assert deck_rules("four") == Rules() and Rules().flags() == ""
    assert deck_rules("no_low").flags() == "--players 3 --three-player-deck no_low"
    assert deck_rules("no_suit").flags() == "--players 3 --three-player-deck no_suit"  # named
    assert Rules(frisch=False, zero_over=30).flags() == "--no-frisch --zero-over 30"
    with pytest.raises(ValueError, match="no deck 'five'"):
        deck_rules("five")
