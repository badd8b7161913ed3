"""Property tests of the reference engine: random legal deals under random rule options.

Invariants from RULES.md: each card is played once (§5), the tricks sum to the trick count
(§5, §8), contracts never sum to it (§4), the declarer bids at least his level (§4), Frisch
conserves the cards (§3), scores follow the formula (§6), and records round-trip (§10).
"""

import json

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from whist_sim import Rules, score
from whist_sim.core.rng import DealRng
from whist_sim.engine import DealState, IllegalAction, play_deal
from whist_sim.engine.record import record_from_trace, replay_record
from whist_sim.interfaces.cli import main

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def rules_options(draw):
    players = draw(st.sampled_from([3, 4]))
    dirs = ["left", "right"] + (["across"] if players == 4 else [])
    return Rules(
        players=players,
        three_player_deck=draw(st.sampled_from(["no_suit", "no_low", "one_random"])),
        pass_is_final=draw(st.booleans()),
        frisch=draw(st.booleans()),
        frisch_raises_minimum=draw(st.booleans()),
        frisch_directions=tuple(draw(st.sampled_from(dirs)) for _ in range(3)),
        made_bonus=draw(st.integers(0, 20)),
        miss_per_trick=draw(st.sampled_from([5, 10])),
        zero_over=draw(st.sampled_from([25, 30])),
        revoke_penalty=draw(st.integers(0, 200)),
    )


policies = st.sampled_from(["random", "heuristic"])


def check_trace(t):
    r = t.rules
    n, p = r.n_tricks, r.players
    # the deal (ENGINE §3) and Frisch conservation (§3)
    assert len(t.dealt) == p and all(h.bit_count() == n for h in t.dealt)
    union = 0
    for h in t.dealt:
        assert union & h == 0
        union |= h
    assert union | (0 if t.removed_card < 0 else 1 << t.removed_card) == r.deck_mask
    assert sum(t.hands) == sum(t.dealt) and all(h.bit_count() == n for h in t.hands)
    assert len(t.frisch) <= 3 and (r.frisch or not t.frisch)
    for f in t.frisch:
        assert all(m.bit_count() == 3 for m in f)
    if t.thrown_in:
        assert t.scores == (0,) * p and t.plays == () and t.declarer == -1
        assert t.calls[-p:] == (0,) * p
        return
    # §4 contracts
    assert sum(t.contracts) != n
    assert t.contracts[t.declarer] >= t.level >= 5
    assert t.over == (sum(t.contracts) > n)
    # §5 play
    assert len(t.plays) == p * n and sum(1 << c for c in t.plays) == sum(t.hands)
    assert sum(t.tricks) == n
    # §6 scoring
    for s in range(p):
        assert t.scores[s] == score(t.contracts[s], t.tricks[s], t.over, r)


@SETTINGS
@given(rules=rules_options(), seed=st.integers(0, 2**64 - 1), deal=st.integers(0, 10**6),
       pol=st.lists(policies, min_size=4, max_size=4))
def test_simulated_deals_keep_the_invariants(rules, seed, deal, pol):
    t = play_deal(seed, deal, rules, policies=pol[: rules.players])
    assert t.dealer == deal % rules.players
    check_trace(t)
    # reproducible: deal i depends only on (seed, i)
    assert play_deal(seed, deal, rules, policies=pol[: rules.players]) == t
    # §10: the record of the deal replays to the same result
    res = replay_record(json.loads(json.dumps(record_from_trace(t))))
    assert res.ok and res.finished
    assert res.scores == t.scores and res.thrown_in == t.thrown_in
    if not t.thrown_in:
        assert res.tricks == t.tricks and res.declarer == t.declarer


@SETTINGS
@given(rules=rules_options(), seed=st.integers(0, 2**32), data=st.data())
def test_any_legal_walk_reaches_a_consistent_end(rules, seed, data):
    """Walk a deal choosing any legal action (not only the policies' choices); at each step an
    action outside legal_actions() is refused and leaves the state unchanged."""
    s = DealState.deal(rules, DealRng(seed, 0), dealer=seed % rules.players)
    steps = 0
    while not s.is_over:
        legal = s.legal_actions()
        assert legal == sorted(legal) or s.phase == "frisch"
        if s.phase in ("auction", "contracts", "play") and steps % 7 == 0:
            universe = {"auction": range(0, 75), "contracts": range(0, 20),
                        "play": range(52)}[s.phase]
            illegal = [a for a in universe if a not in legal]
            if illegal:
                bad = data.draw(st.sampled_from(illegal), label="illegal")
                before = (s.phase, s.to_move, list(s.calls), s.hands, s.contracts)
                try:
                    s.apply(bad)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{s.phase}: illegal {bad} accepted")
                assert before == (s.phase, s.to_move, list(s.calls), s.hands, s.contracts)
        if s.phase == "auction" and data.draw(st.integers(0, 3), label="pass bias") > 0:
            s.apply(0)  # mostly pass, so that Frisches and throw-ins happen
        else:
            s.apply(data.draw(st.sampled_from(legal), label=s.phase))
        steps += 1
    p, n = rules.players, rules.n_tricks
    assert sum(s.hands) == 0 or s.phase == "thrown_in"
    if s.phase == "scored":
        assert sum(s.tricks_taken) == n and len(set(s.plays)) == p * n
        assert sum(s.contracts) != n
        assert s.contracts[s.declarer] >= s.level
        for seat in range(p):
            assert s.scores[seat] == score(s.contracts[seat], s.tricks_taken[seat], s.over, rules)
    else:
        assert s.scores == (0,) * p


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), deal=st.integers(0, 1000), players=st.sampled_from([3, 4]),
       policy=policies)
def test_deal_json_replays_through_the_command_line(tmp_path_factory, seed, deal, players,
                                                    policy):
    # §10: `whist-sim deal --json` prints a record that `whist-sim replay` accepts
    runner = CliRunner()
    out = runner.invoke(main, ["deal", "--seed", str(seed), "--deal", str(deal), "--json",
                               "--players", str(players), "--policy", policy])
    assert out.exit_code == 0, out.output
    path = tmp_path_factory.mktemp("rec") / "deal.json"
    path.write_text(out.output, encoding="utf-8")
    rep = runner.invoke(main, ["replay", "--json", str(path)])
    assert rep.exit_code == 0, rep.output
    got = json.loads(rep.stdout)
    t = play_deal(seed, deal, Rules(players=players), policies=(policy,) * players)
    assert got["ok"] and got["scores"] == list(t.scores)


def test_state_views_are_read_only():
    # the state changes only through apply(): its views cannot be assigned or mutated
    s = DealState.deal(Rules(), DealRng(1, 0), dealer=0)
    for name in ("phase", "to_move", "calls", "declarer", "tricks_taken", "scores", "plays"):
        try:
            setattr(s, name, None)
        except AttributeError:
            continue
        raise AssertionError(f"{name} is assignable")
    assert isinstance(s.calls, tuple) and isinstance(s.tricks_taken, tuple)
    clone = s.clone()
    clone.apply(0)
    assert s.calls == () and clone.calls == (0,)
