"""Bit helpers of the double-dummy solver: ``uint64`` card masks, compiled to LLVM intrinsics.

The solver keeps its own copy of these few helpers so that it depends on nothing but numba (the
batch engine's kernels have their own). All take a ``uint64`` and return an ``int64``;
``popcount(0) == 0``, ``ctz(0) == clz(0) == 64``.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

# numba options of every solver kernel: cached machine code, GIL released (threads run truly in
# parallel), no zero-division checks, no index checks, exact integer semantics.
NJIT = {"cache": True, "nogil": True, "error_model": "numpy", "boundscheck": False}
INLINE = {**NJIT, "inline": "always"}


def _unary_intrinsic(name: str, with_flag: bool):
    @intrinsic
    def _impl(typingctx, x):
        if not isinstance(x, types.Integer):
            return None
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            arg = builder.zext(args[0], ir.IntType(64)) if args[0].type.width < 64 else args[0]
            if with_flag:
                fn = builder.module.declare_intrinsic(name, [ir.IntType(64), ir.IntType(1)])
                return builder.call(fn, [arg, ir.Constant(ir.IntType(1), 0)])
            fn = builder.module.declare_intrinsic(name, [ir.IntType(64)])
            return builder.call(fn, [arg])

        return sig, codegen

    return _impl


_ctpop = _unary_intrinsic("llvm.ctpop", False)
_cttz = _unary_intrinsic("llvm.cttz", True)
_ctlz = _unary_intrinsic("llvm.ctlz", True)


@numba.njit(**INLINE)
def popcount(x):
    """Number of set bits of the ``uint64`` ``x``."""
    return np.int64(_ctpop(np.uint64(x)))


@numba.njit(**INLINE)
def ctz(x):
    """Index of the lowest set bit of ``x``; 64 when ``x == 0``."""
    return np.int64(_cttz(np.uint64(x)))


@numba.njit(**INLINE)
def high_bit(x):
    """Index of the highest set bit of ``x``; -1 when ``x == 0``."""
    return 63 - np.int64(_ctlz(np.uint64(x)))
