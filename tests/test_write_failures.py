"""Every write is checked: a command whose output cannot be written (a full device: /dev/full)
exits 1 with one ``Error:`` line and no traceback, whether it writes to stdout or to a file; a
closed pipe (``| head``) ends the command quietly (exit 141, as a process killed by SIGPIPE)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from whist_sim.runs.simulate import simulate

FULL = "/dev/full"
pytestmark = pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full (Linux)")
SEATS4 = "heuristic,heuristic,heuristic,heuristic"


def run(args: list[str], stdout=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "whist_sim", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=600)


def assert_one_error(r: subprocess.CompletedProcess, *fragments: str) -> None:
    assert r.returncode == 1, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    assert "Traceback" not in r.stderr
    for f in fragments:
        assert f in lines[0], r.stderr


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wf") / "run"
    # 300 deals: their PBN export (about 150 kB) is more than a pipe holds
    simulate(out, 300, 5, bid="random", play="random", chunk_size=100, progress=False)
    return out


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    f = tmp_path_factory.mktemp("rec") / "deal.json"
    with open(f, "w") as out:
        subprocess.run([sys.executable, "-m", "whist_sim", "deal", "--seed", "3", "--json"],
                       stdout=out, check=True, timeout=600)
    return f


STDOUT_COMMANDS = {
    "help": ["--help"],
    "command help": ["simulate", "--help"],
    "version": ["--version"],
    "deal": ["deal", "--seed", "1"],
    "deal --json": ["deal", "--seed", "1", "--json"],
    "deal --pbn": ["deal", "--seed", "1", "--pbn"],
    "game --json": ["game", "--seed", "1", "--seats", SEATS4, "--json"],
    "game": ["game", "--seed", "1", "--seats", SEATS4],
}


@pytest.mark.parametrize("name", list(STDOUT_COMMANDS))
def test_a_full_stdout_is_an_error(name):
    with open(FULL, "w") as full:
        r = run(STDOUT_COMMANDS[name], stdout=full)
    assert_one_error(r, "cannot write the output", "No space left on device")


def test_replay_to_a_full_stdout(record):
    with open(FULL, "w") as full:
        assert_one_error(run(["replay", "--json", str(record)], stdout=full), "No space left")
        assert_one_error(run(["replay", str(record)], stdout=full), "No space left")


def test_report_and_export_to_a_full_device(dataset, tmp_path):
    with open(FULL, "w") as full:
        r = run(["report", str(dataset), "--json", "--no-progress", "--format", "md",
                 "--out", str(tmp_path / "rep")], stdout=full)
        assert_one_error(r, "No space left")
        r = run(["report", str(dataset), "--no-progress", "--format", "md",
                 "--out", str(tmp_path / "rep2")], stdout=full)
        assert_one_error(r, "No space left")
        assert_one_error(run(["export", str(dataset), "--pbn", "-"], stdout=full),
                         "No space left")
    r = run(["export", str(dataset), "--pbn", FULL])
    assert_one_error(r, FULL, "No space left")
    assert not Path(FULL).is_file()  # written in place, never replaced by a file


def test_simulate_and_tournament_summaries_to_a_full_stdout(tmp_path):
    with open(FULL, "w") as full:
        r = run(["simulate", "--deals", "10", "--seed", "1", "--out", str(tmp_path / "s"),
                 "--policy", "random", "--play", "random", "--json", "--no-progress"],
                stdout=full)
        assert_one_error(r, "No space left")
        r = run(["tournament", "--strategies", "heuristic,random", "--play", "random",
                 "--deals", "4", "--seed", "1", "--out", str(tmp_path / "t"), "--json",
                 "--no-progress"], stdout=full)
        assert_one_error(r, "No space left")


def test_a_file_that_cannot_be_written_names_it(dataset, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    # a folder inside a regular file cannot be made: the same refusal as no permission
    r = run(["export", str(dataset), "--pbn", str(blocker / "out.pbn")])
    assert_one_error(r, str(blocker / "out.pbn"))
    r = run(["report", str(dataset), "--no-progress", "--out", str(blocker / "rep")])
    assert_one_error(r, str(blocker))
    r = run(["simulate", "--deals", "5", "--seed", "1", "--out", str(blocker / "run"),
             "--no-progress"])
    assert_one_error(r, str(blocker))
    assert "--resume" not in r.stderr  # nothing was written: there is no run to resume
    r = run(["simulate", "--deals", "5", "--seed", "1", "--out", str(tmp_path / ("x" * 300)),
             "--no-progress"])
    assert_one_error(r, "File name too long")
    assert "--resume" not in r.stderr


def test_a_closed_pipe_is_quiet(dataset):
    with subprocess.Popen([sys.executable, "-m", "whist_sim", "export", str(dataset), "--pbn",
                           "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE) as p:
        assert p.stdout is not None and p.stderr is not None
        p.stdout.readline()
        p.stdout.close()  # as `| head -1` does
        err = p.stderr.read().decode()
        assert p.wait(timeout=600) == 141
    assert err == ""
