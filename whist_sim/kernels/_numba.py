"""The numba options of every kernel, in one place.

* ``cache=True``: compiled machine code is stored on disk (``NUMBA_CACHE_DIR``), so the CLI, the
  tests and worker processes load it instead of recompiling each time.
* ``nogil=True``: a kernel releases the GIL while it runs, so threads (``bench``, ``simulate``) play
  chunks truly in parallel.
* ``error_model='numpy'``: integer division and modulo do not check for a zero divisor and raise a
  Python exception; our divisors (players, suit counts) are never zero, and the check costs a branch
  in the innermost loops.
* ``fastmath=False``: results must depend only on the seed, on every machine. The engine is integer
  code, but parameterised policies may use floats; fastmath would let LLVM reorder float arithmetic
  and change results between builds.
* ``boundscheck=False`` (numba's default, stated explicitly): the layouts are fixed and tested;
  index checks in the per-card loop would cost a large share of the run time.
* ``_nrt=False``: no numba reference counting. Every array passed to a function costs an atomic
  increment and decrement per call otherwise (numba's NRT), and the policies are called once per
  decision with the whole deal state: measured, this more than tripled the time per deal. The
  price: kernels cannot allocate arrays; the Python layer allocates all scratch once per batch
  (``jit(_nrt=True)`` for the few helpers that allocate, such as test helpers). ``_nrt`` is a
  numba target option (leading underscore); if a numba version drops it, it is left out here and
  the engine stays correct, only slower.

Cache freshness: numba revalidates a cached function only against the source file that defines it,
but the deal loop inlines strategies and helpers from other files, so after an edit of
``heuristic.py`` a cached ``run_full`` would silently run the old code. :func:`_watch_sources`
therefore adds a fingerprint of every kernel source (``whist_sim/kernels/*.py`` and the Python
modules whose constants are compiled in) to the freshness stamp of each kernel: any edit recompiles
all kernels once.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
from numba.core.cpu import CPUTargetOptions

_KERNELS = Path(__file__).resolve().parent
_WATCHED_EXTRA = ("policies.py", "rng.py", "rules.py")  # in whist_sim/, compiled in as constants

NUMBA_OPTIONS: dict[str, Any] = {
    "cache": True,
    "nogil": True,
    "error_model": "numpy",
    "fastmath": False,
    "boundscheck": False,
    "_nrt": False,
}
if not hasattr(CPUTargetOptions, "_nrt"):  # pragma: no cover - depends on the numba version
    del NUMBA_OPTIONS["_nrt"]


def jit(func: Callable | None = None, **overrides: Any):
    """``numba.njit`` with :data:`NUMBA_OPTIONS` (``overrides`` replace single options).

    Usable bare (``@jit``) or called (``@jit(inline="always")``).
    """
    options = {**NUMBA_OPTIONS, **overrides}
    if "_nrt" not in NUMBA_OPTIONS:
        options.pop("_nrt", None)
    if func is None:
        return numba.njit(**options)
    return numba.njit(**options)(func)


def _watched_files() -> list[Path]:
    return sorted(_KERNELS.glob("*.py")) + [_KERNELS.parent / n for n in _WATCHED_EXTRA]


_FINGERPRINT: dict[tuple, bytes] = {}


def sources_fingerprint() -> bytes:
    """SHA-256 over the contents of every watched kernel source (recomputed when one changes)."""
    files = _watched_files()
    key = tuple((str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files if f.exists())
    if key not in _FINGERPRINT:
        h = hashlib.sha256()
        for f in files:
            if f.exists():
                h.update(f.name.encode() + b"\0" + f.read_bytes())
        _FINGERPRINT.clear()
        _FINGERPRINT[key] = h.digest()
    return _FINGERPRINT[key]


def _watch_sources() -> None:
    """Make numba's cache stamp of every kernel function include :func:`sources_fingerprint`."""
    try:
        from numba.core import caching

        impl = caching.CacheImpl
        if getattr(impl, "_whist_sim_watch", False):
            return
        wrapped = []
        for cls in impl._locator_classes:

            def get_source_stamp(self, _base=cls):
                stamp = _base.get_source_stamp(self)
                py_file = getattr(self, "_py_file", None)
                if py_file and Path(os.path.abspath(py_file)).parent == _KERNELS:
                    return (stamp, sources_fingerprint())
                return stamp

            wrapped.append(type(cls.__name__, (cls,), {"get_source_stamp": get_source_stamp}))
        impl._locator_classes = wrapped
        impl._whist_sim_watch = True
    except (ImportError, AttributeError):  # pragma: no cover - numba internals moved
        pass


_watch_sources()
