"""Calling compiled functions through their addresses: the loop and the searching strategies.

Every cached function that calls another carries its own copy of the callee's machine code: a
second caller costs a second code generation of the callee, and a caller compiles every callee it
names, used or not. So the deal loop and each searching strategy are compiled once, as C
functions (:mod:`whist_sim.compiled.entry.deal` compiles them, each on first use), and reached
through a **loop table**, an ``int64`` array whose address the loop keeps in
``st[S_LOOP_TABLE]`` while it runs:

* word :data:`T_LOOP`: the address of the loop's C function (:data:`LOOP_SIGNATURE`);
* word :data:`T_AUDITED`: 1 when the table's loop is the audited one (the tests' ``AUDITED``
  runs), else 0;
* from word 2: the address of each searching strategy's C function (:data:`DECISION_SIGNATURE`),
  at the word its registry entry names (``Decisions.word``, :mod:`whist_sim.core.registry`;
  ``rollout`` 2, ``montecarlo`` 3), 0 when the run seats none (it is then not compiled).

The loop's decision points reach a searching strategy through its word (:func:`searched`, in
the generated dispatch), and the strategy plays its sampled
deals in the loop through word :data:`T_LOOP` (:func:`whist_sim.compiled.loop.shared.run_base_at`):
no compiled function calls itself, and none holds another's code.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from ...core.registry import FIRST_SEARCH_WORD, search_words
from ._numba import jit
from .bits import ctz
from .layout import N_PARAMS, S_LOOP_TABLE, S_UNLOADED

#: the words of a loop table (see the module doc): the loop's address, its audit switch, then
#: one word per searching strategy, the one its registry entry names (``Decisions.word``)
T_LOOP = 0
T_AUDITED = 1
TABLE_WORDS = max(search_words().values(), default=FIRST_SEARCH_WORD - 1) + 1

#: what a searching strategy's C function is asked (its ``kind`` argument)
K_CALL = 0
K_CONTRACT = 1
K_CARD = 2

_STATE = (types.CPointer(types.int64), types.CPointer(types.uint64), types.CPointer(types.int64),
          types.CPointer(types.int64), types.CPointer(types.float64), types.CPointer(types.uint64),
          types.int64, types.int64, types.int64, types.int64, types.int64)

#: the C signature of a loop: the state arrays by their first element (``st``, ``hm``, ``rp``,
#: ``pol``, ``par``, ``rng``) and the lengths of ``st``, ``hm``, ``rp``, ``rng``; ``P``
#: (``pol`` is ``int64[2, P]``, ``par`` ``float64[2, P, N_PARAMS]``); then ``until`` (the
#: phase to stop at) and ``table`` (the loop table's address, kept in ``st[S_LOOP_TABLE]``
#: while the loop runs)
LOOP_SIGNATURE = types.void(*_STATE, types.int64, types.int64)

#: the C signature of a searching strategy: the state as in :data:`LOOP_SIGNATURE`, then
#: ``seat``, ``kind`` (:data:`K_CALL`, :data:`K_CONTRACT` or :data:`K_CARD`) and the legal
#: choices ``a``, ``b`` (a call: ``lo``, ``hi``; a contract: ``lo``, ``forbidden``; a card: the
#: mask of legal cards as an int64, and 0); returns the answer
DECISION_SIGNATURE = types.int64(*_STATE, types.int64, types.int64, types.int64, types.int64)


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
    """The state arrays at a C function's arguments (see :data:`LOOP_SIGNATURE`)."""
    return (_array_at(st, (nst,)), _array_at(hm, (nhm,)), _array_at(rp, (nrp,)),
            _array_at(pol, (np.int64(2), p)), _array_at(par, (np.int64(2), p, N_PARAMS)),
            _array_at(rng, (nrng,)))


#: the state arrays at a C function's arguments, inlined into the C function
views = jit(inline="always")(_views)


