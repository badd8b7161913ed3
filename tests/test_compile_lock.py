"""One process compiles a shared loop, the others wait and load it: the cache folder's compile
lock (``whist_sim.compiled.ground._cache.compile_lock``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from whist_sim.compiled.ground import _cache

fcntl = pytest.importorskip("fcntl")

#: a second process's try at the lock, without waiting: prints "free" or "held"
_TRY = """
import fcntl, sys
with open(sys.argv[1], "a") as f:
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        print("free")
    except BlockingIOError:
        print("held")
"""


def _other_process_sees(path) -> str:
    return subprocess.run([sys.executable, "-c", _TRY, str(path)], capture_output=True,
                          text=True, check=True).stdout.strip()


def test_another_process_waits_while_the_lock_is_held(tmp_path, monkeypatch):
    monkeypatch.setenv(_cache.ENV, str(tmp_path / "cache"))
    path = tmp_path / "cache" / "loop-BASE.lock"
    with _cache.compile_lock("loop-BASE"):
        assert path.exists()
        assert _other_process_sees(path) == "held"
    assert _other_process_sees(path) == "free"


def test_a_folder_that_cannot_be_written_runs_unlocked(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(_cache.ENV, str(blocker / "cache"))  # under a file: cannot be made
    ran = []
    with _cache.compile_lock("loop-BASE"):
        ran.append(True)
    assert ran == [True]
