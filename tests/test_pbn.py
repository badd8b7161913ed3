"""PBN files: the deal string, the file reader and writer, `dd --file`, `deal --pbn`, `export`,
and a round trip through endplay (a bridge library) when it is installed."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from whist_sim.core.cards import NotationError, parse_deal, parse_hand
from whist_sim.core.pbn import (
    EXPORT_TAGS,
    board_tags,
    format_pbn,
    format_pbn_deal,
    is_pbn,
    parse_pbn,
    parse_pbn_deal,
    whist_tags,
)
from whist_sim.interfaces.cli import main

DEAL = "N:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J7654.T98.AT9.A3 3.76542.876.T964"
HANDS = parse_deal(DEAL, size=13)
ENDING = "N:AKQJ... ...AKQJ .AKQJ.. ..AKQJ."  # N spades, E clubs, S hearts, W diamonds


def test_deal_string_round_trip_from_every_first_seat():
    for first in range(4):
        text = format_pbn_deal(HANDS, first=first)
        assert text[0] == "NESW"[first]
        assert parse_pbn_deal(text, size=13) == HANDS
        assert parse_deal(text) == HANDS  # the general deal parser reads PBN strings too
    assert format_pbn_deal(HANDS) == DEAL


def test_deal_string_seats_are_n_e_s_w():
    hands = parse_pbn_deal("E:AKQJ... ...AKQJ .AKQJ.. ..AKQJ.")
    # the first hand is E's (seat 1), then S, W, N clockwise
    assert hands[1] == parse_hand("AKQJ..."), hands
    assert hands[0] == parse_hand("..AKQJ.")


def test_three_player_deal_writes_west_as_unknown():
    hands = HANDS[:3]
    text = format_pbn_deal(hands)
    assert text.endswith(" -")
    assert parse_pbn_deal(text) == [*hands, None]


@pytest.mark.parametrize(
    "text, match",
    [
        ("X:AKQ2.K3.QJ54.872 - - -", "expected N, E, S or W"),
        ("N:AKQ2.K3.QJ54.872 - -", "expected 4 hands"),
        ("AKQ2.K3.QJ54.872 - - -", "expected 'N:'"),
        ("N:AKQ2.K3.QJ54.872 A.... - -", "PBN deal, E"),
        ("N:AKQ2.K3.QJ54.872 A... - -", "already in another hand"),
    ],
)
def test_bad_deal_strings_name_the_part(text, match):
    with pytest.raises(NotationError, match=match):
        parse_pbn_deal(text)


PBN_FILE = """% PBN 2.1
% EXPORT
; a comment line
[Event "club night"]
[Board "1"]
[Dealer "N"]
[Deal "N:AKQ2.K3.QJ54.872 T98.AQJ.K32.KQJ5 J7654.T98.AT9.A3 3.76542.876.T964"] ; trailing
{a commentary
 over two lines}
[Auction "N"]
1S Pass 2S Pass
[Note "1:a note"]
[Note "2:another"]

