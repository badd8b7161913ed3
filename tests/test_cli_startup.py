"""Starting the command line: lazy commands, ``python -m whist_sim``, the kernels' cache folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from whist_sim.compiled.ground import _cache
from whist_sim.interfaces.cli import _modules, main

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **env}, check=True)


def test_help_lists_every_command_with_its_summary():
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0, r.output
    for name in ("advise", "bench", "bid-chart", "dd", "deal", "replay", "report", "simulate",
                 "tournament"):
        assert name in _modules()
        assert f"  {name} " in r.output
    assert "play N deals in parallel chunks" in r.output
    assert "``" not in r.output


def test_help_imports_no_heavy_module():
    code = ("import sys\nfrom whist_sim.interfaces.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('pandas', 'scipy', 'matplotlib', 'numba', 'pyarrow',"
            " 'whist_sim.interfaces.cli.cmd_simulate', 'starlette', 'uvicorn')"
            " if m in sys.modules]\n"
            "print('HEAVY', heavy)")
    out = _python(code).stdout
    assert "HEAVY []" in out


def test_a_command_loads_on_use():
    r = CliRunner().invoke(main, ["deal", "--help"])
    assert r.exit_code == 0 and "Usage: main deal" in r.output
    r = CliRunner().invoke(main, ["no-such-command"])
    assert r.exit_code == 2 and "No such command" in r.output


def test_python_dash_m():
    r = subprocess.run([sys.executable, "-m", "whist_sim", "--help"], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Usage: whist-sim ")


def test_the_package_chooses_the_cache_folder(tmp_path, monkeypatch):
    # an explicit NUMBA_CACHE_DIR wins
    out = _python("import os, whist_sim; print(os.environ['NUMBA_CACHE_DIR'])",
                  NUMBA_CACHE_DIR=str(tmp_path / "mine")).stdout
    assert out.strip() == str(tmp_path / "mine")
    # otherwise: inside a virtual environment its numba-cache folder, else the user's cache
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    monkeypatch.setattr(sys, "base_prefix", "/usr")
    (tmp_path / "venv").mkdir()
    assert _cache.default_cache_dir() == tmp_path / "venv" / "numba-cache"
    monkeypatch.setattr(sys, "prefix", "/usr")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _cache.default_cache_dir() == tmp_path / "xdg" / "whist-sim" / "numba"
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert _cache.configure_numba_cache() == str(tmp_path / "xdg" / "whist-sim" / "numba")


def test_the_compile_notice_says_exactly_when_numba_compiles_and_for_how_long():
    import numba

    from whist_sim.compiled.ground._numba import compile_notice

    @numba.njit
    def plus_one(x):
        return x + 1

    notes: list[str] = []
    with compile_notice(notes.append, "compiling", every=0.001):
        assert plus_one(1) == 2
    assert notes[0] == "compiling" and notes[-1].startswith("compiled in ")
    assert any(n.startswith("... still compiling (") for n in notes[1:-1])  # it ticks
    notes.clear()
    with compile_notice(notes.append, "compiling"):
        assert plus_one(2) == 3  # compiled already: nothing to say
    assert notes == []


MODULE = """
import numba

@numba.njit(cache=True)
def twice(x):
    return 2 * x
"""


def test_the_compile_notice_is_silent_when_the_kernel_loads_from_the_cache(tmp_path):
    (tmp_path / "cached_kernel.py").write_text(MODULE)
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "from whist_sim.compiled.ground._numba import compile_notice\n"
            "notes = []\n"
            "with compile_notice(notes.append, 'compiling'):\n"
            "    import cached_kernel; cached_kernel.twice(3)\n"
            "print(notes)\n")

    def run() -> str:
        return subprocess.run([sys.executable, "-c", code, str(tmp_path)], cwd=ROOT,
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
                              ).stdout

    first = run()
    assert "'compiling'" in first and "compiled in " in first
    assert run().strip() == "[]"  # the second process loads it from the cache: silent


def _a_compile(*_args, **_kwargs):
    """What numba says while it compiles (or while another process compiles for us)."""
    from numba.core import event

    with event.trigger_event("numba:compile", data={
            "dispatcher": None, "args": None, "return_type": None}):
        pass


def test_a_check_that_compiles_says_so(monkeypatch):
    """The check of an advice runs under a searching play, whose loop may still be compiling
    (here, or in the process that compile_ahead started): the command says so, as it does for
    its own loop."""
    from whist_sim.interfaces.cli import cmd_advise

    def check(a, *args):
        _a_compile()
        return a

    monkeypatch.setattr(cmd_advise, "with_check", check)
    r = CliRunner().invoke(main, ["advise", "AKQ2.K3.QJ54.872", "--trump", "S", "--deals", "50",
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "compiling the engine" in r.stderr and "compiled in " in r.stderr


def test_a_tournament_that_compiles_says_so(monkeypatch, tmp_path):
    from whist_sim.interfaces.cli import cmd_tournament

    real = cmd_tournament.tournament

    def tournament(*args, **kwargs):
        _a_compile()
        return real(*args, **kwargs)

    monkeypatch.setattr(cmd_tournament, "tournament", tournament)
    r = CliRunner().invoke(main, ["tournament", "--strategies", "heuristic,hcp", "--deals", "8",
                                  "--seed", "1", "--out", str(tmp_path / "t"), "--no-check",
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "compiling the engine" in r.stderr and "compiled in " in r.stderr
