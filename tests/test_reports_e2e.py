"""END-TO-END: reports of a tiny real simulation (whist_sim.runs.simulate, compiled heuristic
engine).

Unlike tests/test_reports.py (hand-worked synthetic data), these run the real runner on a few
thousand deals and check the streamed report against the in-memory one, rule invariants visible in
the tables, the `whist-sim report` command and the scripts behind `make run` / `make results`.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import whist_sim
from whist_sim.analyses import reports as R
from whist_sim.analyses.answer_check import DEFAULT_CHECK_PLAY
from whist_sim.core.scoring import score
from whist_sim.interfaces.cli import main as cli
from whist_sim.runs.dataset import load_manifest
from whist_sim.runs.simulate import simulate

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent
DEALS, CHUNK = 3000, 1000


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run") / "data"
    simulate(out, deals=DEALS, seed=11, chunk_size=CHUNK, threads=1, progress=False,
             play="heuristic")
    return out


def test_streamed_tally_equals_in_memory(run_dir):
    rows = []
    t = R.tally_dataset(run_dir, on_chunk=rows.append)
    assert rows == [CHUNK] * (DEALS // CHUNK)  # one chunk file at a time
    assert t == R.Tally.from_frame(whist_sim.load(run_dir))
    assert t.n_deals == DEALS and t.policies == ("heuristic",) * 4
    df = whist_sim.load(run_dir)
    pd.testing.assert_frame_equal(R.contract_success(df, "trump"), R.contract_success(t, "trump"))


def test_real_run_invariants(run_dir):
    t = R.tally_dataset(run_dir)
    played = t.n_played
    by_pos = R.contract_success(t, "position")
    assert by_pos["n"].tolist() == [played] * 4
    # RULES §4: the contracts never sum to 13, so at least one player misses in every deal
    assert 13 not in R.bid_sum_distribution(t).index
    misses = R.misses_per_deal(t)
    assert misses.xs(0, level="missed")["n"].sum() == 0
    made = int(R.contract_success(t, "over")["made"].sum())
    dist = misses.reset_index()
    assert made == int(((4 - dist["missed"]) * dist["n"]).sum())
    # RULES §4: the declarer's contract is at least his level (>= 5), so he never bids zero
    assert 0 not in R.zero_bids(t, "position").index
    decl = R.contract_success(t, ["role", "contract"]).xs("declarer", level="role")
    assert decl.index.min() >= 5
    # RULES §3: only a deal with three Frisches is thrown in
    fr = R.frisch_distribution(t)
    assert fr.loc[[0, 1, 2], "thrown_in"].sum() == 0
    assert fr["n"].sum() == DEALS
    # RULES §6: every stored score is the rule book's score of its contract and tricks
    cube = t.player_counts
    expect = [score(c, k, bool(o)) for c, k, o in zip(cube["contract"], cube["tricks"],
                                                       cube["over"], strict=True)]
    assert cube["score"].tolist() == expect
    # tricks add up to 13 per played deal: the heat map's mean tricks per deal
    heat = R.contract_vs_tricks(t)
    assert int((heat.to_numpy() * np.arange(14)).sum()) == 13 * played


def test_report_command(run_dir, tmp_path):
    out = tmp_path / "rep"
    res = CliRunner().invoke(
        cli, ["report", str(run_dir), "--out", str(out), "--format", "md,csv,png,html",
              "--no-progress", "--dpi", "50"]
    )
    assert res.exit_code == 0, res.output
    assert "declarer makes contract" in res.output
    for name in ("report.md", "report.html", "charts/contract_vs_tricks.png",
                 "tables/summary.csv"):
        assert (out / name).is_file(), name
    md = (out / "report.md").read_text()
    assert "- **seed**: 11" in md and "heuristic" in md


def test_report_command_errors(tmp_path):
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "missing")])
    assert res.exit_code != 0 and "no such directory" in res.output
    res = CliRunner().invoke(cli, ["report", str(tmp_path), "--format", "pdf"])
    assert res.exit_code != 0 and "unknown report format 'pdf'" in res.output
    assert "Traceback" not in res.output


def _script(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT)


def test_run_default_script_reuses_a_complete_run(tmp_path):
    data, out = tmp_path / "data", tmp_path / "results"
    base = ["scripts/run_default.py", "--data", str(data), "--out", str(out), "--threads", "1",
            "--no-progress"]
    args = [*base, "--deals", "1500", "--check-deals", "60"]  # a small check: it searches
    first = _script(*args)
    assert first.returncode == 0, first.stderr
    md = (out / "default" / "report.md").read_text()
    assert "- **seed**: 2026" in md and "--deals 1500" in md
    # the default play, learned, beside a companion run of the same deals under heuristic play
    assert "heuristic/learned" in md and "## Play model" in md
    assert "| declarer makes contract |" in md
    assert (out / "default" / "tables" / "play_comparison.csv").is_file()
    companion = load_manifest(tmp_path / "default_heuristic")
    assert companion["play"] == ["heuristic"] * 4 and companion["seed"] == 2026
    assert (out / "default" / "charts" / "bid_sum.png").is_file()
    # zero against the best non-zero bid on the same hands and deals, beside the
    # strategy's own zero choices (labelled as such)
    assert "on the same hands and deals (paired)" in md and "as the strategy chose them" in md
    assert (out / "default" / "tables" / "zero_value_paired.csv").is_file()
    # checked against search: the first 60 deals (--check-deals) under the default check, the
    # search over the default play (the subsample rule itself: tests/test_check.py)
    assert "## Checked against search" in md and "with every seat searching" in md
    # a card player's report: a summary in sentences first, seats and positions by name, the
    # rules in words, a glossary of its terms at the end, the zero chart paired
    assert md.index("**In short.**") < md.index("| ")
    assert "Declarers make their contract" in md and "a zero pays" in md
    assert "- **rules**: the rule book's rules, four players" in md
    assert "| dealer |" in md and "| fourth bidder (hooked) |" in md
    assert md.rstrip().endswith("|") and "## Terms used in this report" in md
    assert (out / "default" / "charts" / "zero_value_paired.png").is_file()
    assert not (out / "default" / "charts" / "zero_value_by_hcp.png").exists()
    check = json.loads((out / "default" / "check.json").read_text())["check"]
    assert check["play"] == DEFAULT_CHECK_PLAY and check["deals"] == 60
    assert isinstance(check["holds"], bool)
    assert check["holds"] == all(h["holds"] for h in check["headline"].values())
    checked = load_manifest(tmp_path / "default_check")
    assert checked["play"] == [DEFAULT_CHECK_PLAY] * 4 and checked["deals"] == 60
    assert (out / "default" / "tables" / "zero_success_check.csv").is_file()
    before = (data / "_manifest.parquet").read_bytes()
    second = _script(*args)
    assert second.returncode == 0, second.stderr
    # nothing simulated again: the complete run's manifest is left as it was (no empty session)
    assert (data / "_manifest.parquet").read_bytes() == before
    # a dataset made with other options is refused, naming the difference
    other = _script(*base, "--deals", "2000")
    assert other.returncode == 1 and "deals" in other.stderr and "Traceback" not in other.stderr


def test_run_default_script_without_the_check(tmp_path):
    data, out = tmp_path / "data", tmp_path / "results"
    bad = _script("scripts/run_default.py", "--data", str(data), "--out", str(out), "--check",
                  "hcp")
    assert bad.returncode == 2 and "--check" in bad.stderr and "Traceback" not in bad.stderr
    r = _script("scripts/run_default.py", "--data", str(data), "--out", str(out), "--threads",
                "1", "--no-progress", "--deals", "300", "--no-check")
    assert r.returncode == 0, r.stderr
    md = (out / "default" / "report.md").read_text()
    assert "Checked against search" not in md and not (out / "default" / "check.json").exists()
    assert not (tmp_path / "default_check").exists()


def test_make_results_runs_the_listed_analyses(tmp_path, load_script):
    mod = load_script("make_results")
    fake = tmp_path / "fake_analysis.py"
    fake.write_text(
        "import sys, pathlib\n"
        "out = pathlib.Path(sys.argv[sys.argv.index('--out') + 1]) / 'fake'\n"
        "out.mkdir(parents=True, exist_ok=True)\n"
        "(out / 'report.md').write_text('# fake\\n')\n"
    )
    broken = tmp_path / "broken_analysis.py"
    broken.write_text("raise SystemExit(3)\n")
    mod.ANALYSES = [mod.Analysis("fake", str(fake), "A fake analysis"),
                    mod.Analysis("broken", str(broken), "A broken one")]
    out = tmp_path / "results"
    rc = mod.main(["--data", str(tmp_path / "d"), "--out", str(out), "--no-progress"])
    assert rc == 1  # the broken analysis fails, the fake one still ran
    index = (out / "README.md").read_text()
    assert "[A fake analysis](fake/report.md)" in index and "broken" not in index
    assert mod.main(["--only", "nope", "--out", str(out)]) == 2
