"""``whist-sim tournament`` end to end: JSON summary, files, bad input, and a Dask cluster run."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from whist_sim.analyses.tournament import load_scores
from whist_sim.interfaces.cli import main


def cli(*args: str):
    return CliRunner().invoke(main, ["tournament", *args], catch_exceptions=False)


def test_json_summary_and_files(tmp_path):
    out = tmp_path / "t"
    r = cli("--strategies", "heuristic,heuristic,hcp", "--deals", "40", "--seed", "3", "--json",
            "--out", str(out), "--no-progress", "--rotations", "4", "--sprt", "0,5",
            "--zero-over", "30")
    assert r.exit_code == 0, r.output
    s = json.loads(r.stdout)
    assert s["deals"] <= 40 and s["rules"]["zero_over"] == 30
    names = [e["name"] for e in s["strategies"]]
    assert names == ["heuristic/learned#1", "heuristic/learned#2", "hcp/learned"]
    for e in s["strategies"]:
        assert {"name", "mean", "ci", "hit_rate"} <= set(e)
        assert e["ci"][0] <= e["mean"] <= e["ci"][1]
    for p in s["pairs"]:
        assert {"a", "b", "diff", "ci", "p", "ci_independent", "ci_shrink"} <= set(p)
    assert (s["pairs"][0]["a"], s["pairs"][0]["b"]) == ("heuristic/learned#1",
                                                       "heuristic/learned#2")
    assert json.loads((out / "summary.json").read_text())["deals"] == s["deals"]
    report = (out / "report.md").read_text()
    assert "| rank | strategy |" in report and "tournament.png" in report
    assert "whist-sim tournament --strategies heuristic,heuristic,hcp" in report
    assert (out / "tournament.png").read_bytes()[:4] == b"\x89PNG"
    assert len(load_scores(out)) == s["deals"]


def test_text_output(tmp_path):
    r = cli("--strategies", "random,heuristic", "--deals", "30", "--seed", "3",
            "--out", str(tmp_path / "t"), "--no-progress")
    assert r.exit_code == 0, r.output
    assert "| 1 | `heuristic/learned` |" in r.output and "| 2 | `random/learned` |" in r.output
    assert "30 deals x 6 seatings = 180 plays" in r.output


def test_csv_and_html_outputs_come_from_the_reports_renderer(tmp_path):
    out = tmp_path / "t"
    r = cli("--strategies", "random,heuristic", "--deals", "30", "--seed", "3", "--sprt", "0,5",
            "--out", str(out), "--no-progress", "--format", "md,csv,html")
    assert r.exit_code == 0, r.output
    s = json.loads((out / "summary.json").read_text())
    ranking = pd.read_csv(out / "tables" / "ranking.csv", index_col=0)
    assert list(ranking["strategy"]) == ["heuristic/learned", "random/learned"]
    assert ranking["mean"].iloc[0] == max(e["mean"] for e in s["strategies"])
    pairs = pd.read_csv(out / "tables" / "pairs.csv")
    assert pairs["diff"].iloc[0] == pytest.approx(s["pairs"][0]["diff"])
    assert (out / "tables" / "sprt.csv").is_file()
    page = (out / "report.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "data:image/png;base64," in page
    assert (out / "report.md").is_file() and (out / "tournament.png").is_file()
    only = tmp_path / "csv"
    r = cli("--strategies", "random,heuristic", "--deals", "10", "--seed", "3", "--out",
            str(only), "--no-progress", "--format", "csv")
    assert r.exit_code == 0, r.output
    assert not (only / "report.md").exists() and (only / "tables" / "pairs.csv").is_file()
    bad = CliRunner().invoke(main, ["tournament", "--strategies", "random,heuristic", "--deals",
                                    "5", "--seed", "1", "--out", str(tmp_path / "b"),
                                    "--no-progress", "--format", "pdf"])
    assert bad.exit_code != 0 and "unknown output format 'pdf'" in bad.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["--strategies", "heuristic,bogus"], "unknown strategy 'bogus'"),
        (["--strategies", "heuristic"], "at least two strategies"),
        (["--strategies", "heuristic,,hcp"], "empty name"),
        (["--strategies", "heuristic,hcp", "--rotations", "3"], "rotations must be 'all' or 4"),
        (["--strategies", "heuristic,hcp", "--sprt", "x"], "--sprt takes two numbers"),
        (["--strategies", "heuristic,hcp", "--play", "hcp"], "unknown play policy 'hcp'"),
        (["--strategies", "montecarlo:n=0.5,hcp"], "n must be a whole number"),
        (["--strategies", "heuristic,hcp", "--cluster", "local:1", "--scheduler", "tcp://x:1"],
         "not both"),
        (["--strategies", "heuristic,hcp", "--cluster", "remote"], "cluster spec"),
    ],
)
def test_bad_input_is_a_clear_error(tmp_path, args, words):
    r = CliRunner().invoke(main, ["tournament", "--deals", "5", "--seed", "1", "--out",
                                  str(tmp_path / "t"), "--no-progress", *args])
    assert r.exit_code != 0
    assert words in r.output
    assert "Traceback" not in r.output


def test_non_empty_output_directory_is_refused(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "keep.txt").write_text("mine")
    r = cli("--strategies", "heuristic,hcp", "--deals", "5", "--seed", "1", "--out",
            str(tmp_path / "t"), "--no-progress")
    assert r.exit_code != 0 and "is not empty" in r.output
    assert (tmp_path / "t" / "keep.txt").read_text() == "mine"


@pytest.mark.slow
def test_local_cluster_run_equals_the_thread_run(tmp_path):
    pytest.importorskip("distributed")
    common = ["--strategies", "ltc,random", "--deals", "60", "--seed", "9", "--json",
              "--no-progress", "--chunk-size", "15"]
    a = cli(*common, "--out", str(tmp_path / "a"), "--threads", "1")
    b = cli(*common, "--out", str(tmp_path / "b"), "--cluster", "local:1")
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    sa, sb = json.loads(a.stdout), json.loads(b.stdout)
    assert sb["executor"].startswith("dask-local")
    assert [e["mean"] for e in sa["strategies"]] == [e["mean"] for e in sb["strategies"]]
    assert load_scores(tmp_path / "a").equals(load_scores(tmp_path / "b"))
