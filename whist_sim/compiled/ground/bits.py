"""Bit operations on ``uint64`` card masks, compiled to single LLVM instructions.

``popcount``, ``ctz`` (count trailing zeros) and ``clz`` (count leading zeros) wrap the LLVM
intrinsics ``llvm.ctpop``, ``llvm.cttz`` and ``llvm.ctlz``, which become one machine instruction
(POPCNT / TZCNT / LZCNT, or a short sequence where the CPU lacks them) instead of a bit loop.
All take a ``uint64`` and return an ``int64``. ``ctz(0)`` and ``clz(0)`` are 64.

``nth_bit`` (the k-th set bit, used by the random policy for every decision) is one BMI2 ``pdep``
on CPUs where that instruction is fast (``FAST_PDEP``: x86-64 with BMI2, compiling for the host,
not AMD Zen 1/2 where it is microcoded), and a loop clearing the lowest bit ``k`` times elsewhere.
Both give the same result.

Card masks: bit ``13 * suit + rank`` is the card (docs/ENGINE.md §1); :data:`SUIT_MASK` holds the
13-bit mask of each suit in place.
"""

from __future__ import annotations

import platform

import llvmlite.binding as llvm
import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._numba import jit

SUIT_MASK = np.array([np.uint64(0x1FFF) << np.uint64(13 * s) for s in range(4)], dtype=np.uint64)
SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)  # suit of each card code
ONE = np.uint64(1)
ZERO = np.uint64(0)
ALL_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.cttz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctlz", [ir.IntType(64), ir.IntType(1)])
        return builder.call(fn, [args[0], ir.Constant(ir.IntType(1), 0)])

    return sig, codegen


@jit(inline="always")
def popcount(x):
    """Number of set bits of ``x`` (``uint64``)."""
    return np.int64(_ctpop(np.uint64(x)))


@jit(inline="always")
def ctz(x):
    """Index of the lowest set bit of ``x`` (``uint64``); 64 if ``x == 0``."""
    return np.int64(_cttz(np.uint64(x)))


@jit(inline="always")
def clz(x):
    """Number of leading zero bits of ``x`` (``uint64``); 64 if ``x == 0``."""
    return np.int64(_ctlz(np.uint64(x)))


@jit(inline="always")
def highest_bit(x):
    """Index of the highest set bit of ``x`` (``x != 0``)."""
    return 63 - np.int64(_ctlz(np.uint64(x)))


@jit(inline="always")
def bit(i):
    """The ``uint64`` with only bit ``i`` set."""
    return ONE << np.uint64(i)


def _fast_pdep() -> bool:
    try:
        if platform.machine().lower() not in ("x86_64", "amd64"):
            return False
        if numba.config.CPU_NAME not in (None, "host") or numba.config.CPU_FEATURES:
            return False
        name = llvm.get_host_cpu_name()
        return bool(llvm.get_host_cpu_features().get("bmi2")) and name not in ("znver1", "znver2")
    except Exception:  # pragma: no cover - exotic llvmlite builds
        return False


FAST_PDEP = _fast_pdep()


@intrinsic
def _pdep(typingctx, src, mask):
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.bmi.pdep.64"
        )
        return builder.call(fn, args)

    return sig, codegen


if FAST_PDEP:

    @jit(inline="always")
    def nth_bit(x, k):
        """Index of the ``k``-th (0-based, from the lowest) set bit of ``x`` (more than ``k``)."""
        return np.int64(_cttz(_pdep(ONE << np.uint64(k), np.uint64(x))))

else:

    @jit(inline="always")
    def nth_bit(x, k):
        """Index of the ``k``-th (0-based, from the lowest) set bit of ``x`` (more than ``k``)."""
        m = np.uint64(x)
        for _ in range(k):
            m &= m - ONE
        return np.int64(_cttz(m))


@jit(inline="always")
def nth_bit_loop(x, k):
    """:func:`nth_bit` without ``pdep`` (the portable version, kept for tests)."""
    m = np.uint64(x)
    for _ in range(k):
        m &= m - ONE
    return np.int64(_cttz(m))
