"""scripts/dd_study.py: heuristic deals with double-dummy columns and their report (docs/REPORTS.md,
"Double dummy"; whist-max / whist-min of docs/DD.md at the start of play, RULES §5).

Tiny runs only: 4 deals under a node limit of 2,000 card plays, so most solves are left unsolved
and each run takes a few seconds.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from whist_sim.runs.dataset import load_manifest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "dd_study.py"
TINY = ["--deals", "4", "--node-limit", "2000", "--threads", "1", "--no-progress"]


@pytest.fixture
def dd_study(load_script):
    """The script as a module (its sibling ``report_default`` importable)."""
    return load_script("dd_study")


def test_dataset_goes_next_to_the_default_dataset(dd_study):
    assert dd_study.dataset_dir("data/default") == Path("data/dd_study")
    assert dd_study.dataset_dir("runs/x/default/") == Path("runs/x/dd_study")


def test_tiny_run_writes_the_report_then_resumes(tmp_path, dd_study, chunk_bytes, capsys):
    data, out = tmp_path / "data" / "default", tmp_path / "results"
    r = subprocess.run([sys.executable, str(SCRIPT), "--data", str(data), "--out", str(out),
                        *TINY], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "unsolved solves" in r.stdout and "whist-min" in r.stdout
    dataset = tmp_path / "data" / "dd_study"
    manifest = load_manifest(dataset)
    assert manifest["status"] == "complete" and manifest["deals"] == 4
    assert manifest["dd"]["node_limit"] == 2000
    assert not data.exists()  # the default dataset is not touched
    md = (out / "dd" / "report.md").read_text()
    assert md.startswith("# Israeli Whist: contracts against double-dummy bounds")
    assert "## Double dummy" in md and "node limit of 2,000 card plays" in md
    assert "python scripts/dd_study.py" in md and "--node-limit 2000" in md
    assert "- **seed**: 2026" in md
    assert "- **node limit**: 2,000 card plays per solve" in md
    assert f"- **double-dummy solver**: version {manifest['dd']['solver_version']}" in md
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert {"dd/charts/dd_differences.png", "dd/tables/dd_unsolved.csv"} <= files
    assert not any(f.endswith(".html") for f in files)
    before = chunk_bytes(dataset)
    manifest_before = (dataset / "_manifest.parquet").read_bytes()

    # a second run reuses the complete dataset: nothing is simulated again, and its manifest is
    # left as it was (no empty session)
    assert dd_study.main(["--data", str(data), "--out", str(out), *TINY]) == 0
    assert (dataset / "_manifest.parquet").read_bytes() == manifest_before
    assert chunk_bytes(dataset) == before
    assert "## Double dummy" in (out / "dd" / "report.md").read_text()
    # a dataset made with other options is refused, naming the difference
    capsys.readouterr()
    assert dd_study.main(["--data", str(data), "--out", str(out), "--deals", "5",
                          "--node-limit", "2000", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "deals: run 4, now 5" in err and f"delete {dataset}" in err


def test_bad_options_are_clear_errors(tmp_path, dd_study, capsys):
    data, out = tmp_path / "data" / "default", tmp_path / "results"
    assert dd_study.main(["--data", str(data), "--out", str(out), "--deals", "4",
                          "--node-limit", "0", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "node limit" in err and "Traceback" not in err
    assert dd_study.main(["--data", str(data), "--out", str(out), "--deals", "0",
                          "--no-progress"]) == 1
    assert "deals must be in 1..1000000000000" in capsys.readouterr().err
