"""The disk cache of the compiled kernels is never stale (docs/ENGINE.md, "Cache freshness").

numba checks a cached kernel against the one file that defines it, but the deal loop compiles in
strategies and helpers from many files. whist-sim adds a fingerprint of every source of the
kernel's group to numba's freshness stamp; if that mechanism stopped working (a numba release
that moves its internals, a ``NUMBA_CACHE_LOCATOR_CLASSES`` setting), an edit of a strategy would
silently run the old code from the cache. These tests fail loudly when it is inactive.
"""

from __future__ import annotations

import importlib
import pkgutil

import numba
import pytest

import whist_sim
from whist_sim.compiled.ground import _numba

INACTIVE = ("the cache-freshness mechanism is inactive: a cached kernel would not see an edit of "
            "the sources it compiles in (whist_sim/compiled/ground/_numba.py, _watch_sources)")


def _kernels():
    """Every cached numba kernel of the engine and double-dummy groups, by module."""
    found = []
    for package in ("compiled", "dd"):
        root = importlib.import_module(f"whist_sim.{package}")
        names = [root.__name__] + [m.name for m in pkgutil.walk_packages(
            root.__path__, prefix=f"whist_sim.{package}.")]
        for name in names:
            module = importlib.import_module(name)
            for attr, value in vars(module).items():
                if (isinstance(value, numba.core.registry.CPUDispatcher)
                        and value.py_func.__module__ == name
                        and type(value._cache).__name__ != "NullCache"):
                    found.append((name, attr, value))
    return found


def test_the_stamp_mechanism_is_installed():
    assert _numba.watching(), INACTIVE


@pytest.mark.parametrize("group, package", [("engine", "compiled"), ("dd", "dd")])
def test_every_kernel_stamp_carries_its_groups_fingerprint(group, package):
    kernels = [k for k in _kernels() if k[0].startswith(f"whist_sim.{package}.")]
    assert len(kernels) >= 3, f"found only {len(kernels)} cached kernels in {package}"
    want = _numba.sources_fingerprint(group)
    for module, attr, dispatcher in kernels:
        stamp = dispatcher._cache._impl.locator.get_source_stamp()
        assert isinstance(stamp, tuple) and len(stamp) == 2 and stamp[1] == want, (
            f"{module}.{attr}: {INACTIVE}")


def test_the_fingerprint_follows_every_watched_file(tmp_path, monkeypatch):
    files = [tmp_path / "a.py", tmp_path / "b.py"]
    for f in files:
        f.write_text("x = 1\n")
    monkeypatch.setattr(_numba, "_watched_files", lambda group="engine": files)
    monkeypatch.setattr(_numba, "_PACKAGE", tmp_path)
    before = _numba.sources_fingerprint("engine")
    files[1].write_text("x = 22\n")  # an edit of a file the kernel does not live in
    assert _numba.sources_fingerprint("engine") != before


def test_the_engine_fingerprint_covers_the_compiled_sources():
    watched = {p.relative_to(_numba._PACKAGE).as_posix() for p in _numba._watched_files()}
    assert {"compiled/loop/phases.py", "compiled/strategies/registry.py",
            "compiled/search/rollout.py", "core/rules.py", "core/rng.py"} <= watched
    assert whist_sim.__file__  # the package imports without compiling anything


def test_every_core_module_the_kernels_import_is_watched():
    """The kernels compile in constants of the ground floor (the learned models' weights, the
    feature tables, the rules' slots): a retrained model must not run from a stale cache."""
    import re

    root = _numba._PACKAGE / "compiled"
    imported = set()
    for path in root.rglob("*.py"):
        for m in re.finditer(r"from \.+core\.(\w+) import", path.read_text()):
            imported.add(f"core/{m.group(1)}.py")
    watched = {p.relative_to(_numba._PACKAGE).as_posix() for p in _numba._watched_files()}
    assert imported, "no import of the ground floor found: the pattern is out of date"
    assert imported <= watched, f"not watched: {sorted(imported - watched)}"
