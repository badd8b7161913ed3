"""What a newcomer meets at the command line: errors name the option to use, and
reports record the command that made them."""

from click.testing import CliRunner

from whist_sim.interfaces.cli import main
from whist_sim.runs.dataset import chunk_name


def test_an_incomplete_dataset_points_to_report_partial(tmp_path):
    """A dataset with a missing chunk: report names --partial (not a Python argument), and
    report --partial writes a report whose command line has it."""
    data = tmp_path / "run"
    runner = CliRunner()
    r = runner.invoke(main, ["simulate", "--deals", "600", "--seed", "1", "--chunk-size", "200",
                             "--out", str(data), "--no-progress"])
    assert r.exit_code == 0, r.output
    (data / chunk_name(1)).unlink()
    r = runner.invoke(main, ["report", str(data), "--no-progress"])
    assert r.exit_code != 0
    assert "--partial" in r.output and "partial=True" not in r.output.split("Python")[0]
    out = tmp_path / "rep"
    r = runner.invoke(main, ["report", str(data), "--partial", "--out", str(out),
                             "--format", "md", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "--partial" in (out / "report.md").read_text()
