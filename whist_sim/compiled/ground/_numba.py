"""The numba options of every kernel, in one place.

* ``cache=True``: compiled machine code is stored on disk (``NUMBA_CACHE_DIR``), so the CLI, the
  tests and worker processes load it instead of recompiling each time. A function that only a
  searching strategy's C function calls (``jit(cache=False)``) is not cached on its own: its code
  is stored inside that C function's, and caching it apart would store it twice.
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
``compiled/strategies/bidding/heuristic.py`` a cached loop would silently run the old code.
:func:`_watch_sources` therefore adds a fingerprint of every source of a group to the freshness
stamp of each kernel of that group: the engine (``whist_sim/compiled/``,
``whist_sim/compiled/strategies/`` and the ``core`` modules whose constants are compiled in) and the
double-dummy solver (``whist_sim/dd/``). Any edit in a group recompiles that group's kernels once.
If the stamp cannot be extended (numba moved the internals it wraps, or
``NUMBA_CACHE_LOCATOR_CLASSES`` chooses other locators), :func:`watching` is False: whist-sim then
warns and keeps no disk cache at all (``cache=False``: every process compiles) rather than risk
running stale code; ``tests/test_cache_freshness.py`` fails loudly in that case.

Compile notices: :func:`compile_notice` listens to numba's own compile events, so a command says
"compiling" exactly when a kernel compiles (never when it loads from the disk cache), how long so
far every :data:`COMPILE_TICK_S` seconds, and the total at the end.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numba
from numba.core import event as numba_event
from numba.core.cpu import CPUTargetOptions

_PACKAGE = Path(__file__).resolve().parents[2]  # whist_sim/
#: source groups: the folders whose kernels are fingerprinted together, and the extra files
#: (compiled in as constants) that count for the group
_GROUPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "engine": (("compiled",), ("core/rules.py", "core/rng.py", "core/play_model.py",
                              "core/play_features.py", "core/registry.py", "core/spec.py",
                              "core/bid_model.py", "core/bid_features.py")),
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


def watching() -> bool:
    """Whether numba's cache stamps carry the source fingerprints: the wrapper of
    :func:`_watch_sources` is installed and numba uses its own locator classes."""
    try:
        from numba.core import caching, config
    except ImportError:  # pragma: no cover - numba internals moved
        return False
    return (bool(getattr(caching.CacheImpl, "_whist_sim_watch", False))
            and not getattr(config, "CACHE_LOCATOR_CLASSES", ""))


_watch_sources()
if not watching():  # pragma: no cover - depends on the numba version and its settings
    NUMBA_OPTIONS["cache"] = False
    warnings.warn(
        "whist-sim cannot keep numba's disk cache fresh with this numba (or with "
        "NUMBA_CACHE_LOCATOR_CLASSES set): kernels are compiled in every process",
        RuntimeWarning, stacklevel=2)


# --------------------------------------------------------------------------- compile notice

#: what a command prints on stderr when the engine's kernels compile, or when it waits for another
#: process compiling them (on two cores the first ``simulate`` or ``advise`` of a fresh install
#: takes about half a minute: README, ``bench --only compile_cold``; the double-dummy solver
#: about a minute)
ENGINE_COMPILE_NOTICE = (
    "compiling the engine (the first run after an install or an update: under a minute on two "
    "cores; later runs load it from the cache)..."
)
#: how often a compile that is still running says how long it has taken so far, seconds
COMPILE_TICK_S = 30.0


def _minutes(seconds: float) -> str:
    """``75.2`` -> ``"1 min 15 s"``; under a minute ``"42 s"``."""
    s = int(round(seconds))
    return f"{s // 60} min {s % 60} s" if s >= 60 else f"{s} s"


class CompileWatch(numba_event.Listener):
    """Counts numba's compiles (``numba:compile`` events, from any thread; a kernel loaded from
    the disk cache raises none) and the wall time spent in them: ``depth`` > 0 while one runs,
    :meth:`so_far` the seconds. ``first`` is called when the first compile starts."""

    def __init__(self, first: Callable[[], None] = lambda: None) -> None:
        self._first = first
        self._lock = threading.Lock()
        self.depth = 0
        self.began: float | None = None  # the first compile's start
        self.seconds = 0.0  # wall time with at least one compile running
        self._since = 0.0

    def on_start(self, event: Any) -> None:
        with self._lock:
            self.depth += 1
            first = self.began is None
            if self.depth == 1:
                self._since = time.perf_counter()
                if first:
                    self.began = self._since
        if first:
            self._first()

    def on_end(self, event: Any) -> None:
        with self._lock:
            self.depth -= 1
            if self.depth == 0:
                self.seconds += time.perf_counter() - self._since

    def so_far(self) -> float:
        """Seconds spent compiling, the compile in progress included."""
        with self._lock:
            running = time.perf_counter() - self._since if self.depth else 0.0
            return self.seconds + running


@contextmanager
def compile_notice(notify: Callable[[str], None] | None, message: str,
                   every: float = COMPILE_TICK_S) -> Iterator[None]:
    """Run the block and tell ``notify`` exactly when numba compiles in it (from any thread).

    Silent when every kernel the block calls is compiled already or loads from numba's cache.
    When one compiles: ``notify(message)`` at once, ``"... still compiling (1 min 30 s so far)"``
    every ``every`` seconds while it runs, and ``"compiled in 3 min 12 s"`` when the block ends.
    """
    if notify is None:
        yield
        return
    done = threading.Event()

    def tick() -> None:
        while not done.wait(every):
            if watch.depth:
                notify(f"... still compiling ({_minutes(watch.so_far())} so far)")

    def first() -> None:
        notify(message)
        threading.Thread(target=tick, daemon=True, name="compile-notice").start()

    watch = CompileWatch(first)
    try:
        with numba_event.install_listener("numba:compile", watch):
            yield
    finally:
        done.set()
        if watch.began is not None:
            notify(f"compiled in {_minutes(watch.so_far())}")
