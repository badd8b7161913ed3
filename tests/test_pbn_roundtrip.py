"""PBN round trip (docs/PBN.md): what `export` writes, `replay` reads back equal, for every field a
deal or game record can hold, hostile text included (quotes, backslashes, line breaks of every
kind, `]`, `%`, `;`, `{`, `}`, `#`, non-ASCII, control characters, lone surrogates); and a
bridge program (endplay) reads the deal of such a file, no bridge contract, and writes it back
with our tags kept."""

from __future__ import annotations

import json
from functools import cache

import pytest
from click.testing import CliRunner
from endplay.parsers import pbn as endplay_pbn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whist_sim import Rules
from whist_sim.core.cards import parse_hand
from whist_sim.core.pbn import escape_value, format_pbn, parse_pbn, parse_pbn_deal, unescape_value
from whist_sim.engine import play_deal
from whist_sim.engine.pbn_record import canonical_record, game_boards, pbn_records, record_board
from whist_sim.engine.record import record_from_trace, replay_game, replay_record
from whist_sim.interfaces.cli import main

#: characters that break naive writers: PBN's own syntax, line breaks Python's splitlines
#: honours, control and format characters, a lone surrogate, letters beyond ASCII
HOSTILE = list('"\\\n\r\t]%;{}[#:,= ') + ["\x00", "\x7f", "\x85", "\x0b", "\x0c", "\x1c",
                                           "\u2028", "\u2029", "\u200b", "\ud800", "é", "€",
                                           "😀", "\ufeff"]
