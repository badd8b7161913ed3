"""Whole records in PBN (docs/PBN.md): a deal record (RULES §10) or a game record (§11) written as
PBN boards with the calls, the Frisch passes, the contracts and the play, read back by `replay`
as the same record; bridge software (endplay) still reads the files."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from endplay.parsers import pbn as endplay_pbn

from whist_sim import Rules
from whist_sim.core.cards import parse_card, parse_hand
from whist_sim.core.pbn import format_pbn, parse_pbn
from whist_sim.engine import play_deal
from whist_sim.engine.pbn_record import (
    game_boards,
    pbn_records,
    record_board,
    rules_tag,
)
from whist_sim.engine.record import RecordError, record_from_trace, replay_game, replay_record
from whist_sim.engine.state import call_str
from whist_sim.interfaces.cli import main

VARIANTS = [Rules(), Rules(players=3), Rules(players=3, three_player_deck="one_random"),
            Rules(after_third_frisch="redeal", zero_over=30, frisch_directions="left,across,right"),
            Rules(bid_order="suit", pass_is_final=True)]


def passer(state, rng):
    """Passes every call; lays his three lowest cards in a Frisch (three Frisches, thrown in)."""
    return state.legal_actions()[0]


def records(rules, n=4, seed=3):
    out = []
    for d in range(n):
        t = play_deal(seed, d, rules, dealer=d % rules.players,
                      policies=["heuristic"] * rules.players)
        out.append(record_from_trace(t))
    t = play_deal(seed, n, rules.replace(after_third_frisch="pass"), dealer=0,
                  policies=[passer] * rules.players)
    rec = record_from_trace(t)
    rec["rules"] = rules.to_dict()
    out.append(rec)  # three Frisches, then thrown in
    return out


def through_pbn(record):
    return pbn_records(format_pbn([record_board(record)]))


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_a_deal_record_round_trips_through_pbn(rules):
    for rec in records(rules):
        (back,) = through_pbn(rec)
        assert back == {**rec, "frisch": rec["frisch"], "revokes": "reject"}
        a, b = replay_record(rec), replay_record(back)
        assert a.ok and b.ok and (a.scores, a.tricks, a.contracts) == (b.scores, b.tricks,
                                                                      b.contracts)


def test_frisch_passes_are_documented_tags():
    rec = records(Rules(), n=0)[0]
    assert len(rec["frisch"]) == 3
    board = record_board(rec)
    for f in range(3):
        tag = board.tags[f"WhistFrisch{f + 1}"]
        seats = dict(part.split(":") for part in tag.split())
        assert list(seats) == ["N", "E", "S", "W"]
        for s, seat in enumerate("NESW"):
            assert sorted(map(parse_card, seats[seat].split(","))) == sorted(
                map(parse_card, rec["frisch"][f][s]))
    # a thrown-in whist deal states no bridge contract: the standard tag stays unknown
    assert board.tags["Contract"] == "?" and board.tags["WhistThrownIn"] == "yes"


def test_calls_and_cards_are_in_whist_tags_not_in_bridge_sections():
    rec = records(Rules(), n=1)[0]
    text = format_pbn([record_board(rec)])
    (parsed,) = parse_pbn(text)
    res = replay_record(rec)
    # bridge reads PBN's Auction and Play sections and Declarer, Contract and Result tags as
    # bridge: a whist 7S (seven tricks) would be a bridge 7S (thirteen), so none is written
    assert "Auction" not in parsed.tags and "Play" not in parsed.tags and not parsed.sections
    assert [parsed.tags[t] for t in ("Declarer", "Contract", "Result")] == ["?", "?", "?"]
    # WhistAuction: the dealer's left calls first, then every call
    first, _, calls = parsed.tags["WhistAuction"].partition(":")
    assert first == "NESW"[(rec["dealer"] + 1) % 4]
    assert [c.lower() for c in calls.split()] == [c.lower() for c in rec["calls"]]
    # WhistPlay: the declarer leads, then the cards in playing order, suit first
    leader, _, cards = parsed.tags["WhistPlay"].partition(":")
    assert leader == "NESW"[res.declarer]
    assert cards.split() == [c[-1] + c[:-1] for c in rec["play"]]
    # the whist contract and result under whist-sim's own tags, in their whist meaning
    assert parsed.tags["WhistContract"] == call_str(5 * res.level + res.trump)
    assert parsed.tags["WhistResult"] == str(res.tricks[res.declarer])


def test_three_players_write_the_fourth_hand_unknown():
    rec = records(Rules(players=3), n=1)[0]
    board = record_board(rec)
    assert board.tags["WhistAuction"].startswith("NESW"[(rec["dealer"] + 1) % 3] + ":")
    assert len(board.tags["WhistPlay"].split(":")[1].split()) == len(rec["play"])
    assert board.tags["Deal"].split()[(3 - "NESW".index(board.tags["Deal"][0])) % 4] == "-"


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_endplay_reads_the_deal_and_no_bridge_contract(rules):
    for rec in records(rules):
        text = format_pbn([record_board(rec)])
        (board,) = endplay_pbn.loads(text)
        hands = [parse_hand(h) for h in rec["hands"]]
        seen = str(board.deal).split(":")[1].split()
        assert len(seen) == 4
        assert board.contract is None and len(board.auction) == 0 and len(board.play) == 0
        assert board.info["WhistAuction"] and "Result" not in board.info
        assert sum(1 for h in hands if h) == rules.players


def test_a_three_player_board_written_back_by_endplay_keeps_the_unknown_hand():
    rules = Rules(players=3)
    for rec in records(rules):
        text = format_pbn([record_board(rec)])
        again = endplay_pbn.dumps(endplay_pbn.loads(text))
        assert '"-"' not in again and "..." in again  # bridge writes the unknown hand empty
        (back,) = pbn_records(again)
        assert back["hands"] == rec["hands"] and back["play"] == rec["play"]
        assert replay_record(back).scores == replay_record(rec).scores


def test_a_board_whose_stated_outcome_differs_is_refused():
    rec = records(Rules(), n=1)[0]
    board = record_board(rec)
    board.tags["WhistScores"] = "1 2 3 4"
    with pytest.raises(RecordError, match="WhistScores says 1 2 3 4, but the play gives"):
        pbn_records(format_pbn([board]))
    board = record_board(rec)
    leader, cards = board.tags["WhistPlay"].split(":")
    first = cards.split()[0]
    board.tags["WhistPlay"] = f"{leader}:{'H' if first[0] != 'H' else 'S'}{cards[1:]}"
    with pytest.raises(RecordError, match=r"board 1, line \d+: WhistPlay: play\[0\]: "):
        pbn_records(format_pbn([board]))


def test_rules_tag_holds_the_options_that_differ():
    assert rules_tag(Rules()) == ""
    r = Rules(after_third_frisch="redeal", frisch=False, zero_over=30,
              frisch_directions="left,across,right")
    assert rules_tag(r) == ("after_third_frisch=redeal frisch=false "
                            "frisch_directions=left,across,right zero_over=30")


def test_export_and_replay_round_trip_on_the_command_line(tmp_path):
    rec = records(Rules(zero_over=30), n=2)[1]
    src = tmp_path / "deal.json"
    src.write_text(json.dumps(rec))
    out = tmp_path / "deal.pbn"
    r = CliRunner().invoke(main, ["export", str(src), "--pbn", str(out)])
    assert r.exit_code == 0, r.output
    assert "1 board(s) written" in r.output
    from_json = json.loads(CliRunner().invoke(main, ["replay", "--json", str(src)]).output)
    from_pbn = json.loads(CliRunner().invoke(main, ["replay", "--json", str(out)]).output)
    assert from_pbn == {**from_json, "file": str(out)} and from_pbn["ok"]
    bad = dict(rec, calls=["9S"] + rec["calls"][1:])
    src.write_text(json.dumps(bad))
    r = CliRunner().invoke(main, ["export", str(src), "--pbn", str(tmp_path / "x.pbn")])
    assert r.exit_code == 1 and "calls[" in r.output and not (tmp_path / "x.pbn").exists()


def test_a_game_record_round_trips_through_pbn(tmp_path):
    from whist_sim.runs.game import game_record, play_game

    rules = Rules(target=150, after_third_frisch="redeal")
    game = game_record(play_game(5, rules, ["heuristic/expert", "hcp", "cautious", "random"]))
    text = format_pbn(game_boards(game))
    (back,) = pbn_records(text)
    assert back == game
    a, b = replay_game(game), replay_game(back)
    assert a.ok and b.ok and a.totals == b.totals and a.winners == b.winners
    src = tmp_path / "game.json"
    src.write_text(json.dumps(game))
    out = tmp_path / "game.pbn"
    r = CliRunner().invoke(main, ["export", str(src), "--pbn", str(out)])
    assert r.exit_code == 0 and f"{len(game['deals'])} board(s) written" in r.output
    r = CliRunner().invoke(main, ["replay", str(out)])
    assert r.exit_code == 0 and "game ok" in r.output
    assert len(endplay_pbn.loads(text)) == len(game["deals"])


#: a board as whist-sim wrote it before the whist tags replaced PBN's Auction and Play sections
#: and the Declarer, Contract and Result tags (`deal --seed 1 --pbn`): still read, and checked
LEGACY = """% PBN 2.1
% EXPORT
[Event "whist-sim record"]
[Site "?"]
[Date "?"]
[Board "1"]
[West "?"]
[North "?"]
[East "?"]
[South "?"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:JT9.KJ742.KJ.AK5 K854.QT6.64.9874 A7632.A85.T85.T3 Q.93.AQ9732.QJ62"]
[Scoring "?"]
[Declarer "W"]
[Contract "7D"]
[Result "6"]
[WhistDealer "N"]
[WhistSeed "1"]
[WhistDeal "0"]
[WhistHands "dealt"]
[WhistTrump "D"]
[WhistDeclarer "W"]
[WhistContracts "3 1 3 7"]
[WhistTricks "3 1 3 6"]
[WhistScores "19 11 19 -10"]
[WhistRules ""]
[WhistPolicies "heuristic,heuristic,heuristic,heuristic"]
[Auction "E"]
Pass 5S   6D   6H
Pass Pass 7D   Pass
Pass Pass
[Play "W"]
DA   DJ   D4   D5
SQ   S9   SK   SA
H3   H2   H6   HA
DQ   DK   D6   DT
C2   CA   C4   C3
H9   HK   HT   H5
D2   H4   HQ   H8
CQ   C5   C7   CT
CJ   CK   C8   D8
D3   SJ   S4   S2
D9   HJ   S5   S7
D7   ST   S8   S6
C6   H7   C9   S3
"""


def test_a_board_of_an_older_version_is_still_read():
    (rec,) = pbn_records(LEGACY)
    fresh = json.loads(CliRunner().invoke(main, ["deal", "--seed", "1", "--json"]).stdout)
    assert rec == {**fresh, "rules": Rules().to_dict()}


@pytest.mark.parametrize("old, new, message", [
    ('[Contract "7D"]', '[Contract "7S"]',
     "board 1, line 16: Contract says 7S, but the calls and cards give 7D"),
    ('[Result "6"]', '[Result "7"]', "board 1, line 17: Result says 7, but the calls and cards"),
    ('[Declarer "W"]', '[Declarer "S"]', "board 1, line 15: Declarer says S"),
    ('[Auction "E"]', '[Auction "S"]',
     "board 1, line 29: Auction: the first call is by E, the dealer N's left (RULES §2), not S"),
    ('[Auction "E"]', '[Auction "X"]', "board 1, line 29: Auction: PBN seat 'X'"),
    ("C6   H7   C9   S3\n", "C6   H7   C9   S3\nC6   H7   C9   S3\n",
     "board 1, line 33: Play: trick 14: C6 after the end of the deal (52 cards)"),
    ("C6   H7   C9   S3\n", "C6   H7   C9   S3   HA\n", "Play: trick 14: HA after the end"),
    ("C6   H7   C9   S3\n", "-    H7   C9   S3\n", "Play: trick 13: H7 after the record stops"),
    ("Pass Pass\n[Play", "Pass Pass Pass\n[Play", "Auction: calls[10]: the auction is over"),
])
def test_an_older_board_that_contradicts_itself_is_refused(old, new, message):
    assert old in LEGACY
    with pytest.raises(RecordError) as e:
        pbn_records(LEGACY.replace(old, new))
    assert message in str(e.value)


def test_replay_reports_each_board_of_a_file_in_its_own_row(tmp_path):
    good, bad = (record_board(r, board=k + 1) for k, r in enumerate(records(Rules(), n=2)[:2]))
    bad.tags["WhistContract"] = "13NT"
    f = tmp_path / "two.pbn"
    f.write_text(format_pbn([good, bad]), encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(f)])
    assert r.exit_code == 1 and r.stderr == ""
    rows = {line.split()[0]: line for line in r.stdout.splitlines()[1:]}
    assert " ok " in rows[f"{f}#1"]
    assert "REFUSED  board 2, line " in rows[f"{f}#2"]
    assert "WhistContract says 13NT, but the calls and cards give" in rows[f"{f}#2"]
