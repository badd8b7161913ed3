"""scripts/play_ladder.py: the ladder of play policies, run tiny.

Three duplicate deals per match and a short timing per policy: the run checks the machinery (the
matches, the steps, the checks of the issue, every output file), not the strength of any policy.
"""

from __future__ import annotations

import json

import pytest


@pytest.fixture
def ladder(load_script):
    """The script as a module (its sibling ``report_default`` importable)."""
    return load_script("play_ladder")


def test_sizes_meet_the_issue_and_scale(ladder):
    full = ladder.match_sizes()
    assert full["heuristic-expert"] == 20_000 and full["expert-rollout16"] == 2_000
    assert ladder.match_sizes(scale=0.01)["heuristic-expert"] == 200
    assert set(ladder.match_sizes(scale=1e-9).values()) == {2}
    assert set(ladder.match_sizes(deals=5).values()) == {5}
    with pytest.raises(ValueError, match="--deals"):
        ladder.match_sizes(deals=1)
    with pytest.raises(ValueError, match="--scale"):
        ladder.match_sizes(scale=0)
    # every play policy of a match with the ladder's bidding is a rung (timed on its own), as
    # a policy, however it is spelt (rollout:n=16:infer=1 is rollout:n=16, its default)
    from whist_sim.compiled.strategies.spec import parse_play

    def policy(text):  # the policy and every parameter's value, defaults filled in
        spec = parse_play(text)
        return spec.name, tuple(sorted({**spec.info.defaults, **dict(spec.params)}.items()))

    plays = {policy(p) for m in ladder.MATCHES if m.bid == ladder.BID
             for p in m.plays if "/" not in p}
    assert plays == {policy(p) for p in ladder.LADDER}


def test_bad_options_name_the_option(ladder, capsys):
    with pytest.raises(SystemExit):
        ladder.main(["--deals", "1"])
    assert "--deals" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        ladder.main(["--scale", "2", "--deals", "3"])
    assert "not allowed with" in capsys.readouterr().err


def test_tiny_ladder_writes_every_output(tmp_path, ladder, capsys):
    rc = ladder.main(["--out", str(tmp_path), "--deals", "3", "--speed-seconds", "0.01",
                      "--threads", "1", "--no-progress"])
    assert rc == 0, capsys.readouterr().err
    dest = tmp_path / "play"
    names = {"README.md", "ladder.json", "matches.csv", "entrants.csv", "speed.csv",
             "ladder.png"}
    assert {p.name for p in dest.iterdir()} == names
    data = json.loads((dest / "ladder.json").read_text())
    assert data["bid"] == "heuristic" and data["seed"] == 2026 and data["version"]
    assert data["sizes"] == {m.name: 3 for m in ladder.MATCHES}
    assert set(data["speed"]) == set(ladder.LADDER) and all(r > 0 for r in data["speed"].values())
    rollouts = data["matches"]["rollout-n"]
    assert [e["name"] for e in rollouts["strategies"]] == ["rollout:n=8", "rollout:n=16",
                                                           "rollout:n=64"]
    assert all(e["strategy"] == "heuristic" for e in rollouts["strategies"])
    assert len(rollouts["seatings"]) == 12 and rollouts["deals"] == 3
    assert [(s["lower"], s["upper"]) for s in data["steps"]] == list(ladder.STEPS)
    # four of the ladder, three of learned (its speed too), the default check's, three of
    # reading the table, and learned within reach of its searcher: defaults and five variants
    assert len(data["checks"]) == 17
    assert data["matches"]["variant-no_low"]["rules"]["players"] == 3
    readme = (dest / "README.md").read_text()
    for text in ("`heuristic`", "seed 2026", "rollout:n=64", "made: declarer",
                 "What the issue asks to show", "3 duplicate deals x 12 seatings",
                 "`learned` → `rollout:n=16:base=learned`", "## Terms used in this report",
                 "## The default play where it was not fitted",
                 "three players, the `one_random` deck",
                 "--players 3 --three-player-deck no_suit"):
        assert text in readme, text
    assert readme.index("**In short.**") < readme.index("| step |")  # the summary comes first
    # a pair per two-entrant match, three for the rollouts, the five of reading the table and
    # one per variant
    assert (dest / "matches.csv").read_text().count("\n") == 1 + 6 + 3 + 5 + 5
    assert (dest / "ladder.png").read_bytes()[:4] == b"\x89PNG"


def test_the_default_check_is_a_rung_with_a_step_from_the_default_play(ladder):
    # derived from the default play, never written out: the search over it
    from whist_sim.analyses.answer_check import DEFAULT_CHECK_PLAY, search_over
    from whist_sim.compiled.strategies.registry import DEFAULT_PLAY

    assert ladder.CHECK == DEFAULT_CHECK_PLAY == search_over(DEFAULT_PLAY)
    assert ladder.CHECK in ladder.LADDER
    match = next(m for m in ladder.MATCHES if m.plays == (DEFAULT_PLAY, ladder.CHECK))
    assert match.bid == ladder.BID
    assert (DEFAULT_PLAY, ladder.CHECK) in ladder.STEPS
    # its size: 5,000 duplicate deals, about a minute and a half on two cores (the comment
    # above MATCHES), so a gain of a point per deal stands outside a +-0.3 interval
    assert ladder.match_sizes()[match.name] == 5_000


