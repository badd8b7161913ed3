"""Starting the command line: lazy commands, ``python -m whist_sim``, the kernels' cache folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from whist_sim import _cache
from whist_sim.cli import _modules, main

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
    code = ("import sys\nfrom whist_sim.cli import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "heavy = [m for m in ('pandas', 'scipy', 'matplotlib', 'numba', 'pyarrow',"
            " 'whist_sim.cli.cmd_simulate', 'starlette', 'uvicorn') if m in sys.modules]\n"
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


def test_compile_notice_comes_at_once_when_the_cache_is_empty():
    from types import SimpleNamespace

    from whist_sim.kernels._numba import cache_state, compile_notice

    class Index:
        def __init__(self, entries):
            self.entries = entries

        def _load_index(self):
            return self.entries

    cold = SimpleNamespace(overloads={}, _cache=SimpleNamespace(_cache_file=Index({})))
    warm = SimpleNamespace(overloads={}, _cache=SimpleNamespace(_cache_file=Index({"sig": 1})))
    assert cache_state(cold) is False and cache_state(warm) is True
    notes = []
    with compile_notice([warm, cold], notes.append, "compiling"):
        assert notes == ["compiling"]
    with compile_notice([warm], notes.append, "compiling", after=60):
        pass
    assert notes == ["compiling"]  # a warm start says nothing