TEXT = st.one_of(
    st.just("#"), st.just(""),
    st.text(st.one_of(st.sampled_from(HOSTILE), st.characters()), max_size=12),
)
QUICK = settings(max_examples=40, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

VARIANTS = [Rules(), Rules(players=3, three_player_deck="one_random"),
            Rules(after_third_frisch="redeal", zero_over=30)]


@cache
def base_records() -> tuple[dict, ...]:
    """Whole deal records of three rule variants (full records, as `deal --json` writes)."""
    out = []
    for rules in VARIANTS:
        for d in range(2):
            t = play_deal(7, d, rules, dealer=d % rules.players,
                          policies=["heuristic"] * rules.players)
            out.append(record_from_trace(t))
    return tuple(out)


@cache
def base_game() -> dict:
    from whist_sim.runs.game import game_record, play_game

    return game_record(play_game(2, Rules(target=80), ["heuristic", "hcp", "cautious", "random"]))


@st.composite
def deal_records(draw) -> dict:
    """A legal deal record: a whole deal or a record that stops early, with every optional and
    informative field present, absent or null, the free text hostile."""
    rec = json.loads(json.dumps(draw(st.sampled_from(base_records()))))
    stop = draw(st.sampled_from(["whole", "calls", "contracts", "play"]))
    if stop == "calls":
        rec["calls"] = rec["calls"][: draw(st.integers(0, 3))]
        rec["frisch"], rec["contracts"], rec["play"] = [], [], []
    elif stop == "contracts":
        rec["play"] = []
        if draw(st.booleans()):
            rec["contracts"] = []
    elif stop == "play":
        rec["play"] = rec["play"][: draw(st.integers(0, len(rec["play"])))]
    rec["revokes"] = draw(st.sampled_from(["reject", "penalize", None]))
    for key in ("frisch", "contracts", "play", "revokes"):
        if not rec[key] and draw(st.booleans()):
            rec[key] = draw(st.sampled_from([None, "absent"]))
            if rec[key] == "absent":
                del rec[key]
    if draw(st.booleans()):  # spelt as a person types it
        rec["calls"] = [c.lower() for c in rec["calls"]]
        rec["play"] = [c.lower() for c in rec.get("play") or []]
        rec["hands"] = [h.lower() for h in rec["hands"]]
        if "removed_card" in rec:
            rec["removed_card"] = rec["removed_card"].lower()
    rec["comment"] = draw(TEXT)
    rec["policies"] = draw(st.lists(TEXT, max_size=4))
    rec["seed"] = draw(st.integers(0, 2**80))
    rec["deal"] = draw(st.integers(0, 2**40))
    rec["redeals"] = draw(st.integers(0, 3))
    for key in ("comment", "policies", "seed", "deal", "redeals"):
        if draw(st.integers(0, 4)) == 0:
            del rec[key]
    if rec["rules"]["players"] == 4 and draw(st.booleans()):
        rec["rules"] = draw(st.sampled_from([None, {}, {"players": 4}, "absent"]))
        if rec["rules"] == "absent":
            del rec["rules"]
    return rec


def through_pbn(record: dict) -> tuple[str, list[dict]]:
    text = format_pbn([record_board(record)])
    text.encode("utf-8")  # a file can hold it: no lone surrogate left in the text
    return text, pbn_records(text)


@QUICK
@given(deal_records())
def test_a_deal_record_reads_back_equal_through_pbn(record):
    assert replay_record(record).ok
    text, (back,) = through_pbn(record)
    assert back == canonical_record(record)
    assert replay_record(back).to_json_dict() == replay_record(record).to_json_dict()
    # every tag pair is one line: a line break in a value cannot start a new line of the file
    for line in text.splitlines():
        assert not line or line.startswith(("[", "%")), line


@QUICK
@given(comment=TEXT, seats=st.lists(TEXT, min_size=4, max_size=4), seed=st.integers(0, 2**70),
       deal_comment=TEXT)
def test_a_game_record_reads_back_equal_through_pbn(comment, seats, seed, deal_comment):
    game = json.loads(json.dumps(base_game()))
    game["comment"] = comment
    game["game"]["seats"] = seats
    game["game"]["seed"] = seed
    game["deals"][-1]["comment"] = deal_comment
    assert replay_game(game).ok
    (back,) = pbn_records(format_pbn(game_boards(game)))
    assert back == canonical_record(game)
    assert replay_game(back).to_json_dict() == replay_game(game).to_json_dict()


@settings(max_examples=300, deadline=None)
@given(st.text(st.one_of(st.sampled_from(HOSTILE), st.characters(codec=None)), max_size=30))
def test_a_tag_value_is_written_on_one_printable_line_and_read_back_exactly(text):
    written = escape_value(text)
    assert written.isprintable() and '"' not in written.replace('\\"', "")
    assert unescape_value(written) == text
    (board,) = parse_pbn(format_pbn([{"Board": "1", "Deal": "N:- - - -", "Note": text}]))
    assert board.tags["Note"] == text


def test_a_comment_with_a_line_break_round_trips_on_the_command_line(tmp_path):
    rec = dict(base_records()[0], comment='two\nlines; "quoted" {not a comment} ] 100% \\ é')
    src, out = tmp_path / "deal.json", tmp_path / "deal.pbn"
    src.write_text(json.dumps(rec))
    r = CliRunner().invoke(main, ["export", str(src), "--pbn", str(out)])
    assert r.exit_code == 0, r.output
    from_json = json.loads(CliRunner().invoke(main, ["replay", "--json", str(src)]).output)
    r = CliRunner().invoke(main, ["replay", "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == {**from_json, "file": str(out)}
    (back,) = pbn_records(out.read_text(encoding="utf-8"))
    assert back["comment"] == rec["comment"]


def test_endplay_reads_our_deal_and_no_bridge_contract_and_writes_our_tags_back():
    rec = dict(base_records()[0], comment='a "quoted"\nline; {x}', policies=["a,b", ""])
    text = format_pbn([record_board(rec)])
    (theirs,) = endplay_pbn.loads(text)
    # the deal endplay reads is ours, seat for seat (N, E, S, W = whist-sim 0..3)
    assert parse_pbn_deal(theirs.deal.to_pbn()) == [parse_hand(h) for h in rec["hands"]]
    # and it reads no bridge contract, result, auction or play from our whist tags
    assert theirs.contract is None and len(theirs.auction) == 0 and len(theirs.play) == 0
    assert theirs.info["WhistContract"] == record_board(rec).tags["WhistContract"]
    # written back by endplay, the file keeps our tags: the same record reads back
    again = endplay_pbn.dumps([theirs])
    assert "[WhistAuction " in again and "[WhistPlay " in again
    (back,) = pbn_records(again)
    assert back == canonical_record(rec)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_a_record_written_back_by_endplay_still_replays(rules):
    rec = next(r for r in base_records() if Rules.from_dict(r["rules"]) == rules)
    again = endplay_pbn.dumps(endplay_pbn.loads(format_pbn([record_board(rec)])))
    (back,) = pbn_records(again)
    assert back == canonical_record(rec)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(comment=TEXT, policies=st.lists(TEXT, max_size=4))
def test_hostile_text_survives_endplay_writing_the_file_back(comment, policies):
    rec = dict(base_records()[0], comment=comment, policies=policies)
    again = endplay_pbn.dumps(endplay_pbn.loads(format_pbn([record_board(rec)])))
    (back,) = pbn_records(again)
    assert back == canonical_record(rec)
