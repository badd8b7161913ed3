"""RULES.md §9 — notation of cards, hands and deals; bad input raises a clear error."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from whist_sim.core.cards import (
    CardSet,
    NotationError,
    card_str,
    cards_of,
    format_deal,
    format_hand,
    make_card,
    parse_card,
    parse_deal,
    parse_hand,
)

EXAMPLE = "S:AKQ2 H:K3 D:QJ54 C:872"
EXAMPLE_PBN = "AKQ2.K3.QJ54.872"


def test_card_encoding_is_thirteen_times_suit_plus_rank():
    # public encoding: suit 0..3 = C, D, H, S; rank 0..12 = 2..A
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("TH") == 13 * 2 + 8
    assert parse_card("AS") == 51
    assert [card_str(c) for c in (0, 12, 13, 51)] == ["2C", "AC", "2D", "AS"]
    assert make_card(3, 12) == 51


@pytest.mark.parametrize(
    "text, card",
    [("A♠", "AS"), ("10♥", "TH"), ("q♦", "QD"), ("7♣", "7C"), ("th", "TH"), ("10H", "TH")],
)
def test_symbols_and_ten_are_accepted(text, card):
    assert parse_card(text) == parse_card(card)


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("1S", "rank"),
        ("AX", "suit"),
        ("A", "rank then suit"),
        ("", "rank then suit"),
        ("AKS", "rank"),
    ],
)
def test_bad_card_names_the_problem(bad, fragment):
    with pytest.raises(NotationError, match=fragment):
        parse_card(bad)


def test_both_hand_notations_give_the_same_bitmask():
    m = parse_hand(EXAMPLE)
    assert m == parse_hand(EXAMPLE_PBN)
    assert m == parse_hand("S:AKQ2.H:K3.D:QJ54.C:872")
    assert m == parse_hand("♠AKQ2 ♥K3 ♦QJ54 ♣872")
    assert bin(m).count("1") == 13
    assert m >> parse_card("AS") & 1 and m >> parse_card("2C") & 1 and not m >> parse_card("3C") & 1


def test_hand_formats_round_trip():
    m = parse_hand(EXAMPLE)
    assert format_hand(m, "pbn") == EXAMPLE_PBN
    assert format_hand(m, "suits") == EXAMPLE


def test_void_is_dash_or_empty():
    a = parse_hand("S:AKQJT98765432 H:- D:- C:-")
    b = parse_hand("AKQJT98765432...")
    assert a == b
    assert format_hand(a, "suits") == "S:AKQJT98765432 H:- D:- C:-"
    assert format_hand(a, "pbn") == "AKQJT98765432..."


@pytest.mark.parametrize(
    "bad, fragment",
    [
        ("AKQ2.K3.QJ54", "four suits"),
        ("AKQ2.K3.QJ54.87X", "unknown rank 'X'"),
        ("AKQ2.K3.QJ54.8722", "duplicate card 2C"),
        ("S:AK S:Q", "appears twice"),
        ("S:AK X:Q", "unknown suit"),
    ],
)
def test_malformed_hands_name_the_bad_part(bad, fragment):
    with pytest.raises(NotationError, match=fragment):
        parse_hand(bad)


def test_wrong_card_count_is_an_error():
    with pytest.raises(NotationError, match="has 12 cards, expected 13"):
        parse_hand("AKQ.K3.QJ54.872", size=13)


DEAL = "0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J7654.T98.AT9.A3 3.76542.876.T964"


def test_deal_parses_in_seat_order_and_round_trips():
    hands = parse_deal(DEAL, size=13)
    assert len(hands) == 4
    assert sum(bin(h).count("1") for h in hands) == 52
    assert format_deal(hands) == DEAL
    # starting at another seat rotates who gets which hand
    rotated = parse_deal("2:" + DEAL[2:])
    assert rotated[2] == hands[0] and rotated[1] == hands[3]
    # bridge compass form: N = seat 0, then E, S, W
    assert parse_deal("N:" + DEAL[2:]) == hands


def test_overlapping_hands_are_refused():
    with pytest.raises(NotationError, match="seat 1.*AS.*already in another hand"):
        parse_deal("0:AKQ2.K3.QJ54.872 A98.AQJ.K32.KQJ5 J7654.T98.AT9.T3 3.76542.876.T964")


def test_wrong_number_of_hands_is_refused():
    with pytest.raises(NotationError, match="expected 4 hands, found 3"):
        parse_deal("0:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J7654.T98.AT9.A3")


def test_cardset_is_a_friendly_set():
    h = CardSet.parse(EXAMPLE)
    assert len(h) == 13 and "AS" in h and parse_card("KH") in h and "AH" not in h
    assert list(h) == sorted(h)
    assert repr(h) == "CardSet('AKQ2.K3.QJ54.872')"
    spades = h.suit(3)
    assert len(spades) == 4 and h.suit_length(0) == 3
    assert (h - spades) | spades == h
    assert CardSet([51, 50]) == CardSet(parse_hand("AK..."))
    with pytest.raises(NotationError, match="duplicate card AS"):
        CardSet([51, 51])
    with pytest.raises(AttributeError):
        h.mask = 0


@given(st.sets(st.integers(0, 51), max_size=52))
def test_any_card_set_round_trips_through_both_notations(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    assert parse_hand(format_hand(m, "pbn")) == m
    assert parse_hand(format_hand(m, "suits")) == m
    assert cards_of(m) == sorted(cards)


@given(st.permutations(range(52)))
def test_any_deal_round_trips(perm):
    hands = [sum(1 << c for c in perm[13 * s : 13 * s + 13]) for s in range(4)]
    assert parse_deal(format_deal(hands), size=13) == hands


@pytest.mark.parametrize("text,code", [
    ("C", 0), ("d", 1), ("♥", 2), ("S", 3), ("NT", 4), ("n", 4), ("notrump", 4), ("No-Trump", 4),
    ("0", 0), ("4", 4), (3, 3),
])
def test_one_parser_of_strain_names(text, code):
    # RULES §9: strains C D H S and NT; the one parser serves calls, --trump and the advisor
    from whist_sim.core.cards import parse_strain, strain_str

    assert parse_strain(text) == code
    assert parse_strain(strain_str(code)) == code


@pytest.mark.parametrize("bad", ["", "X", "5", "CD", -1, 5, True, None])
def test_strain_names_refused(bad):
    from whist_sim.core.cards import NotationError, parse_strain

    with pytest.raises(NotationError):
        parse_strain(bad)
