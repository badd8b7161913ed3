"""A tournament keeps its finished chunks: interrupted after its first chunk, ``resume`` finishes
it to the summary of an uninterrupted run (timings aside); a damaged kept chunk is played again;
other options or a finished run's folder without ``resume`` are refused."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from whist_sim.analyses.tournament import tournament
from whist_sim.analyses.tournament.schedule import TournamentError
from whist_sim.interfaces.cli import main
from whist_sim.runs.checkpoint import MANIFEST

OPTS = dict(strategies=["heuristic", "random"], deals=60, seed=11, play="random", chunk_size=10,
            threads=1, progress=False)
TIMINGS = ("wall_s", "compute_s", "plays_per_s", "executor", "command")


def same(a: dict, b: dict) -> bool:
    strip = lambda d: {k: v for k, v in d.items() if k not in TIMINGS}  # noqa: E731
    return json.dumps(strip(a), sort_keys=True) == json.dumps(strip(b), sort_keys=True)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    return tournament(**OPTS, out=tmp_path_factory.mktemp("ref") / "t")


def interrupt_after(n: int):
    seen = []

    def on_chunk(info):
        seen.append(info["chunk"])
        if len(seen) >= n:
            raise KeyboardInterrupt

    return on_chunk


def test_an_interrupted_tournament_resumes_to_the_same_summary(reference, tmp_path):
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        tournament(**OPTS, out=out, on_chunk=interrupt_after(1))
    m = json.loads((out / "chunks" / MANIFEST).read_text())
    assert m["status"] == "interrupted" and 1 <= len(m["chunks"]) < 6
    kept = set(m["chunks"])
    played = []
    summary = tournament(**OPTS, out=out, resume=True,
                         on_chunk=lambda info: played.append(info["chunk"]))
    assert same(summary, reference)
    assert json.loads((out / "chunks" / MANIFEST).read_text())["status"] == "complete"
    assert len(played) == 6  # every chunk taken in order, the kept ones read back
    assert kept <= set(json.loads((out / "chunks" / MANIFEST).read_text())["chunks"])


def test_a_damaged_kept_chunk_is_played_again(reference, tmp_path):
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        tournament(**OPTS, out=out, on_chunk=interrupt_after(2))
    f = out / "chunks" / "chunk-00000.npz"
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF
    f.write_bytes(bytes(data))
    assert same(tournament(**OPTS, out=out, resume=True), reference)


def test_resume_refuses_other_options_and_a_run_needs_resume(reference, tmp_path):
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        tournament(**OPTS, out=out, on_chunk=interrupt_after(1))
    with pytest.raises(TournamentError, match="seed"):
        tournament(**{**OPTS, "seed": 12}, out=out, resume=True)
    with pytest.raises(TournamentError, match="--resume"):
        tournament(**OPTS, out=out)


def test_the_command_line_resumes(reference, tmp_path):
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        tournament(**OPTS, out=out, on_chunk=interrupt_after(1))
    args = ["tournament", "--strategies", "heuristic,random", "--deals", "60", "--seed", "11",
            "--play", "random", "--chunk-size", "10", "--threads", "1", "--no-progress",
            "--out", str(out), "--json", "--no-check"]  # the reference is unchecked
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 1 and "--resume" in r.stderr
    r = CliRunner().invoke(main, [*args, "--resume"])
    assert r.exit_code == 0, r.output
    assert same(json.loads(r.stdout), reference)


def test_a_killed_tournament_resumes_to_the_same_summary(reference, tmp_path):
    """A real kill (SIGKILL: no clean-up at all) after the first kept chunk."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "t"
    args = [sys.executable, "-m", "whist_sim", "tournament", "--strategies", "heuristic,random",
            "--deals", "60", "--seed", "11", "--play", "random", "--chunk-size", "10",
            "--threads", "1", "--no-progress", "--out", str(out),
            "--no-check"]  # the reference is unchecked
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 600
    while not list((out / "chunks").glob("chunk-*.npz")) and time.monotonic() < end:
        if proc.poll() is not None:
            break
        time.sleep(0.01)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    if (out / "summary.json").exists():
        pytest.skip("the run finished before it could be killed")
    r = subprocess.run([*args, "--resume", "--json"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    assert same(json.loads(r.stdout), reference)