[Event "#"]
[Board "2"]
[Deal "E:AKQJ... ...AKQJ .AKQJ.. ..AKQJ."]
[Board "3"]
[Deal "N:- - - -"]
[Annotator "a \\"quoted\\" name"]
"""


def test_parse_pbn_file_boards_tags_and_sections():
    boards = parse_pbn(PBN_FILE)
    assert [b.tags["Board"] for b in boards] == ["1", "2", "3"]
    assert boards[0].hands(size=13) == HANDS
    assert boards[0].sections["Auction"] == "1S Pass 2S Pass"
    assert boards[1].tags["Event"] == "club night"  # "#" repeats the previous game's value
    assert boards[2].hands() == [None] * 4
    assert boards[2].tags["Annotator"] == 'a "quoted" name'
    assert boards[0].line == 4 and boards[1].line == 15
    assert is_pbn(PBN_FILE) and not is_pbn(DEAL)


def test_parse_pbn_errors_name_the_line():
    with pytest.raises(NotationError, match="line 2"):
        parse_pbn('[Board "1"]\n[Deal "N:..."\n')
    with pytest.raises(NotationError, match="line 1: text"):
        parse_pbn("stray text\n")
    with pytest.raises(NotationError, match="no Deal tag"):
        parse_pbn('[Board "1"]\n')[0].hands()


def test_written_file_reads_back():
    extra = whist_tags(seed=7, deal=3, trump=4, declarer=2, contracts=[5, 3, 2, 4],
                       tricks=[5, 3, 1, 4], scores=[35, 19, -10, 26])
    tags = board_tags(HANDS, board=4, dealer=3, extra=extra)
    assert list(tags)[: len(EXPORT_TAGS)] == list(EXPORT_TAGS)
    text = format_pbn([tags, board_tags(HANDS[:3], board=5, dealer=1)])
    boards = parse_pbn(text)
    assert len(boards) == 2
    assert boards[0].tags == tags
    assert boards[0].tags["Deal"].startswith("W:") and boards[0].tags["Dealer"] == "W"
    assert boards[0].hands() == HANDS
    assert boards[1].hands() == [*HANDS[:3], None]
    assert boards[0].tags["WhistTrump"] == "NT" and boards[0].tags["WhistDeclarer"] == "S"


def test_round_trip_through_endplay():
    pbn = pytest.importorskip("endplay.parsers.pbn")
    text = format_pbn([board_tags(HANDS, board=1, dealer=0, extra=whist_tags(seed=1, deal=0)),
                       board_tags(parse_deal(ENDING), board=3, dealer=2)])
    theirs = pbn.loads(text)
    assert [b.board_num for b in theirs] == [1, 3]
    assert parse_pbn_deal(theirs[0].deal.to_pbn()) == HANDS
    assert parse_pbn_deal(theirs[1].deal.to_pbn()) == parse_deal(ENDING)
    # endplay's seats are N, E, S, W = 0..3 too (it takes the dealer from the board number, the
    # bridge convention that whist-sim's board = deal + 1 and dealer = deal % 4 follow)
    assert int(theirs[1].dealer) == 2
    assert theirs[0].info["WhistSeed"] == "1"
    back = parse_pbn(pbn.dumps(theirs))  # and their file reads back here
    assert [b.hands() for b in back] == [HANDS, parse_deal(ENDING)]


def test_dd_reads_a_pbn_file(tmp_path):
    f = tmp_path / "boards.pbn"
    f.write_text(format_pbn([board_tags(parse_deal(ENDING), board=1, dealer=0),
                             board_tags(parse_deal(ENDING), board=2, dealer=1)]))
    res = CliRunner().invoke(main, ["dd", "--file", str(f), "--trump", "C", "--seat", "E",
                                    "--json", "--no-progress"])
    assert res.exit_code == 0, res.output
    out = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [o["tricks"] for o in out] == [4, 4]
    assert out[0]["deal"] == ENDING  # deals are printed in PBN form
    bad = tmp_path / "bad.pbn"
    bad.write_text('[Board "7"]\n[Deal "N:AKQ2 - - -"]\n')
    res = CliRunner().invoke(main, ["dd", "--file", str(bad)])
    assert res.exit_code == 2 and "bad.pbn:1 (board 7)" in res.output


def test_deal_pbn_prints_a_board():
    res = CliRunner().invoke(main, ["deal", "--seed", "3", "--deal", "1", "--pbn"])
    assert res.exit_code == 0, res.output
    (board,) = parse_pbn(res.stdout)
    trace = json.loads(CliRunner().invoke(main, ["deal", "--seed", "3", "--deal", "1",
                                                 "--json"]).stdout)
    hands = board.hands(size=13)
    assert [parse_hand(h) for h in trace["hands"]] == hands
    assert board.tags["Dealer"] == "NESW"[trace["dealer"]]
    assert board.tags["Board"] == "2" and board.tags["WhistSeed"] == "3"
    assert board.tags["WhistContracts"] == " ".join(map(str, trace["contracts"]))
    res = CliRunner().invoke(main, ["deal", "--seed", "3", "--pbn", "--json"])
    assert res.exit_code == 2 and "not both" in res.output


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    from whist_sim.runs.simulate import simulate

    out = tmp_path_factory.mktemp("pbn") / "run"
    simulate(out, 30, seed=11, chunk_size=12, threads=1, store_dealt=True, progress=False)
    return out


def test_export_pbn_dataset(dataset, tmp_path):
    from whist_sim import load

    out = tmp_path / "run.pbn"
    res = CliRunner().invoke(main, ["export", str(dataset), "--pbn", str(out), "--start", "5",
                                    "--count", "20", "--no-progress"])
    assert res.exit_code == 0, res.output
    assert "20 boards written" in res.output
    df = load(dataset)
    boards = parse_pbn(out.read_text())
    assert [int(b.tags["Board"]) for b in boards] == list(range(6, 26))
    for b in boards:
        row = df.iloc[int(b.tags["WhistDeal"])]
        assert b.hands() == [int(row[f"dealt_{s}"]) for s in range(4)]
        assert b.tags["Dealer"] == "NESW"[row["dealer"]]
        assert b.tags["WhistHands"] == "dealt"
        if not row["thrown_in"]:
            assert b.tags["WhistScores"] == " ".join(str(row[f"score_{s}"]) for s in range(4))
    # the hands at the start of play, to standard output
    res = CliRunner().invoke(main, ["export", str(dataset), "--pbn", "-", "--hands", "play",
                                    "--count", "2"])
    assert res.exit_code == 0, res.output
    boards = parse_pbn(res.stdout)
    assert [b.hands() for b in boards] == [
        [int(df.iloc[i][f"hand_{s}"]) for s in range(4)] for i in range(2)
    ]
    res = CliRunner().invoke(main, ["export", str(dataset), "--pbn", str(out), "--start", "30"])
    assert res.exit_code == 1 and "past the dataset's last deal" in res.output
