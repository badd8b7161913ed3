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
    assert board.tags["Contract"] == "Pass" and board.tags["WhistThrownIn"] == "yes"


def test_the_standard_sections_hold_calls_and_tricks():
    rec = records(Rules(), n=1)[0]
    board = record_board(rec)
    text = format_pbn([board])
    (parsed,) = parse_pbn(text)
    # Auction: the dealer's left calls first; Play: the declarer leads, one trick a line,
    # the cards of the seats clockwise from him, suit first
    assert parsed.tags["Auction"] == "NESW"[(rec["dealer"] + 1) % 4]
    calls = parsed.sections["Auction"].split()
    assert [c.lower() for c in calls] == [c.lower() for c in rec["calls"]]
    res = replay_record(rec)
    assert parsed.tags["Play"] == "NESW"[res.declarer]
    assert parsed.tags["Contract"] == call_str(5 * res.level + res.trump)
    rows = parsed.sections["Play"].splitlines()
    assert len(rows) == 13 and all(len(r.split()) == 4 for r in rows)
    first = rows[0].split()[0]
    assert first[0] in "SHDC" and parse_card(first[1] + first[0]) == parse_card(rec["play"][0])


def test_levels_above_seven_and_three_players_use_whist_tags():
    rec = records(Rules(players=3), n=1)[0]
    board = record_board(rec)
    assert "Auction" not in board.tags and "Play" not in board.tags
    assert board.tags["WhistAuction"].startswith("NESW"[(rec["dealer"] + 1) % 3] + ":")
    assert len(board.tags["WhistPlay"].split(":")[1].split()) == len(rec["play"])
    assert board.tags["Deal"].split()[(3 - "NESW".index(board.tags["Deal"][0])) % 4] == "-"


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_endplay_reads_the_files(rules):
    for rec in records(rules):
        text = format_pbn([record_board(rec)])
        (board,) = endplay_pbn.loads(text)
        hands = [parse_hand(h) for h in rec["hands"]]
        seen = str(board.deal).split(":")[1].split()
        assert len(seen) == 4
        if "Play" in parse_pbn(text)[0].tags:  # the standard sections: bridge reads the play
            assert len(board.auction) == len(rec["calls"])
            symbols = str.maketrans("♠♥♦♣", "SHDC")
            assert [str(c).translate(symbols) for c in board.play] == [
                c[-1] + c[:-1] for c in rec["play"]]
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
    board.sections["Play"] = board.sections["Play"].replace("S", "H", 1)
    with pytest.raises(RecordError, match=r"Play trick \d+, [NESW]: \w\w is not in seat \d's hand"):
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
