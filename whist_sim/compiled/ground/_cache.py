"""Where numba keeps the compiled kernels: one place, whichever way whist-sim is started.

numba writes its cache beside the source files unless ``NUMBA_CACHE_DIR`` says otherwise, and a
command started without that variable (``.venv/bin/whist-sim``, ``python -m whist_sim``, a
notebook) would compile every kernel again. So the package chooses the folder itself, before numba
is first imported:

1. ``NUMBA_CACHE_DIR`` when it is set (an explicit choice always wins);
2. ``<environment>/numba-cache`` inside a virtual environment (``.venv/numba-cache`` after
   ``make install``): the cache belongs to the installed numba and lives and dies with it;
3. else ``$XDG_CACHE_HOME/whist-sim/numba`` (``~/.cache/whist-sim/numba``).

A folder that cannot be written falls through to the next choice.

:func:`compile_lock` lets one process at a time compile a kernel that several processes may ask
for at once (the test workers, a local cluster's workers, the web server and a command started
beside it; the threads of one process wait on a lock of their own): the others wait for it and
then load the kernel from the cache instead of compiling the same code again.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no lock, each process compiles on its own
    fcntl = None  # type: ignore[assignment]

ENV = "NUMBA_CACHE_DIR"


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists and can be written, or can be created."""
    for p in (folder, *folder.parents):
        if p.exists():
            return p.is_dir() and os.access(p, os.W_OK | os.X_OK)
    return False


def default_cache_dir() -> Path:
    """The cache folder whist-sim uses when ``NUMBA_CACHE_DIR`` is not set."""
    if sys.prefix != sys.base_prefix:  # a virtual environment
        venv = Path(sys.prefix) / "numba-cache"
        if _writable(venv):
            return venv
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "whist-sim" / "numba"


def configure_numba_cache() -> str:
    """Set ``NUMBA_CACHE_DIR`` (unless it is set already) and return the folder in use.

    If numba was imported before whist-sim, its configuration is updated too (it reads the
    variable at import), so kernels defined afterwards use the same folder.
    """
    folder = os.environ.get(ENV)
    if not folder:
        folder = str(default_cache_dir())
        os.environ[ENV] = folder
        config = sys.modules.get("numba.core.config")
        if config is not None and not getattr(config, "CACHE_DIR", ""):
            config.CACHE_DIR = folder  # type: ignore[attr-defined]
    return folder


def waiting_for_a_compile() -> AbstractContextManager[Any]:
    """Waiting for another process's compile, said as a compile: a ``numba:compile`` event, which
    :func:`~whist_sim.compiled.ground._numba.compile_notice` reports like one of this process."""
    from numba.core import event

    return event.trigger_event("numba:compile", data={
        "dispatcher": None, "args": None, "return_type": None})


@contextmanager
def compile_lock(name: str,
                 waiting: Callable[[], AbstractContextManager[Any]] = waiting_for_a_compile
                 ) -> Iterator[None]:
    """Hold the cache folder's lock called ``name`` (an exclusive ``flock`` on
    ``<cache>/<name>.lock``) while the body runs; another process asking for the same lock
    waits, inside ``waiting()`` (a context manager; by default :func:`waiting_for_a_compile`).
    Without ``fcntl`` (Windows) or a folder that cannot be written, the body runs unlocked: the
    lock saves work, it is never needed for correctness (numba's cache files are written
    atomically)."""
    folder = Path(os.environ.get(ENV) or default_cache_dir())
    handle = None
    if fcntl is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            handle = open(folder / f"{name}.lock", "a")  # noqa: SIM115 - held across the yield
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # another process compiles: wait for it, and say so
                with waiting():
                    fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            if handle is not None:
                handle.close()
            handle = None
    try:
        yield
    finally:
        if handle is not None:
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()