def test_outputs_read_the_check_step_from_the_ladder(tmp_path, ladder, capsys):
    """The step the ladder writes is the one answer_check.check_label names a check by: with
    its gain when the ladder shows the check stronger, else as another play."""
    from whist_sim.analyses.answer_check import DEFAULT_CHECK_PLAY, check_label, measured_edge
    from whist_sim.compiled.strategies.registry import DEFAULT_PLAY

    steps = ladder.steps({"learned-check": {"deals": 5000, "pairs": [
        {"a": DEFAULT_CHECK_PLAY, "b": DEFAULT_PLAY, "diff": 0.9, "ci": [0.6, 1.2], "p": 1e-8}]}})
    assert steps == [{"lower": DEFAULT_PLAY, "upper": DEFAULT_CHECK_PLAY,
                      "match": "learned-check", "deals": 5000, "diff": 0.9, "ci": [0.6, 1.2],
                      "p": 1e-8}]
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps({"steps": steps}))
    edge = measured_edge(DEFAULT_CHECK_PLAY, DEFAULT_PLAY, path)
    assert edge is not None and edge.stronger and edge.deals == 5000
    assert "+0.9 points per deal over learned" in check_label(DEFAULT_CHECK_PLAY, DEFAULT_PLAY,
                                                              path)
    # a step whose interval holds 0 does not make the check stronger
    steps[0]["ci"] = [-0.2, 2.0]
    path.write_text(json.dumps({"steps": steps}))
    assert check_label(DEFAULT_CHECK_PLAY, DEFAULT_PLAY, path).startswith("another play")


def test_the_readme_opens_with_a_summary_and_ends_with_its_terms(ladder):
    steps = [{"lower": lo, "upper": up, "match": "m", "deals": 2000, "diff": d, "ci": ci, "p": p}
             for lo, up, d, ci, p in (
                 ("heuristic", "expert", 3.92, [3.79, 4.06], 1e-300),
                 ("expert", "learned", 5.08, [4.94, 5.21], 1e-300),
                 ("learned", ladder.CHECK, 0.9, [0.6, 1.2], 1e-8),
                 ("learned", "rollout:n=16", -2.53, [-2.94, -2.12], 1e-30))]
    data = {"steps": steps, "checks": [{"holds": True}, {"holds": False}],
            "speed": {"heuristic": 1000.0, "learned": 280.0}}
    text = ladder.summary(data)
    assert text.startswith("**In short.**")
    # intervals with real minus signs and "to", the unit on them
    assert "+5.08 (+4.94 to +5.21) points per seat and deal against `expert`" in text
    assert "−2.53 (−2.94 to −2.12) points per seat and deal against `learned`" in text
    assert "the ladder shows it the stronger play" in text
    assert "1 of the 2 target statements below hold" in text
    steps[2]["ci"] = [-0.3, 2.1]  # the check not shown stronger: another play
    assert "outputs call it another play" in ladder.summary(data)
    from whist_sim.analyses.reports.wording import TERMS

    # every term of the glossary is defined, by the shared glossary or the ladder's own
    assert set(ladder.TERMS_USED) <= set(TERMS) | set(ladder.EXTRA_TERMS)


def test_make_results_runs_the_ladder_and_indexes_its_readme(tmp_path, load_script):
    mod = load_script("make_results")
    # results/play/: the ladder, then the ISMCTS yardstick (whose section the ladder keeps)
    play, outside = [a for a in mod.ANALYSES if a.name == "play"]
    assert play.script == "play_ladder.py" and play.report == "README.md"
    assert outside.script == "openspiel_match.py" and outside.report == "openspiel_match.md"
    (tmp_path / "play").mkdir()
    (tmp_path / "play" / "README.md").write_text("# ladder\n")
    index = mod.write_index(tmp_path, mod.ANALYSES).read_text()
    assert "(play/README.md) (`scripts/play_ladder.py`)" in index


def test_the_variants_pit_the_default_play_against_its_searcher_with_the_issues_targets(ladder):
    from whist_sim.compiled.strategies.registry import DEFAULT_PLAY

    variants = {m.name: m for m in ladder.VARIANTS}
    assert set(variants) == {"variant-no_suit", "variant-no_low", "variant-one_random",
                             "variant-cautious", "variant-ltc"}
    for m in variants.values():
        assert m.plays == (DEFAULT_PLAY, ladder.CHECK) and m in ladder.MATCHES
    three = variants["variant-one_random"]
    assert three.within == 1.5 and three.rules_value().players == 3
    assert three.rules_value().three_player_deck == "one_random"
    assert three.rule_flags() == " --players 3 --three-player-deck one_random"
    assert variants["variant-ltc"].bid == "ltc" and variants["variant-ltc"].within == 1.0
    assert variants["variant-ltc"].rules_value() == ladder.Rules()
    assert ladder.WITHIN_DEFAULTS == 0.4


def test_within_holds_when_the_searcher_gains_at_most_the_target(ladder):
    from whist_sim.compiled.strategies.registry import DEFAULT_PLAY

    def match(diff):  # stored as the default play minus its searcher, as a tournament may
        return {"deals": 2000, "pairs": [{"a": DEFAULT_PLAY, "b": ladder.CHECK, "diff": -diff,
                                          "ci": [-diff - 0.5, -diff + 0.5], "p": 0.01}]}

    got = {c["match"]: c for c in ladder.within_checks(
        {"learned-check": match(0.84), "variant-no_suit": match(1.2),
         "variant-cautious": match(1.3)})}
    assert not got["learned-check"]["holds"] and got["learned-check"]["within"] == 0.4
    assert got["variant-no_suit"]["holds"] and got["variant-no_suit"]["diff"] == 1.2
    assert got["variant-no_suit"]["ci"] == [0.7, 1.7]  # the searcher's gain, sign flipped
    assert not got["variant-cautious"]["holds"]  # 1.3 over its 1.0
    assert not got["variant-ltc"]["holds"] and got["variant-ltc"]["deals"] == 0  # not played
    table = ladder.variants_table(list(got.values()))
    assert "three players, the `no_suit` deck" in table and "at most 1.5" in table
