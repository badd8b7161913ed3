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
from numba.core import cgutils
from numba.extending import intrinsic

from ..compiled.ground import _numba  # noqa: F401 - cached kernels are revalidated against all dd sources

# numba options of every solver kernel: cached machine code, GIL released (threads run truly in
# parallel), no zero-division checks, no index checks, exact integer semantics.
NJIT = {"cache": True, "nogil": True, "error_model": "numpy", "boundscheck": False}
INLINE = {**NJIT, "inline": "always"}
# a large helper with one call site: compiled once on its own and inlined by LLVM (forceinline)
# rather than copied into the caller by numba (``inline="always"``), whose passes over the larger
# caller cost most of the solver's first compile; the search runs as fast either way
LINKED = {**NJIT, "forceinline": True}


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


@intrinsic
def prefetch(typingctx, arr, index):
    """Ask the CPU to start loading the cache line of ``arr.flat[index]`` into its caches: a hint,
    with no effect on any result and no fault on any address. ``arr`` must be C-contiguous."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None
    sig = types.void(arr, index)

    def codegen(context, builder, signature, args):
        ary = context.make_array(signature.args[0])(context, builder, args[0])
        i8p = ir.IntType(8).as_pointer()
        ptr = builder.bitcast(builder.gep(ary.data, [args[1]]), i8p)
        i32 = ir.IntType(32)
        # llvm.prefetch(address, read, high temporal locality, data cache); its name carries the
        # pointer type (opaque pointers print as "ptr")
        name = "llvm.prefetch.p0" if str(i8p) == "ptr" else "llvm.prefetch.p0i8"
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, name)
        builder.call(fn, [ptr, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


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
