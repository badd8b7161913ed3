"""scripts/openspiel_match.py: OpenSpiel's ISMCTS at one seat against whist-sim's play, run tiny.

Two duplicate deals and a handful of simulations: the run checks the machinery (the OpenSpiel
state of each reference-engine deal, the duplicate plays, the intervals, the files and the
section of the play ladder's README), not the strength of either side."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel")


@pytest.fixture
def match(load_script):
    return load_script("openspiel_match")


def test_the_openspiel_state_of_a_reference_deal_is_the_same_deal(match):
    import whist_sim.interfaces.openspiel  # noqa: F401
    from whist_sim import Rules
    from whist_sim.engine import play_deal
    from whist_sim.engine.seats import seat_policy

    for i in range(6):
        t = play_deal(7, i, Rules(), dealer=i % 4,
                      policies=[seat_policy("heuristic", "expert")] * 4)
        from whist_sim.engine.state import DealState

        ds = DealState(Rules(), t.dealer, t.dealt)
        game = pyspiel.load_game("israeli_whist", {"dealer": t.dealer})
        s = match._os_state(game, _replayed(ds, t))
        assert s.deal_state.dealt == t.dealt and s.deal_state.plays == t.plays
        assert s.is_terminal()
        assert s.returns() == [float(x) for x in t.scores]


def _replayed(ds, t):
    """The reference state after every move of trace ``t``."""
    from whist_sim.engine.record import record_from_trace, replay_record

    res = replay_record(record_from_trace(t))
    assert res.ok, res.error
    return res.state


def test_tiny_run_writes_the_report_and_the_ladder_section(match, tmp_path):
    play = tmp_path / "play"
    play.mkdir()
    (play / "README.md").write_text("# The play ladder\n\n## The ladder\n\nx\n\n## The matches\n")
    assert match.main(["--out", str(tmp_path), "--deals", "2", "--simulations", "3",
                       "--no-progress"]) == 0
    s = json.loads((play / "openspiel_match.json").read_text())
    assert s["deals"] == 2 and len(s["rows"]) == 8 and s["ismcts"]["max_simulations"] == 3
    assert {r["seat"] for r in s["rows"]} == {0, 1, 2, 3}
    # the default play at the same seat, on the same cards
    assert all({"ismcts", "expert", "learned", "heuristic"} <= set(r) for r in s["rows"])
    learned = [sum(r["learned"] for r in s["rows"] if r["deal"] == i) / 4 for i in range(2)]
    assert s["points"]["learned"]["mean"] == pytest.approx(sum(learned) / 2, abs=1e-3)
    assert "ismcts_minus_learned" in s and "learned_minus_expert" in s
    md = (play / "openspiel_match.md").read_text()
    assert "3 simulations per card" in md and "2 duplicate deals x 4 seats = 8" in md
    readme = (play / "README.md").read_text()
    assert readme.index(match.SECTION) < readme.index("## The matches")
    assert "ISMCTS, 3 simulations" in readme and "| `learned` (the default play) |" in readme
    assert "| `learned` |" in md and "ISMCTS - `learned`" in md
    # run again: the section is replaced, not repeated
    assert match.main(["--out", str(tmp_path), "--deals", "2", "--simulations", "2",
                       "--no-progress"]) == 0
    readme = (play / "README.md").read_text()
    assert readme.count(match.SECTION) == 1 and "ISMCTS, 2 simulations" in readme


def test_bad_sizes_are_refused(match, capsys):
    assert match.main(["--deals", "1"]) == 2
    assert "Error: --deals must be >= 2" in capsys.readouterr().err


def test_the_same_seed_plays_the_same_match(match):
    """Reproducible: the bot's resampled worlds come from its seeded random state, so two runs
    of one seed play the same cards."""
    one = match.run(2, 4, 5, progress=False)["rows"]
    two = match.run(2, 4, 5, progress=False)["rows"]
    assert one == two


def test_a_match_from_before_learned_played_still_gives_its_section(match):
    """The play ladder rewrites its README with the section of whatever match JSON it finds; one
    written before `learned` played at the seat has no `learned` row, and no error."""
    old = {"ismcts": {"max_simulations": 100, "evaluator": "random rollouts (1 per leaf)"},
           "ismcts_minus_expert": {"mean": -2.66, "ci": [-6.92, 1.61]}, "deals": 40, "seats": 4}
    section = "\n".join(match.outside_section(old))
    assert "| ISMCTS, 100 simulations | -2.66 |" in section and "`learned`" not in section
