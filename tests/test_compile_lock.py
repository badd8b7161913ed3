"""One process compiles a shared loop, the others wait and load it: the cache folder's compile
lock (``whist_sim.compiled.ground._cache.compile_lock``)."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager

import numpy as np
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


def test_by_default_the_wait_is_said_as_a_compile(tmp_path, monkeypatch):
    """Every caller of the lock (the loops, the double-dummy solver) waits inside a
    ``numba:compile`` event, so that the command's compile notice speaks while it waits."""
    from whist_sim.compiled.ground._numba import compile_notice

    monkeypatch.setenv(_cache.ENV, str(tmp_path / "cache"))
    path = tmp_path / "cache" / "dd-solver.lock"
    path.parent.mkdir()
    notes: list[str] = []
    holder = subprocess.Popen([sys.executable, "-c", _HOLD, str(path)], stdout=subprocess.PIPE,
                              text=True)
    assert holder.stdout.readline().strip() == "locked"
    with compile_notice(notes.append, "compiling"), _cache.compile_lock("dd-solver"):
        pass
    holder.communicate()
    assert notes[0] == "compiling" and notes[-1].startswith("compiled in ")


class _Started:
    """A stand-in for ``subprocess.Popen`` that records what it was asked to start."""

    def __init__(self):
        self.calls = []

    def __call__(self, args, **kwargs):
        self.calls.append((args, kwargs))
        return self


def test_a_check_under_search_starts_the_search_compile_beside_the_command(monkeypatch):
    """A first run whose check searches (``--check rollout``) compiles that search in a
    process of its own while it compiles the loop; once per process, and only when the search
    is neither loaded nor in the cache."""
    from whist_sim.analyses.answer_check import compile_check_ahead
    from whist_sim.compiled.entry import deal

    started = _Started()
    monkeypatch.setattr(deal.subprocess, "Popen", started)
    monkeypatch.setattr(deal, "_AHEAD", {})
    monkeypatch.setattr(deal, "_STARTED", [])
    monkeypatch.setattr(deal, "_LOADED", {})
    monkeypatch.setattr(deal, "_load_or_compile", lambda name, may_compile: None)
    monkeypatch.setitem(deal.NUMBA_OPTIONS, "cache", True)
    assert not compile_check_ahead(None)  # --no-check
    assert not compile_check_ahead("expert")  # a check that does not search: the base loop
    assert compile_check_ahead("rollout:n=16")
    assert not compile_check_ahead("rollout:n=4")  # once per process
    (args, kwargs), = started.calls
    assert args[0] == sys.executable and "_shared_loop('rollout')" in args[2]
    assert "montecarlo" not in args[2]
    assert kwargs["stdout"] == subprocess.DEVNULL and kwargs["preexec_fn"] is not None


def test_no_compile_is_started_when_the_searches_are_cached(monkeypatch):
    from whist_sim.compiled.entry import deal
    from whist_sim.compiled.strategies.dispatch import AUDITED

    started = _Started()
    monkeypatch.setattr(deal.subprocess, "Popen", started)
    monkeypatch.setattr(deal, "_AHEAD", {})
    monkeypatch.setattr(deal, "_STARTED", [])
    monkeypatch.setattr(deal, "_LOADED", {})
    monkeypatch.setattr(deal, "_load_or_compile", lambda name, may_compile: object())
    monkeypatch.setitem(deal.NUMBA_OPTIONS, "cache", True)
    assert not deal.compile_ahead(AUDITED)
    assert {"rollout", "montecarlo"} <= set(deal._LOADED) and not started.calls
    with pytest.raises(TypeError, match="BASE, FULL or AUDITED"):
        deal.compile_ahead("FULL")
    with pytest.raises(ValueError, match="no searching strategy named 'expert'"):
        deal.compile_ahead(AUDITED, ("expert",))


def test_at_exit_a_compile_still_running_is_ended_and_every_one_collected(monkeypatch):
    from whist_sim.compiled.entry import deal

    class Proc:
        def __init__(self, running):
            self.running, self.calls = running, []

        def poll(self):
            self.calls.append("poll")
            return None if self.running else 0

        def terminate(self):
            self.calls.append("terminate")

        def wait(self):
            self.calls.append("wait")

    running, done = Proc(True), Proc(False)
    monkeypatch.setattr(deal, "_STARTED", [running, done])
    deal._end_ahead()
    assert running.calls == ["poll", "terminate", "wait"] and done.calls == ["poll"]


