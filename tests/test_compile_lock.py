"""One process compiles a shared loop, the others wait and load it: the cache folder's compile
lock (``whist_sim.compiled.ground._cache.compile_lock``)."""

from __future__ import annotations

import subprocess
import sys
from contextlib import contextmanager

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


#: a second process that holds the lock for a second (prints "locked" once it has it)
_HOLD = """
import fcntl, sys, time
with open(sys.argv[1], "a") as f:
    fcntl.flock(f, fcntl.LOCK_EX)
    print("locked", flush=True)
    time.sleep(1.0)
"""


def test_a_process_that_must_wait_says_so(tmp_path, monkeypatch):
    """The caller's ``waiting`` notice runs while another process holds the lock, not when the
    lock is free (a command then says it compiles rather than hang silently)."""
    monkeypatch.setenv(_cache.ENV, str(tmp_path / "cache"))
    path = tmp_path / "cache" / "loop-FULL.lock"
    path.parent.mkdir()
    entered = []

    @contextmanager
    def waiting():
        entered.append("waiting")
        yield

    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(path)], stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout.readline().strip() == "locked"
    with _cache.compile_lock("loop-FULL", waiting):
        entered.append("held")
    holder.communicate()
    assert entered == ["waiting", "held"]
    entered.clear()
    with _cache.compile_lock("loop-FULL", waiting):
        entered.append("held")
    assert entered == ["held"]
