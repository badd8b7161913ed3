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
``strategies/bidding/heuristic.py`` a cached ``run_full`` would silently run the old code.
:func:`_watch_sources` therefore adds a fingerprint of every source of a group to the freshness
stamp of each kernel of that group: the engine (``whist_sim/kernels/``, ``whist_sim/strategies/``
and the ``core`` modules whose constants are compiled in) and the double-dummy solver
(``whist_sim/dd/``). Any edit in a group recompiles that group's kernels once.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numba
from numba.core.cpu import CPUTargetOptions

_PACKAGE = Path(__file__).resolve().parent.parent
#: source groups: the folders whose kernels are fingerprinted together, and the extra files
#: (compiled in as constants) that count for the group
_GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engine": (("kernels", "strategies"),
               ("core/rules.py", "core/rng.py", "strategies/registry.py")),
    "dd": (("dd",), ()),
}

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


def _watched_files(group: str = "engine") -> list[Path]:
    folders, extra = _GROUPS[group]
    files = {f for d in folders for f in (_PACKAGE / d).rglob("*.py")}
    files |= {_PACKAGE / n for n in extra}
    return sorted(files)


def _group_of(py_file: str) -> str | None:
    """The source group of a kernel defined in ``py_file`` (None: not watched)."""
    path = Path(os.path.abspath(py_file))
    for group, (folders, _extra) in _GROUPS.items():
        if any(path.is_relative_to(_PACKAGE / d) for d in folders):
            return group
    return None


_FINGERPRINT: dict[tuple, bytes] = {}


def sources_fingerprint(group: str = "engine") -> bytes:
    """SHA-256 over the contents of every source of ``group`` (recomputed when one changes)."""
    files = _watched_files(group)
    key = (group,) + tuple(
        (str(f), f.stat().st_mtime_ns, f.stat().st_size) for f in files if f.exists())
    if key not in _FINGERPRINT:
        h = hashlib.sha256()
        for f in files:
            if f.exists():
                h.update(str(f.relative_to(_PACKAGE)).encode() + b"\0" + f.read_bytes())
        for k in [k for k in _FINGERPRINT if k[0] == group]:
            del _FINGERPRINT[k]
        _FINGERPRINT[key] = h.digest()
    return _FINGERPRINT[key]


def engine_fingerprint() -> str:
    """A short hex digest of the engine's sources (:func:`sources_fingerprint` of ``engine``):
    recorded with every run and tournament, so that data written by other engine code is never
    resumed or reused as if it were this code's."""
    return sources_fingerprint("engine").hex()[:16]


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
                group = _group_of(py_file) if py_file else None
                if group is not None:
                    return (stamp, sources_fingerprint(group))
                return stamp

            wrapped.append(type(cls.__name__, (cls,), {"get_source_stamp": get_source_stamp}))
        impl._locator_classes = wrapped
        impl._whist_sim_watch = True
    except (ImportError, AttributeError):  # pragma: no cover - numba internals moved
        pass


_watch_sources()


# --------------------------------------------------------------------------- compile notice

#: what a command prints on stderr while the engine's kernels are compiled
ENGINE_COMPILE_NOTICE = (
    "compiling the engine, first run only, about a minute (later runs load it from the cache)..."
)


def cache_state(dispatcher: Any) -> bool | None:
    """Whether ``dispatcher`` is ready without compiling: True if it is compiled in this process
    or numba's disk cache holds machine code of it for the current sources, False if the cache
    holds none (the first call compiles), None if that cannot be told (numba internals moved)."""
    if getattr(dispatcher, "overloads", None):
        return True
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # pragma: no cover - numba internals moved, or an unreadable index
        return None


@contextmanager
def compile_notice(
    dispatchers: Iterable[Any], notify: Callable[[str], None] | None, message: str,
    after: float = 5.0,
) -> Iterator[None]:
    """Run the block (the first call of some kernels) and tell ``notify(message)`` if it compiles.

    The notice comes at once when numba's cache lacks one of ``dispatchers`` (reading a cache
    index costs a millisecond, so a warm start is not slowed), or after ``after`` seconds when the
    block is still running (a cache that turned out unusable, e.g. built for another CPU).
    """
    if notify is None:
        yield
        return
    states = [cache_state(d) for d in dispatchers]
    told = threading.Event()

    def tell() -> None:
        if not told.is_set():
            told.set()
            notify(message)

    timer = None
    if any(s is False for s in states):
        tell()
    else:
        timer = threading.Timer(after, tell)
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
