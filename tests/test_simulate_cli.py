"""``whist-sim simulate`` end to end: a tiny run, bad input, Ctrl-C and --resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from whist_sim.core.rules import Rules
from whist_sim.interfaces.cli import main
from whist_sim.runs.dataset import load, load_manifest
from whist_sim.runs.simulate import simulate


def cli(*args: str):
    return CliRunner().invoke(main, ["simulate", *args], catch_exceptions=False)


def test_tiny_run_end_to_end(tmp_path):
    out = tmp_path / "run"
    r = cli("--deals", "50", "--seed", "1", "--out", str(out), "--chunk-size", "20",
            "--players", "3", "--seats", "heuristic,random,heuristic", "--play", "random",
            "--store-dealt", "--zero-over", "30", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "50 deals in 3 chunk(s) written to" in r.output
    m = load_manifest(out)
    assert m["bid"] == ["heuristic", "random", "heuristic"] and m["play"] == ["random"] * 3
    assert m["rules"]["players"] == 3 and m["rules"]["zero_over"] == 30 and m["store_dealt"]
    df = load(out)
    assert len(df) == 50 and "dealt_2" in df.columns and "hand_3" not in df.columns
    # same run through the library: the same data
    simulate(tmp_path / "lib", 50, 1, rules=Rules(players=3, zero_over=30),
             bid=("heuristic", "random", "heuristic"), play="random", chunk_size=20,
             store_dealt=True, progress=False)
    assert load(tmp_path / "lib").equals(df)


def test_policy_defaults_and_play_seats(tmp_path):
    r = cli("--deals", "10", "--seed", "2", "--out", str(tmp_path / "a"), "--no-progress")
    assert r.exit_code == 0, r.output
    m = load_manifest(tmp_path / "a")
    # the default seat: heuristic bidding, the default play (DEFAULT_PLAY, learned)
    assert m["bid"] == ["heuristic"] * 4 and m["play"] == ["learned"] * 4
    r = cli("--deals", "10", "--seed", "2", "--out", str(tmp_path / "b"), "--policy", "random",
            "--play-seats", "heuristic,random,random,heuristic", "--no-progress")
    assert r.exit_code == 0, r.output
    m = load_manifest(tmp_path / "b")
    assert m["bid"] == ["random"] * 4
    assert m["play"] == ["heuristic", "random", "random", "heuristic"]


D = ["--deals", "10", "--seed", "1"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--deals", "0", "--seed", "1"], "0 is not in the range 1<=x<=1000000000000"),
        ([*D, "--chunk-size", "0"], "0 is not in the range x>=1"),
        (["--deals", "10", "--seed", "-3"], "is not in the range"),
        ([*D, "--policy", "clever"], "unknown bidding policy 'clever' for seat 0"),
        ([*D, "--seats", "random,random,random"], "players=4 needs one per seat"),
        ([*D, "--players", "3", "--seats", "random,random,random,random"],
         "players=3 needs one per seat"),
        ([*D, "--play-seats", "random,x,random,random"], "unknown play policy 'x' for seat 1"),
        ([*D, "--policy", "random", "--seats", "random,random,random,random"], "not both"),
        ([*D, "--play", "random", "--play-seats", "random,random,random,random"], "not both"),
        ([*D, "--cluster", "remote:3"], "use local:N"),
        ([*D, "--cluster", "local:2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
        ([*D, "--scheduler", "tcp://127.0.0.1:1", "--threads", "2"], "threads cannot be set"),
        ([*D, "--frisch-directions", "left,up,right"], "frisch direction 'up'"),
    ],
)
def test_bad_input_gives_a_clear_error(tmp_path, args, message):
    r = cli(*args, "--out", str(tmp_path / "run"), "--no-progress")
    assert r.exit_code != 0
    assert message in r.output, r.output
    assert "Traceback" not in r.output
    assert not (tmp_path / "run").exists()


def test_directory_and_resume_errors(tmp_path):
    out = tmp_path / "run"
    args = ["--deals", "30", "--seed", "1", "--out", str(out), "--chunk-size", "10",
            "--no-progress"]
    assert cli(*args).exit_code == 0
    r = cli(*args)
    assert r.exit_code == 1 and "already holds a whist-sim run" in r.output
    r = cli(*args[:3], "2", *args[4:], "--resume", "--miss-per-trick", "5")
    assert r.exit_code == 1
    assert "seed: run 1, now 2" in r.output and "rules.miss_per_trick: run 10, now 5" in r.output
    other = tmp_path / "other"
    other.mkdir()
    (other / "thesis.tex").write_text("keep me")
    r = cli("--deals", "5", "--seed", "1", "--out", str(other), "--no-progress")
    assert r.exit_code == 1 and "holds no whist-sim run (found thesis.tex)" in r.output


def test_resume_names_a_corrupt_chunk_and_keeps_it(tmp_path, chunk_bytes):
    out = tmp_path / "run"
    args = ["--deals", "30", "--seed", "1", "--out", str(out), "--chunk-size", "10",
            "--no-progress"]
    assert cli(*args).exit_code == 0
    good = chunk_bytes(out)
    (out / "chunk-00001.parquet").write_bytes(b"PAR1 scribbled over")
    r = cli(*args, "--resume")
    assert r.exit_code == 0, r.output
    assert "chunk-00001.parquet is invalid (unreadable" in r.output
    assert "moved it to chunk-00001.parquet.corrupt" in r.output
    assert (out / "chunk-00001.parquet.corrupt").read_bytes() == b"PAR1 scribbled over"
    assert chunk_bytes(out) == good


def test_ctrl_c_keeps_finished_chunks_and_resume_completes(tmp_path, chunk_bytes):
    """A real Ctrl-C (SIGINT) on the command; --resume then gives the uninterrupted files."""
    deals, size = 300_000, 3_000
    out = tmp_path / "run"
    exe = Path(sys.executable).with_name("whist-sim")
    proc = subprocess.Popen(
        [str(exe), "simulate", "--deals", str(deals), "--seed", "5", "--out", str(out),
         "--chunk-size", str(size), "--threads", "1", "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
        # a shell runs background jobs with SIGINT ignored, and children inherit that: give the
        # command the default disposition so that Python turns SIGINT into KeyboardInterrupt
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 120
    while len(list(out.glob("chunk-*.parquet"))) < 2:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the run wrote no chunk in time"
        time.sleep(0.005)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130, (stdout, stderr)
    assert "interrupted" in stderr and "--resume" in stderr
    assert "Traceback" not in stderr
    m = load_manifest(out)
    assert m["status"] == "interrupted"
    kept = chunk_bytes(out)
    assert 2 <= len(kept) < deals // size, "the run finished before it could be interrupted"

    r = cli("--deals", str(deals), "--seed", "5", "--out", str(out), "--chunk-size", str(size),
            "--resume", "--no-progress")
    assert r.exit_code == 0, r.output
    simulate(tmp_path / "ref", deals, 5, chunk_size=size, progress=False)
    final = chunk_bytes(out)
    assert final == chunk_bytes(tmp_path / "ref")
    assert all(final[name] == data for name, data in kept.items())  # kept chunks untouched
    assert load_manifest(out)["status"] == "complete"
