"""One writer per output: every command that writes a folder (``simulate``, ``tournament``,
``bid-chart``, ``report``) or a file (``export --pbn``) holds one lock on it
(:func:`whist_sim.runs.lock.folder_lock`), and a second writer is refused at once, in one line
naming the output and the running process (its pid and command). The lock of a dead process
blocks nobody. Temporary files that a killed run's atomic writes left behind are removed when the
run is resumed.

The first writer is played by a lock held in this process (or in a child process that only holds
it): no test waits on a timer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from whist_sim.interfaces.cli import main
from whist_sim.runs.checkpoint import ChunkStore
from whist_sim.runs.dataset import LOCK_NAME, TEMP_PREFIX
from whist_sim.runs.lock import FolderLock, FolderLockError, folder_lock, lock_path

HOLD = ("import sys\n"
        "from whist_sim.runs.lock import FolderLock\n"
        "FolderLock(sys.argv[1], 'whist-sim tournament').acquire()\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")


def refused(r, out: Path, command: str, pid: int | None = None) -> str:
    """The command failed in one line naming the output and the process that holds it."""
    assert r.exit_code != 0, r.output
    assert "Traceback" not in r.output
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), r.stderr
    line = lines[0]
    assert f"another whist-sim run is writing {out}" in line, line
    assert f"pid {os.getpid() if pid is None else pid}" in line, line
    assert f"`{command}`" in line, line
    return line


# ------------------------------------------------------------------------------- the lock


def test_a_second_writer_is_refused_naming_the_folder_and_the_holder(tmp_path):
    out = tmp_path / "out"
    with folder_lock(out, "whist-sim tournament", create=True) as held:
        assert held.path == out / LOCK_NAME
        record = json.loads(held.path.read_text())
        assert record["pid"] == os.getpid() and record["command"] == "whist-sim tournament"
        with pytest.raises(FolderLockError) as e:
            FolderLock(out, "whist-sim bid-chart").acquire()
        assert e.value.busy and e.value.holder["pid"] == os.getpid()
        assert str(e.value) == (
            f"another whist-sim run is writing {out} (pid {os.getpid()}, `whist-sim "
            "tournament`); wait for it to finish, or choose another directory")
    # released: the lock file is gone, and the folder it created (left empty) too
    assert not out.exists()
    with folder_lock(out, "whist-sim report", create=True):
        (out / "report.md").write_text("kept")
    assert sorted(p.name for p in out.iterdir()) == ["report.md"]


def test_the_lock_of_a_dead_process_blocks_nobody_and_a_refusal_names_the_live_one(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    with subprocess.Popen([sys.executable, "-c", HOLD, str(out)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as holder:
        try:
            assert holder.stdout.readline().strip() == "held"
            with pytest.raises(FolderLockError,
                               match=f"pid {holder.pid}, `whist-sim tournament`"):
                FolderLock(out, "whist-sim tournament").acquire()
        finally:
            holder.kill()  # killed outright: its lock file stays, naming it
            holder.wait()
    assert json.loads((out / LOCK_NAME).read_text())["pid"] == holder.pid
    with folder_lock(out, "whist-sim tournament --resume"):
        with pytest.raises(FolderLockError) as e:
            FolderLock(out, "whist-sim tournament").acquire()
        assert f"pid {os.getpid()}," in str(e.value) and str(holder.pid) not in str(e.value)


def test_a_file_output_is_locked_beside_it(tmp_path):
    target = tmp_path / "deals.pbn"
    assert lock_path(target, is_file=True) == tmp_path / "deals.pbn.whist-sim.lock"
    with folder_lock(target, "whist-sim export", is_file=True):
        with pytest.raises(FolderLockError, match="choose another file"):
            FolderLock(target, "whist-sim export", is_file=True).acquire()
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_made_is_said_in_one_line(tmp_path):
    (tmp_path / "a-file").write_text("x")
    with pytest.raises(FolderLockError, match="exists and is not a directory"):
        FolderLock(tmp_path / "a-file", "whist-sim report", create=True).acquire()
    with pytest.raises(FolderLockError, match="cannot create output directory"):
        FolderLock(tmp_path / "a-file" / "sub", "whist-sim report", create=True).acquire()


# ------------------------------------------------------------------------------- each command


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("locks") / "data"
    r = CliRunner().invoke(main, ["simulate", "--deals", "20", "--seed", "3", "--policy",
                                  "random", "--play", "random", "--chunk-size", "10",
                                  "--no-progress", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


def test_simulate_refuses_a_second_run(tmp_path):
    out = tmp_path / "sim"
    out.mkdir()
    with folder_lock(out, "whist-sim simulate"):
        r = CliRunner().invoke(main, ["simulate", "--deals", "20", "--seed", "3", "--policy",
                                      "random", "--play", "random", "--no-progress", "--out",
                                      str(out), "--resume"])
        refused(r, out, "whist-sim simulate")
    assert not (out / "_manifest.parquet").exists()  # the refused run wrote nothing


@pytest.mark.parametrize("resume", [False, True], ids=["new", "resume"])
def test_tournament_refuses_a_second_run(tmp_path, resume):
    out = tmp_path / "tour"
    out.mkdir()
    args = ["tournament", "--strategies", "heuristic,random", "--deals", "10", "--seed", "1",
            "--no-check", "--no-progress", "--out", str(out)]
    with folder_lock(out, "whist-sim tournament"):
        r = CliRunner().invoke(main, [*args, *(["--resume"] if resume else [])])
        refused(r, out, "whist-sim tournament")
    assert list(out.iterdir()) == []  # no checkpoint, no summary


def test_bid_chart_refuses_a_second_run(tmp_path):
    out = tmp_path / "chart"
    out.mkdir()
    args = ["bid-chart", "--hands", "20", "--min-hands", "1", "--deals", "2", "--no-check",
            "--no-progress", "--out", str(out), "--resume"]
    with folder_lock(out, "whist-sim bid-chart"):
        r = CliRunner().invoke(main, args)
        refused(r, out, "whist-sim bid-chart")
    assert list(out.iterdir()) == []


def test_report_refuses_a_second_writer(dataset, tmp_path):
    out = tmp_path / "report"
    out.mkdir()
    with folder_lock(out, "whist-sim report"):
        r = CliRunner().invoke(main, ["report", str(dataset), "--out", str(out),
                                      "--no-progress"])
        refused(r, out, "whist-sim report")
    assert list(out.iterdir()) == []
    r = CliRunner().invoke(main, ["report", str(dataset), "--out", str(out), "--no-progress",
                                  "--format", "md"])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["report.md"]  # no lock file left


def test_export_refuses_a_second_writer(dataset, tmp_path):
    target = tmp_path / "deals.pbn"
    with folder_lock(target, "whist-sim export", is_file=True):
        r = CliRunner().invoke(main, ["export", str(dataset), "--pbn", str(target)])
        line = refused(r, target, "whist-sim export")
        assert "choose another file" in line
    assert list(tmp_path.iterdir()) == []
    # a killed export's temporary file goes with the next export to the same file
    (tmp_path / f"{TEMP_PREFIX}deals.pbn.999999").write_text("[Event")
    r = CliRunner().invoke(main, ["export", str(dataset), "--pbn", str(target)])
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.pbn"]


def test_a_refused_command_leaves_no_folder_it_made(tmp_path):
    out = tmp_path / "new" / "chart"
    r = CliRunner().invoke(main, ["bid-chart", "--hands", "10000000000", "--min-hands",
                                  "10000000", "--chunk-size", "1", "--out", str(out)])
    assert r.exit_code == 1 and "--chunk-size" in r.stderr
    assert not (tmp_path / "new").exists()


# ------------------------------------------------------------------------------- temp files


def test_opening_a_store_removes_the_temporary_files_of_a_killed_run(tmp_path):
    store = ChunkStore(tmp_path / "chunks", {"seed": 1}, resume=False)
    store.put("chunk", 0, {"x": [1, 2]})
    store.finish("interrupted")
    planted = tmp_path / "chunks" / f"{TEMP_PREFIX}chunk-00001.npz.4242.abc"
    planted.write_bytes(b"half a chunk")  # what SIGTERM during a write leaves
    store = ChunkStore(tmp_path / "chunks", {"seed": 1}, resume=True)
    assert not planted.exists()
    assert list(store.get("chunk", 0)["x"]) == [1, 2]


TOUR = dict(strategies=["heuristic", "random"], deals=60, seed=11, play="random", chunk_size=10,
            threads=1, progress=False)
TIMINGS = ("wall_s", "compute_s", "plays_per_s", "executor", "command")


def test_a_resumed_tournament_leaves_no_temporary_file(tmp_path):
    from whist_sim.analyses.tournament import tournament

    def stop(info):
        raise KeyboardInterrupt

    def same(a: dict, b: dict) -> bool:
        strip = lambda d: {k: v for k, v in d.items() if k not in TIMINGS}  # noqa: E731
        return json.dumps(strip(a), sort_keys=True) == json.dumps(strip(b), sort_keys=True)

    reference = tournament(**TOUR, out=tmp_path / "ref")
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        tournament(**TOUR, out=out, on_chunk=stop)
    planted = [out / "chunks" / f"{TEMP_PREFIX}chunk-00003.npz.4242.abc",
               out / f"{TEMP_PREFIX}summary.json.4242.abc",
               out / "scores" / f"{TEMP_PREFIX}part-00002.parquet.4242.abc"]
    for p in planted:
        p.write_bytes(b"half a file")
    assert same(tournament(**TOUR, out=out, resume=True), reference)
    left = [p.relative_to(out) for p in out.rglob("*") if p.name.startswith(TEMP_PREFIX)
            or p.name == LOCK_NAME]
    assert left == []


def test_a_failed_atomic_write_names_the_file_asked_for_and_leaves_no_temporary_file(tmp_path):
    from whist_sim.runs.dataset import atomic_write_bytes

    (tmp_path / "a-file").write_text("x")
    target = tmp_path / "a-file" / "tournament.png"
    with pytest.raises(NotADirectoryError) as e:
        atomic_write_bytes(target, b"png")
    assert e.value.filename == str(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file"]
