"""``whist-sim play`` and the table behind it: a person in one seat, bots in the others.

A person who always does what the hint says plays exactly the deal the engine plays by itself
with that strategy in the seat, so the table is checked against the compiled engine's trace."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from whist_sim import Rules
from whist_sim.compiled.entry.batch import play_traces
from whist_sim.compiled.entry.decide import KernelSeats
from whist_sim.core.cards import card_str, cards_of
from whist_sim.core.rng import DealRng
from whist_sim.engine import DealState, IllegalAction, get_policy, play_deal
from whist_sim.engine.record import replay_record
from whist_sim.engine.state import call_str
from whist_sim.engine.table import PolicySeats, Table, hand_text
from whist_sim.interfaces.cli import main

SEATS = ("heuristic/expert", "hcp", "ltc:margin=1", "random/heuristic")
BIDS = ["heuristic", "hcp", "ltc:margin=1", "random"]
PLAYS = ["expert", "heuristic", "heuristic", "heuristic"]


def kernel_table(rules, seed, deal, human):
    p = rules.players
    rng = DealRng(seed, deal)
    state = DealState.deal(rules, rng, deal % p)
    bots = KernelSeats(rules, BIDS[:p], PLAYS[:p], deal % p, state.dealt, rng.state,
                       state.removed_card, deal)
    return Table(state, human, bots)


def follow_hints(table):
    while not table.over:
        table.run_bots()
        if table.waiting:
            table.move(table.hint().action)


@pytest.mark.parametrize("rules", [Rules(), Rules(bid_order="suit"),
                                   Rules(players=3, three_player_deck="no_suit")], ids=str)
@pytest.mark.parametrize("human", [0, 2])
def test_following_the_hints_plays_the_engines_own_deal(rules, human):
    p = rules.players
    tr = play_traces(21, 0, 4, rules, BIDS[:p], PLAYS[:p])
    for deal in range(4):
        table = kernel_table(rules, 21, deal, human)
        follow_hints(table)
        s = table.state
        assert list(s.calls) == [int(c) for c in tr["calls"][deal, : tr["n_calls"][deal]]]
        assert list(s.plays) == [int(c) for c in tr["plays"][deal, : tr["n_plays"][deal]]]
        assert list(s.scores) == [int(x) for x in tr["scores"][deal]]
        res = replay_record(json.loads(json.dumps(table.record(21, deal))))
        assert res.ok and res.scores == s.scores


def test_searching_bots_play_the_engines_own_deal():
    """Bots that search (``montecarlo`` bidding, ``rollout`` play) reach their searches through
    their loop table and play, move for move, the deal the compiled engine plays."""
    rules = Rules()
    bids = ["heuristic", "montecarlo:n=2", "hcp", "heuristic"]
    plays = ["expert", "rollout:n=2", "heuristic", "rollout:n=2:base=heuristic"]
    tr = play_traces(21, 0, 2, rules, bids, plays)
    for deal in range(2):
        rng = DealRng(21, deal)
        state = DealState.deal(rules, rng, deal % 4)
        bots = KernelSeats(rules, bids, plays, deal % 4, state.dealt, rng.state,
                           state.removed_card, deal)
        table = Table(state, 0, bots)
        follow_hints(table)
        s = table.state
        assert list(s.calls) == [int(c) for c in tr["calls"][deal, : tr["n_calls"][deal]]]
        assert list(s.plays) == [int(c) for c in tr["plays"][deal, : tr["n_plays"][deal]]]
        assert list(s.scores) == [int(x) for x in tr["scores"][deal]]


def test_reference_bots_at_a_table_play_the_reference_deal():
    rules = Rules()
    rng = DealRng(5, 3)
    state = DealState.deal(rules, rng, 3)
    h = get_policy("heuristic")
    table = Table(state, 1, PolicySeats(state, [h] * 4, rng))
    follow_hints(table)
    ref = play_deal(5, 3, rules, dealer=3, policies=["heuristic"] * 4)
    assert state.calls == ref.calls and state.plays == ref.plays and state.scores == ref.scores


def test_illegal_moves_are_refused_with_the_reason_and_change_nothing():
    table = kernel_table(Rules(), 8, 0, 0)
    table.run_bots()
    assert table.waiting and table.state.phase == "auction"
    before = table.state.calls
    with pytest.raises(IllegalAction, match="below the minimum level 5"):
        table.move("4S")
    with pytest.raises(Exception, match="expected 'pass' or level then strain"):
        table.move("six spades")
    assert table.state.calls == before
    # play up to a card decision of the person, then try a card that is not in the hand
    while not table.over and not (table.waiting and table.state.phase == "play"):
        table.run_bots()
        if table.waiting and table.state.phase != "play":
            table.move(table.hint().action)
    if not table.over:
        other = next(c for c in range(52) if not table.state.hand(0) >> c & 1)
        with pytest.raises(IllegalAction, match="not in seat 0's hand"):
            table.move(card_str(other))


def test_hints_say_why_and_use_no_random_draws():
    table = kernel_table(Rules(), 3, 1, 3)
    table.run_bots()
    rng_before = table.bots.rng_state
    hint = table.hint()
    assert table.bots.rng_state == rng_before and hint.why
    assert any("estimate" in w for w in hint.why)
    assert "♠" in hand_text(table.state.hand(3))
    with pytest.raises(IllegalAction, match="nothing for you to decide"):
        Table(table.state, 0, table.bots).hint()  # seat 3 is to move, not seat 0


def human_inputs(rules, seed, deal, human):
    """The person's moves of the deal the engine plays with the seats' own strategies."""
    table = kernel_table(rules, seed, deal, human)
    moves = []
    while not table.over:
        table.run_bots()
        if table.waiting:
            h = table.hint()
            if table.state.phase == "auction":
                moves.append(call_str(h.action))
            elif table.state.phase == "frisch":
                moves.append(" ".join(card_str(c) for c in cards_of(h.action)))
            elif table.state.phase == "contracts":
                moves.append(str(h.action))
            else:
                moves.append(card_str(h.action))
            table.move(h.action)
    return moves, table.state


def test_the_play_command_is_driven_through_stdin(tmp_path):
    rules = Rules()
    moves, final = human_inputs(rules, 4, 2, 1)
    # junk between the moves: refused or answered, never a move
    lines = ["help", "hint", "history", "legal", "hand", "nonsense", "99"]
    script = lines + [m for move in moves for m in (move, "history")]
    path = tmp_path / "deal.json"
    out = CliRunner().invoke(main, [
        "play", "--seat", "1", "--seats", ",".join(SEATS[:2] + ("ltc:margin=1",
                                                                 "random/heuristic")),
        "--seed", "4", "--deal", "2", "--record", str(path)], input="\n".join(script) + "\n")
    assert out.exit_code == 0, out.output
    assert "refused:" in out.output and "hint:" in out.output
    rec = json.loads(path.read_text())
    assert rec["policies"][1] == "you"
    res = replay_record(rec)
    assert res.ok and res.scores == final.scores
    rep = CliRunner().invoke(main, ["replay", str(path)])
    assert rep.exit_code == 0


def test_the_play_command_refuses_bad_options_and_stops_at_end_of_input():
    runner = CliRunner()
    bad = runner.invoke(main, ["play", "--seat", "5", "--seats", "heuristic,hcp,ltc,cautious"])
    assert bad.exit_code == 2 and "--seat" in bad.output
    bad = runner.invoke(main, ["play", "--seat", "0", "--seats", "heuristic,hcp"])
    assert bad.exit_code == 2 and "--seats" in bad.output
    ended = runner.invoke(main, ["play", "--seat", "0", "--seats", "heuristic,hcp,ltc,cautious"],
                          input="")
    assert ended.exit_code == 1 and "input ended" in ended.output


def test_searching_bots_hold_the_loop_table_of_their_searches():
    """Bots that search (``montecarlo`` bidding, ``rollout`` play) reach their search and play
    its rollouts in the loop through a loop table, as the shared loop does, so the table's bots
    hold one in ``st[S_LOOP_TABLE]`` with the searches they seat; bots that do not search need
    none."""
    import ctypes

    from whist_sim.compiled.entry.deal import base_loop_address
    from whist_sim.compiled.ground.addresses import T_LOOP, TABLE_WORDS
    from whist_sim.compiled.ground.layout import S_LOOP_TABLE
    from whist_sim.core.registry import search_words

    T_ROLLOUT, T_MONTECARLO = search_words()["rollout"], search_words()["montecarlo"]

    def words(bots):
        return list((ctypes.c_int64 * TABLE_WORDS).from_address(int(bots.st[S_LOOP_TABLE])))

    rules = Rules()
    rng = DealRng(21, 0)
    state = DealState.deal(rules, rng, 0)
    bots = KernelSeats(rules, BIDS, PLAYS, 0, state.dealt, rng.state, state.removed_card, 0)
    assert bots.st[S_LOOP_TABLE] == 0
    bots = KernelSeats(rules, BIDS, ["rollout:n=4"] + PLAYS[1:], 0, state.dealt, rng.state,
                       state.removed_card, 0)
    table = words(bots)
    assert table[T_LOOP] == base_loop_address() and table[T_ROLLOUT] != 0
    assert table[T_MONTECARLO] == 0
    bots = KernelSeats(rules, ["montecarlo:n=4"] + BIDS[1:], PLAYS, 0, state.dealt, rng.state,
                       state.removed_card, 0)
    table = words(bots)
    assert table[T_MONTECARLO] != 0 and table[T_ROLLOUT] == 0
