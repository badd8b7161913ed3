"""scripts/tournament.py: the field table carries its check, each strategy's gain over the
heuristic beside the same difference under search and its verdict (constructed rows, no run)."""

from __future__ import annotations

import pytest


@pytest.fixture
def script(load_script):
    """The script as a module (its sibling ``report_default`` importable)."""
    return load_script("tournament", "tournament_script")


def _row(name, mean, check=None):
    return {"name": name, "deals": 1000, "mean": mean, "ci": [mean - 0.1, mean + 0.1],
            "gain": {"diff": mean - 11.0, "ci": [mean - 11.2, mean - 10.8], "p": 0.01},
            "hit_rate": 0.5, "zero_rate": 0.1, "zero_success": 0.6, "declarer_rate": 0.25,
            "mean_level": 5.7, "plays_per_s": 1e5, "check": check}


def _check(word, detectable=None):
    """A field row's check: the gain over heuristic under the search, -7 points per deal."""
    return {"play": "rollout:n=16:base=learned", "deals": 150, "diff": -7.0, "ci": [-9.0, -5.0],
            "p": 1e-9, "verdict": word, "verdict_why": "", "detectable": detectable}


def test_every_field_row_carries_its_check_or_says_why_not(script):
    rows = [_row("heuristic", 11.0), _row("cautious", 12.1, _check("contradicted")),
            _row("hcp", 11.3, _check("not contradicted", 3.4)), _row("montecarlo", 11.5)]
    table = script.field_table(rows)
    assert "check: verdict" in table.splitlines()[0]
    assert "| contradicted |" in table and "not contradicted (could see 3.4)" in table
    assert "| \u22127.00 | \u22129.00 to \u22125.00 |" in table  # real minus signs
    assert "not checked (a search inside a search)" in table and "| baseline |" in table
    words = script._field_check_words(rows)
    assert "150 deals" in words and "montecarlo is not checked" in words
    assert "stronger" not in words


def test_the_report_opens_with_a_summary_and_ends_with_a_glossary(script):
    rows = [_row("heuristic", 11.0), _row("cautious", 12.1, _check("contradicted")),
            _row("random", 1.0)]
    rr = {"strategies": [{"name": "heuristic/learned", "mean": 11.8},
                         {"name": "cautious/learned", "mean": 10.9}],
          "seatings": [[0, 1]] * 24, "deals": 1000,
          "check": {"verdict": "contradicted", "verdict_why": "the check reverses 1 of the 1 "
                    "pairs", "strategies": [1]}}
    words = " ".join(script.summary_sentences(rows, rr, {"diff": 0.4, "ci": [0.3, 0.5]}))
    assert words.startswith("Against three heuristic bidders, `cautious` gains most")
    assert "+1.1 (+0.9 to +1.3) points per deal" in words
    assert "`cautious` gains \u22127.0 (\u22129.0 to \u22125.0) points per deal" in words
    assert "its gain is contradicted there" in words
    assert "Clearly worse than the heuristic: `random`." in words
    assert "that ranking is contradicted" in words and "+0.4 (+0.3 to +0.5) points" in words
    g = script.glossary(rr)
    assert g.startswith("## Terms used in this report")
    for term in ("field", "gain over heuristic", "round robin", "check", "contradicted"):
        assert f"| {term} |" in g


def test_the_play_model_table_carries_the_fields_check(script):
    rows = [_row("heuristic", 11.0), _row("cautious", 12.1, _check("contradicted")),
            _row("hcp", 11.3)]
    old = [_row("heuristic", 10.0), _row("cautious", 14.0), _row("hcp", 10.5)]
    text = script.play_model_section(rows, old, 1000)
    header = next(line for line in text.splitlines() if line.startswith("| rank"))
    assert "check: gain over heuristic (search)" in header
    # cautious gains +3.0 under the old play; the search puts it 7 points behind: reversed
    cautious = next(line for line in text.splitlines() if "`cautious`" in line)
    assert "-7.00 [-9.00, -5.00]" in cautious and cautious.rstrip(" |").endswith("contradicted")
    hcp = next(line for line in text.splitlines() if "`hcp`" in line)
    assert "not checked" in hcp


def test_the_field_check_measures_the_gain_over_heuristic_under_the_search(script, tmp_path,
                                                                           monkeypatch):
    # the gain under the default play is +1.1; under the search the paired gain of the same
    # seat on the same deals is -7: the check contradicts it, and its size follows the spread
    rows = [_row("heuristic", 11.0), _row("cautious", 12.1), _row("montecarlo", 11.5)]
    for r in rows:
        r["gain"]["sd"] = 10.0
    runs = []
    monkeypatch.setattr(script, "_run", lambda work, name, strategies, deals, *a, **k:
                        runs.append((name, strategies[0], deals, k.get("play"))))
    monkeypatch.setattr(script, "_paired_vs_baseline", lambda work, name, base, deals: {
        "diff": -7.0, "ci": [-9.0, -5.0], "p": 1e-9, "deals": deals, "sd": 10.0})
    script.field_checks(tmp_path, rows, 1_000_000, "rollout:n=16:base=learned", 1, False)
    m = script.field_check_deals(rows, 1_000_000)
    assert m == 197  # ((1.96 + 0.84) x 10 / 2)^2, rounded up
    assert runs == [("field-heuristic-check", "heuristic", m, "rollout:n=16:base=learned"),
                    ("field-cautious-check", "cautious", m, "rollout:n=16:base=learned")]
    c = rows[1]["check"]
    assert c["verdict"] == "contradicted" and c["diff"] == -7.0 and c["deals"] == m
    assert rows[0]["check"]["baseline"] and rows[2]["check"] is None
    assert "| contradicted |" in script.field_table(rows)