@intrinsic
def word_at(typingctx, address, index):
    """The ``index``-th int64 of the memory at ``address`` (an integer): a word of a loop
    table."""
    if not (isinstance(address, types.Integer) and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        base = builder.inttoptr(context.cast(builder, args[0], signature.args[0], types.int64),
                                i64.as_pointer())
        index = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.load(builder.gep(base, [index]))

    return types.int64(address, index), codegen


_WANT = ((types.int64, 1), (types.uint64, 1), (types.int64, 1), (types.int64, 2),
         (types.float64, 3), (types.uint64, 1))


def _state_args(context, builder, tys, vals):
    """The C arguments of the state arrays ``vals`` (of types ``tys``): their data pointers, the
    lengths of ``st``, ``hm``, ``rp``, ``rng``, and ``P``."""
    arrays = [context.make_array(ty)(context, builder, v) for ty, v in zip(tys, vals, strict=True)]
    lengths = [builder.extract_value(arrays[k].shape, 0) for k in (0, 1, 2, 5)]
    return [a.data for a in arrays] + lengths + [builder.extract_value(arrays[3].shape, 1)]


def _state_typed(arrays) -> bool:
    """True when ``arrays`` are the state arrays of the C signatures, in order, C-contiguous."""
    return all(isinstance(ty, types.Array) and ty.dtype == dtype and ty.ndim == ndim
               and ty.layout == "C" for ty, (dtype, ndim) in zip(arrays, _WANT, strict=True))


@intrinsic
def call_loop_at(typingctx, fn, st, hm, rp, pol, par, rng, until, table):
    """Call the loop whose C function (:data:`LOOP_SIGNATURE`) is at address ``fn`` on the state
    arrays (each C-contiguous, of the dtypes of the signature), with ``until`` and ``table``
    (integers)."""
    if not _state_typed((st, hm, rp, pol, par, rng)) or not all(
            isinstance(x, types.Integer) for x in (fn, until, table)):
        return None
    sig = types.void(fn, st, hm, rp, pol, par, rng, until, table)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        state = _state_args(context, builder, signature.args[1:7], args[1:7])
        ints = [context.cast(builder, args[k], signature.args[k], types.int64)
                for k in (0, 7, 8)]
        fnty = ir.FunctionType(ir.VoidType(), [v.type for v in state] + [i64] * 2)
        builder.call(builder.inttoptr(ints[0], fnty.as_pointer()), state + ints[1:])
        return context.get_dummy_value()

    return sig, codegen


@intrinsic
def call_decision_at(typingctx, fn, st, hm, rp, pol, par, rng, seat, ask):
    """The answer of the searching strategy whose C function (:data:`DECISION_SIGNATURE`) is at
    address ``fn``, for ``seat``'s decision ``ask``: ``(kind, a, b)``, the decision's kind and its
    legal choices ``a``, ``b`` (integers, passed to the C function as its last three words)."""
    if not _state_typed((st, hm, rp, pol, par, rng)) or not all(
            isinstance(x, types.Integer) for x in (fn, seat)) or not (
            isinstance(ask, types.BaseTuple) and len(ask) == 3
            and all(isinstance(x, types.Integer) for x in ask)):
        return None
    sig = types.int64(fn, st, hm, rp, pol, par, rng, seat, ask)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        state = _state_args(context, builder, signature.args[1:7], args[1:7])
        ints = [context.cast(builder, args[k], signature.args[k], types.int64) for k in (0, 7)]
        ask_ty = signature.args[8]
        ints += [context.cast(builder, builder.extract_value(args[8], i), ask_ty[i], types.int64)
                 for i in range(3)]
        fnty = ir.FunctionType(i64, [v.type for v in state] + [i64] * 4)
        return builder.call(builder.inttoptr(ints[0], fnty.as_pointer()), state + ints[1:])

    return sig, codegen


@jit(forceinline=True)
def searched(st, hm, rp, pol, par, rng, seat, word, ask):
    """The answer of the searching strategy at word ``word`` of the loop table
    (``st[S_LOOP_TABLE]``) to ``seat``'s decision ``ask``, ``(kind, a, b)``: its kind and its
    legal choices ``a``, ``b``, through its C function: the generated dispatch's branch of a
    searching strategy (:mod:`whist_sim.compiled.strategies.decisions`). When the table does not
    hold it (not loaded for the run) it records the word in ``st[S_UNLOADED]``, for the loop's
    caller to raise, and answers the lowest legal choice."""
    t = st[S_LOOP_TABLE]
    fn = word_at(t, word) if t != 0 else np.int64(0)
    if fn != 0:
        return call_decision_at(fn, st, hm, rp, pol, par, rng, seat, ask)
    st[S_UNLOADED] = word
    kind, a, b = ask
    if kind == K_CARD:
        return ctz(np.uint64(a))
    if kind == K_CONTRACT:
        return a if a != b else a + 1
    return np.int64(0)


__all__ = ["DECISION_SIGNATURE", "K_CALL", "K_CARD", "K_CONTRACT", "LOOP_SIGNATURE",
           "TABLE_WORDS", "T_AUDITED", "T_LOOP", "call_decision_at",
           "call_loop_at", "searched", "views", "word_at"]
