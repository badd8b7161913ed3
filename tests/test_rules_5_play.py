"""RULES.md §5 — play: the lead, following suit, trumps, trick winners, revokes."""

import numba
import numpy as np
import pytest

from whist_sim import Rules, score
from whist_sim.compiled.loop.phases import beats, beats_mask
from whist_sim.core.cards import parse_card
from whist_sim.engine import DealState, IllegalAction, play_deal

# The §5 example: diamonds trump, seat 0 declares and leads 9C; seat 1 holds QC; seat 2 is void
# in clubs and holds 7D; seat 3 holds 8C (and other clubs).
EXAMPLE = "0:AKQ2.K3.QJ54.932 T98.AQJ.K32.QJ54 J7654.T98765.A7. 3.42.T986.AKT876"
DEAL = "0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J76.T98765.A.A64 543.42.T9876.T93"


def cards(*names):
    return [parse_card(n) for n in names]


def in_play(deal=EXAMPLE, winning="5D", contracts=(5, 3, 2, 4), rules=None):
    """Dealer 3; seat 0 bids ``winning`` and the others pass; contracts in bidding order."""
    s = DealState.from_text(deal, dealer=3, rules=rules)
    s.apply_text(winning, "pass", "pass", "pass", *contracts)
    assert s.phase == "play"
    return s


def test_declarer_leads_the_first_trick_with_any_card():
    # §5: the declarer leads to the first trick; the leader plays any card
    s = in_play()
    assert s.to_move == s.declarer == 0
    assert s.legal_actions() == sorted(c for c in range(52) if s.hand(0) >> c & 1)


def test_rule_book_example_trick_seven_of_diamonds_wins():
    # §5 example (diamonds trump): 9♣ led, then Q♣, 7♦, 8♣. The 7♦ wins: the third player was
    # void in clubs and cut; the fourth held clubs, so had to follow.
    s = in_play()
    s.apply_text("9C")
    assert s.legal_actions() == cards("4C", "5C", "JC", "QC")  # seat 1 must follow clubs
    s.apply_text("QC")
    assert s.legal_actions() == sorted(c for c in range(52) if s.hand(2) >> c & 1)  # void: any
    s.apply_text("7D")
    assert s.legal_actions() == cards("6C", "7C", "8C", "TC", "KC", "AC")  # must follow clubs
    with pytest.raises(IllegalAction, match="must follow clubs"):
        s.apply_text("6D")
    s.apply_text("8C")
    assert s.tricks_taken == (0, 0, 1, 0)
    assert s.leader == 2 and s.to_move == 2  # the winner leads the next trick


def test_highest_trump_wins_over_a_lower_trump():
    # §5: the trick goes to the highest trump in it
    s = in_play()
    s.apply_text("9C", "QC", "7D")
    s.apply_text("AC")  # seat 3 follows with the ace; the trump still wins
    assert s.tricks_taken[2] == 1


def test_without_trump_the_highest_card_of_the_led_suit_wins():
    # §5: no trump in the trick -> highest card of the led suit; a discard never wins
    s = in_play(winning="5NT", contracts=(5, 3, 2, 4))
    s.apply_text("9C", "QC", "JS", "8C")  # seat 2, void in clubs, discards: no trump in NT
    assert s.tricks_taken == (0, 1, 0, 0)
    s = in_play(winning="5H", contracts=(5, 3, 2, 4))
    s.apply_text("9C", "QC", "7D", "AC")  # hearts trump: 7D is only a discard
    assert s.tricks_taken == (0, 0, 0, 1)


def test_trick_winner_as_it_stands():
    # §5 winner rule, applied to a trick in progress
    s = in_play()
    s.apply_text("9C")
    assert s.trick_winner() == 0
    s.apply_text("QC")
    assert s.trick_winner() == 1 and s.would_win(parse_card("7D"))
    assert not s.would_win(parse_card("AS"))


def test_card_not_in_hand_is_refused():
    # §5: a player plays one of his own cards
    s = in_play()
    with pytest.raises(IllegalAction, match="AH is not in seat 0's hand"):
        s.apply_text("AH")


def test_revoke_is_not_a_legal_move():
    # §5: revoke (playing off-suit while holding the led suit) is a rule breach
    s = in_play()
    s.apply_text("9C")
    with pytest.raises(IllegalAction, match="revoke"):
        s.apply_text("AH")
    assert s.current_trick == ((0, parse_card("9C")),)


