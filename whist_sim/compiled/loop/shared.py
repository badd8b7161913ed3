"""Calling a compiled deal loop through its address.

Every cached function that calls the loop (:func:`~whist_sim.compiled.loop.phases.run_base`)
carries its own copy of the loop's machine code: a second caller costs a second code generation
of the whole loop. So the loop of each mode is compiled once, as a C function of
:data:`LOOP_SIGNATURE` (:mod:`whist_sim.compiled.entry.deal` compiles them and hands out their
addresses), and its callers hold one indirect call: the entry points (``run_shared``) and, inside
the full loop, the searching strategies' rollouts (:func:`run_base_at`), so that the full loop's
compile does not generate the base loop again.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from ..ground._numba import jit
from ..ground.layout import N_PARAMS, S_BASE_LOOP

#: the C signature of a loop: the state arrays by their first element and lengths (``st``,
#: ``hm``, ``rp``, ``rng``), ``P`` (``pol`` is ``int64[2, P]``, ``par``
#: ``float64[2, P, N_PARAMS]``), ``until`` (the phase to stop at), ``checked`` (1: check every
#: answer; the full loop only) and ``base`` (the base loop's address, which the full loop's
#: rollouts call; the base loop ignores it)
LOOP_SIGNATURE = types.void(
    types.CPointer(types.int64), types.CPointer(types.uint64), types.CPointer(types.int64),
    types.CPointer(types.int64), types.CPointer(types.float64), types.CPointer(types.uint64),
    types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64,
    types.int64)


@intrinsic
def _array_at(typingctx, ptr, shape):
    """The C-contiguous array of ``shape`` (a tuple of ints) whose first element is at ``ptr``
    (a ``CPointer``): a view with no owner, as ``numba.carray`` without the reference counting
    that the engine's kernels leave out (``_nrt=False``)."""
    if not (isinstance(ptr, types.CPointer) and isinstance(shape, types.UniTuple)
            and isinstance(shape.dtype, types.Integer)):
        return None
    arrty = types.Array(ptr.dtype, len(shape), "C")

    def codegen(context, builder, signature, args):
        ary = context.make_array(arrty)(context, builder)
        dims = [context.cast(builder, d, shape.dtype, types.intp)
                for d in cgutils.unpack_tuple(builder, args[1])]
        size = context.get_abi_sizeof(context.get_data_type(ptr.dtype))
        itemsize = context.get_constant(types.intp, size)
        strides, step = [], itemsize
        for d in reversed(dims):
            strides.insert(0, step)
            step = builder.mul(step, d)
        populate_array(ary, data=args[0], shape=dims, strides=strides, itemsize=itemsize,
                       meminfo=None)
        return ary._getvalue()

    return arrty(ptr, shape), codegen


def _views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p):
    """The state arrays at a loop's C arguments (see :data:`LOOP_SIGNATURE`)."""
    return (_array_at(st, (nst,)), _array_at(hm, (nhm,)), _array_at(rp, (nrp,)),
            _array_at(pol, (np.int64(2), p)), _array_at(par, (np.int64(2), p, N_PARAMS)),
            _array_at(rng, (nrng,)))


#: the state arrays at a loop's C arguments, inlined into the loop's C function
views = jit(inline="always")(_views)


@intrinsic
def word_at(typingctx, address, index):
    """The ``index``-th int64 of the memory at ``address`` (an integer): a loop's table
    (``entry.deal.loop_address``)."""
    if not (isinstance(address, types.Integer) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        base = builder.inttoptr(context.cast(builder, args[0], signature.args[0], types.int64),
                                i64.as_pointer())
        index = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.load(builder.gep(base, [index]))

    return types.int64(address, index), codegen


@intrinsic
def call_loop_at(typingctx, fn, st, hm, rp, pol, par, rng, until, checked, base):
    """Call the loop whose C function (:data:`LOOP_SIGNATURE`) is at address ``fn`` on the state
    arrays (each C-contiguous, of the dtypes of the signature), with ``until``, ``checked`` and
    ``base`` (integers)."""
    want = ((st, types.int64, 1), (hm, types.uint64, 1), (rp, types.int64, 1),
            (pol, types.int64, 2), (par, types.float64, 3), (rng, types.uint64, 1))
    for ty, dtype, ndim in want:
        if not (isinstance(ty, types.Array) and ty.dtype == dtype and ty.ndim == ndim
                and ty.layout == "C"):
            return None
    if not all(isinstance(x, types.Integer) for x in (fn, until, checked, base)):
        return None
    sig = types.void(fn, st, hm, rp, pol, par, rng, until, checked, base)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        arrays = [context.make_array(ty)(context, builder, v)
                  for ty, v in zip(signature.args[1:7], args[1:7], strict=True)]
        ptrs = [a.data for a in arrays]
        lengths = [builder.extract_value(arrays[k].shape, 0) for k in (0, 1, 2, 5)]
        p = builder.extract_value(arrays[3].shape, 1)
        ints = [context.cast(builder, args[k], signature.args[k], types.int64)
                for k in (0, 7, 8, 9)]
        fnty = ir.FunctionType(ir.VoidType(), [q.type for q in ptrs] + [i64] * 8)
        target = builder.inttoptr(ints[0], fnty.as_pointer())
        builder.call(target, ptrs + lengths + [p] + ints[1:])
        return context.get_dummy_value()

    return sig, codegen


@jit(inline="always")
def run_base_at(st, hm, rp, pol, par, rng, until):
    """The base loop (every seat's strategy a base one: no search), from the deal's current
    phase until ``until``, called through its address ``st[S_BASE_LOOP]``, which the full loop
    sets while it runs (and :class:`~whist_sim.compiled.entry.decide.KernelSeats` for one
    decision asked alone): the searching strategies' rollouts, inside the full loop."""
    fn = st[S_BASE_LOOP]
    call_loop_at(fn, st, hm, rp, pol, par, rng, until, np.int64(0), fn)


__all__ = ["LOOP_SIGNATURE", "call_loop_at", "run_base_at", "views", "word_at"]