def test_the_double_dummy_solver_is_compiled_under_the_lock_once_per_process(monkeypatch):
    """Test workers (or cluster workers) that start solving at once: one compiles the solver,
    the others wait for it and load it from the cache."""
    from whist_sim.dd import objectives, solver

    class Solve:
        def __init__(self):
            self.signatures, self.compiled = [], []

        def compile(self, sig):
            self.compiled.append(sig)
            self.signatures.append(sig)

    locks = []

    @contextmanager
    def lock(name, waiting=None):
        locks.append(name)
        yield

    fake = Solve()
    monkeypatch.setattr(objectives, "solve_rows", fake)
    monkeypatch.setattr(solver, "compile_lock", lock)
    args = (np.zeros((2, 4), dtype=np.uint64), np.int8(0))
    solver._ready(args)
    solver._ready(args)  # compiled or loaded already: no lock
    assert locks == ["dd-solver"] and len(fake.compiled) == 1
    assert str(fake.compiled[0][0]) == "array(uint64, 2d, C)"


def test_a_first_advice_compiles_its_kernels_beside_the_loop(monkeypatch, tmp_path):
    """On a first run (the loop not cached) the advisor's kernels compile in a process of
    their own while the command compiles the loop: the calls are pickled to it and made there;
    at the lowest priority while a check's search compiles beside. Not when the loop is cached,
    without a cache, while kernels compile already, or from a worker thread."""
    from whist_sim.compiled.entry import deal
    from whist_sim.compiled.strategies.dispatch import BASE

    monkeypatch.setattr(deal, "_AHEAD", {})
    monkeypatch.setattr(deal, "_STARTED", [])
    monkeypatch.setattr(deal, "_KERNELS", [])
    monkeypatch.setattr(deal, "_LOADED", {})
    monkeypatch.setitem(deal.NUMBA_OPTIONS, "cache", True)
    monkeypatch.setattr(deal, "_load_or_compile", lambda name, may_compile: None)
    made = tmp_path / "made"
    proc = deal.compile_kernels_ahead(BASE, [("os", "mkdir", (str(made),))])
    deal.wait_ahead(proc)
    assert proc.returncode == 0 and made.is_dir()  # the call was made in that process
    deal.wait_ahead(None)  # nothing started: nothing to wait for
    with pytest.raises(TypeError, match="BASE, FULL or AUDITED"):
        deal.compile_kernels_ahead("BASE", [])

    class Running:
        def poll(self):
            return None

    assert os.getpriority(os.PRIO_PROCESS, os.getpid()) < 19
    monkeypatch.setattr(deal, "_AHEAD", {"rollout": Running()})  # a check's search compiling
    monkeypatch.setattr(deal, "_KERNELS", [])
    behind = deal.compile_kernels_ahead(BASE, [("time", "sleep", (0.5,))])
    assert os.getpriority(os.PRIO_PROCESS, behind.pid) == 19  # it takes an idle core only
    deal.wait_ahead(behind)
    assert behind.returncode == 0
    monkeypatch.setattr(deal, "_AHEAD", {})
    monkeypatch.setattr(deal, "_KERNELS", [Running()])  # kernels compiling: one at a time
    assert deal.compile_kernels_ahead(BASE, [("os", "mkdir", (str(made),))]) is None
    monkeypatch.setattr(deal, "_KERNELS", [])
    monkeypatch.setattr(deal, "_STARTED", [])
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:  # a server's worker thread: none started there
        assert pool.submit(deal.compile_kernels_ahead, BASE, []).result() is None
    assert deal._STARTED == []
    monkeypatch.setitem(deal.NUMBA_OPTIONS, "cache", False)
    assert deal.compile_kernels_ahead(BASE, []) is None
    monkeypatch.setitem(deal.NUMBA_OPTIONS, "cache", True)
    monkeypatch.setattr(deal, "_load_or_compile", lambda name, may_compile: object())
    assert deal.compile_kernels_ahead(BASE, []) is None and "BASE" in deal._LOADED


def test_the_advisors_idle_calls_compile_what_the_advice_runs_and_do_no_work():
    """The calls handed to that process have the types of the advice's own calls (else it
    would compile kernels the advice never uses) and play nothing."""
    import numba

    from whist_sim.analyses.advisor import resolve_scenario
    from whist_sim.analyses.advisor.sampling import _idle_calls, _kernel_inputs, run_scenario
    from whist_sim.compiled.entry import advise as K

    scen = resolve_scenario("AKQ2.K3.QJ54.872", trump=0, declarer=3, level=6, bids=[6])
    run_scenario(scen, 3, seed=1)  # reads the bid: its pilot uses accept_kernel too
    calls = _idle_calls(*_kernel_inputs(scen, "heuristic", "heuristic", None))
    assert [name for _m, name, _a in calls] == ["advise_kernel", "accept_kernel"]
    for module, name, args in calls:
        kernel = getattr(K, name)
        assert module == K.__name__
        assert tuple(numba.typeof(a) for a in args) in [tuple(s) for s in kernel.signatures]
        assert kernel(*args) == 0  # no deal played, no try made