def test_penalised_revoke_stands_and_costs_100():
    # §5: in a recorded game a proven revoke costs the offender 100 points (revoke_penalty; the
    # encyclopedia and short pages); §10 revokes=penalize: the card stands and play goes on (ours)
    s = in_play()
    s.apply_text("9C")
    s.apply(parse_card("AH"), allow_revoke=True)
    assert s.revokes == ((1, 1),) and s.current_trick[1] == (1, parse_card("AH"))
    while s.phase == "play":
        s.apply(s.legal_actions()[0])
    assert s.phase == "scored" and sum(s.tricks_taken) == 13
    base = [score(s.contracts[p], s.tricks_taken[p], s.over) for p in range(4)]
    assert list(s.scores) == [base[0], base[1] - 100, base[2], base[3]]


def test_thirteen_tricks_then_scored():
    # §5: 13 tricks; §6: scored with over = sum of contracts > 13
    s = in_play(deal=DEAL, winning="5S", contracts=(5, 2, 2, 1))
    while s.phase == "play":
        s.apply(s.legal_actions()[-1])
    assert s.phase == "scored" and len(s.plays) == 52 and sum(s.tricks_taken) == 13
    assert len(s.completed_tricks) == 13


@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_simulated_play_follows_suit_and_each_card_once(policy):
    # §5 checked on whole simulated deals
    for i in range(30):
        t = play_deal(3, i, policies=(policy,) * 4)
        if t.thrown_in:
            continue
        assert sorted(t.plays) == list(range(52))
        hands = list(t.hands)
        leader = t.declarer
        for k in range(13):
            trick = t.plays[4 * k : 4 * k + 4]
            led = trick[0] // 13
            for j, card in enumerate(trick):
                seat = (leader + j) % 4
                assert hands[seat] >> card & 1
                holds_led = hands[seat] >> (13 * led) & 0x1FFF
                assert card // 13 == led or not holds_led
                hands[seat] &= ~(1 << card)
            # winner: highest trump, else highest of the led suit
            trumps = [c for c in trick if c // 13 == t.trump]
            best = max(trumps) if trumps else max(c for c in trick if c // 13 == led)
            leader = (leader + trick.index(best)) % 4
        assert sum(t.tricks) == 13


def test_in_nt_every_trick_goes_to_the_led_suit():
    # §5: in NT the trick always goes to the highest card of the led suit
    traces = [play_deal(8, i, Rules(), policies=("random",) * 4) for i in range(60)]
    nt = [t for t in traces if t.trump == 4]
    assert nt
    for t in nt:
        leader, won = t.declarer, [0] * 4
        for k in range(13):
            trick = t.plays[4 * k : 4 * k + 4]
            best = max(c for c in trick if c // 13 == trick[0] // 13)
            leader = (leader + trick.index(best)) % 4
            won[leader] += 1
        assert tuple(won) == t.tricks


def test_the_compiled_trick_winner_rule_reads_the_same_in_both_its_forms():
    # §5: a card beats the card winning the trick so far when it is a higher card of that
    # card's suit, or a trump on a card that is not a trump. The compiled loop states this as a
    # comparison (`beats`) and, for branch-free random play, as a sign mask (`beats_mask`): both
    # are checked here against the rule itself for every pair of cards and every trump (4 = NT).
    @numba.njit(cache=False)
    def both(out):
        for t in range(5):
            for best in range(52):
                for card in range(52):
                    out[0, t, best, card] = beats(card, best, t)
                    out[1, t, best, card] = beats_mask(card, best, t)

    out = np.zeros((2, 5, 52, 52), dtype=np.int64)
    both(out)
    suit, rank = np.arange(52) // 13, np.arange(52) % 13
    for t in range(5):
        card_suit, best_suit = suit[None, :], suit[:, None]
        rule = ((card_suit == best_suit) & (rank[None, :] > rank[:, None])) | (
            (card_suit == t) & (best_suit != t))
        assert (out[0, t] == rule).all(), f"beats, trump {t}"
        assert (out[1, t] == -rule.astype(np.int64)).all(), f"beats_mask, trump {t}"
