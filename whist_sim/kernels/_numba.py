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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba
from numba.core.cpu import CPUTargetOptions

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
