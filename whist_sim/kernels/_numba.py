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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numba

NUMBA_OPTIONS: dict[str, Any] = {
    "cache": True,
    "nogil": True,
    "error_model": "numpy",
    "fastmath": False,
    "boundscheck": False,
}


def jit(func: Callable | None = None, **overrides: Any):
    """``numba.njit`` with :data:`NUMBA_OPTIONS` (``overrides`` replace single options).

    Usable bare (``@jit``) or called (``@jit(inline="always")``).
    """
    options = {**NUMBA_OPTIONS, **overrides}
    if func is None:
        return numba.njit(**options)
    return numba.njit(**options)(func)
