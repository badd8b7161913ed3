"""``--rules FILE`` (TOML rule options, flags override, recorded in the manifest) and ``--json`` on
simulate, report and bid-chart."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from whist_sim.core.rules import Rules, RulesError, load_rules_file
from whist_sim.interfaces.cli import main


def _toml(tmp_path, text, name="rules.toml"):
    f = tmp_path / name
    f.write_text(text)
    return f


def test_load_rules_file(tmp_path):
    f = _toml(tmp_path, 'zero_over = 30\nfrisch_directions = ["left", "across", "right"]\n'
                        "pass_is_final = true\n")
    rules = Rules(**load_rules_file(f))
    assert rules.zero_over == 30 and rules.pass_is_final
    assert rules.frisch_directions == ("left", "across", "right")


@pytest.mark.parametrize(
    "text, match",
    [
        ("zero_ovr = 30\n", "rules.toml: unknown rule option 'zero_ovr'"),
        ("players = 5\n", "rules.toml: players must be 3 or 4"),
        ('zero_over = "30"\n', "rules.toml: zero_over must be a whole number"),
        ("frisch = 1\n", "rules.toml: frisch must be true or false"),
        ("frisch_directions = 3\n", "rules.toml: frisch_directions must be three directions"),
        ("zero_over = [\n", "rules.toml: not a valid TOML file"),
        ('players = 3\nfrisch_directions = "left,across,left"\n', "rules.toml: frisch direction"),
    ],
)
def test_bad_rules_files_name_file_and_key(tmp_path, text, match):
    f = _toml(tmp_path, text)
    with pytest.raises(RulesError, match=match):
        load_rules_file(f)
    res = CliRunner().invoke(main, ["deal", "--seed", "1", "--rules", str(f)])
    assert res.exit_code == 2
    (line,) = [ln for ln in res.output.splitlines() if ln.startswith("Error")]
    assert "--rules" in line and "rules.toml" in line


def test_every_rule_command_takes_rules_file():
    for name in ("simulate", "deal", "replay", "advise", "bid-chart", "tournament"):
        res = CliRunner().invoke(main, [name, "--help"])
        assert "--rules FILE" in res.output, name


def test_flags_override_the_file_and_the_manifest_records_it(tmp_path):
    f = _toml(tmp_path, "zero_over = 30\nmade_bonus = 5\n")
    out = tmp_path / "run"
    res = CliRunner().invoke(main, [
        "simulate", "--deals", "20", "--seed", "4", "--out", str(out), "--threads", "1",
        "--no-progress", "--rules", str(f), "--zero-over", "40", "--json",
    ])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)  # --json: one object, nothing else on stdout
    assert summary["command"] == "simulate" and summary["status"] == "complete"
    assert summary["deals_done"] == 20 and summary["rules_file"] == str(f)
    assert summary["rules"]["zero_over"] == 40 and summary["rules"]["made_bonus"] == 5
    from whist_sim.runs.dataset import load_manifest

    manifest = load_manifest(out)
    assert manifest["rules"]["zero_over"] == 40 and manifest["rules"]["made_bonus"] == 5
    assert manifest["sessions"][-1]["rules_file"] == str(f)

    res = CliRunner().invoke(main, ["report", str(out), "--json", "--no-progress",
                                    "--format", "md,csv"])
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["command"] == "report" and rep["deals"] == 20 and rep["players"] == 4
    rows = {r["metric"]: r for r in rep["summary"]}
    assert rows["deals"]["value"] == 20 and rows["deals"]["ci_low"] is None
    assert set(rows["thrown-in deals"]) == {"metric", "value", "ci_low", "ci_high", "n", "unit"}
    assert rep["dd_summary"] is None and any(p.endswith("report.md") for p in rep["written"])


def test_bid_chart_json(tmp_path):
    res = CliRunner().invoke(main, [
        "bid-chart", "--hands", "8", "--deals-per-hand", "4", "--seed", "2", "--threads", "1",
        "--out", str(tmp_path / "chart"), "--no-progress", "--no-parquet", "--json",
        "--zero-over", "30",
    ])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["command"] == "bid-chart" and out["rules"]["zero_over"] == 30
    assert out["hands"] <= 8 and out["deals_per_hand"] == 4
    # the summary is the suit panel's: every hand but those of deals declared at NT (every
    # hand also has its NT-panel row)
    assert sum(r["hands"] for r in out["summary"]) == out["evaluations"] - out["hands"]
    assert {"position", "over", "optimal_bid", "best_ev"} <= set(out["summary"][0])
