"""Compiled twin of :mod:`whist_sim.core.rng`: the counter-based SplitMix64 stream (docs/ENGINE.md
§2).

The state of one deal's stream lives in a ``uint64`` array of length 1 (``rng[0]``), so that every
phase and policy can advance it in place. With ``seed_mix = mix64(seed)``:

* ``stream_start(seed, deal) = mix64(seed_mix + deal * GOLDEN)`` (mod 2**64);
* a draw is ``rng[0] += GOLDEN; return mix64(rng[0])``;
* ``below(rng, n)`` (an index in ``0..n-1``, ``n >= 1``) is ``((draw >> 32) * n) >> 32``.

``tests/test_kernels_rng.py`` checks that this gives the same draws as the Python module.
"""

from __future__ import annotations

import numpy as np

from ...core.rng import _M1 as _PY_M1
from ...core.rng import _M2 as _PY_M2
from ...core.rng import GOLDEN as _PY_GOLDEN
from ._numba import jit

GOLDEN = np.uint64(_PY_GOLDEN)
M1 = np.uint64(_PY_M1)
M2 = np.uint64(_PY_M2)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S32 = np.uint64(32)


@jit(inline="always")
def mix64(z):
    """SplitMix64 finaliser of a ``uint64``."""
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@jit
def stream_start_mixed(seed_mix, deal):
    """Start state of deal ``deal`` given ``seed_mix = mix64(seed)`` (saves one mix per deal)."""
    return mix64(seed_mix + np.uint64(deal) * GOLDEN)


@jit
def stream_start(seed, deal):
    """Start state of the stream of deal ``deal`` in run ``seed`` (both ``uint64``)."""
    return mix64(mix64(np.uint64(seed)) + np.uint64(deal) * GOLDEN)


@jit(inline="always")
def next64(rng):
    """Advance the stream held in ``rng[0]`` and return the next 64-bit draw."""
    s = rng[0] + GOLDEN
    rng[0] = s
    return mix64(s)


@jit(inline="always")
def unit(rng):
    """One draw as a float in ``[0, 1)``: the top 53 bits of :func:`next64` times ``2**-53``."""
    return np.float64(next64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit(inline="always")
def below(rng, n):
    """Uniform index in ``0..n-1`` (``n >= 1``) from exactly one draw of the stream ``rng``."""
    return np.int64(((next64(rng) >> S32) * np.uint64(n)) >> S32)


@jit(_nrt=True)
def draws_below(seed, deal, ns):
    """Test helper: ``below(n)`` for each ``n`` of the int64 array ``ns`` on ``(seed, deal)``."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_start(np.uint64(seed), np.uint64(deal))
    out = np.empty(ns.shape[0], dtype=np.int64)
    for i in range(ns.shape[0]):
        out[i] = below(rng, ns[i])
    return out


@jit(_nrt=True)
def draws_raw(seed, deal, count):
    """Test helper: ``count`` raw 64-bit draws of stream ``(seed, deal)``."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = stream_start(np.uint64(seed), np.uint64(deal))
    out = np.empty(count, dtype=np.uint64)
    for i in range(count):
        out[i] = next64(rng)
    return out


SEAT_KEY = np.uint64(0xD1B54A32D192ED03)


@jit(inline="always")
def decision_stream(state, seat, decision):
    """Start state of the private stream of ``seat``'s decision number ``decision``, from the deal
    stream's ``state`` (read, not advanced): ``mix64(state ^ mix64((seat + 1) * SEAT_KEY +
    (decision + 1) * GOLDEN))``. Strategies that search draw from it, never from the deal's
    stream, so their choices depend only on ``(seed, deal)`` and the seating."""
    key = np.uint64(seat + 1) * SEAT_KEY + np.uint64(decision + 1) * GOLDEN
    return mix64(state ^ mix64(key))
