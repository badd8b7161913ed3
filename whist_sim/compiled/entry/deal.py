"""The deal loop with every strategy (``run_full``), and the loop shared by address.

:mod:`whist_sim.compiled.loop.phases` holds the rules and the loop;
:mod:`whist_sim.compiled.strategies.dispatch` the decision points of the strategies that do not
search. This module, one layer up, registers the decision points of the ``FULL`` loop: the
strategies that search (``montecarlo`` bidding, ``rollout`` play: they run ``run_base`` on sampled
deals), and every other strategy as in the base loop. It compiles the loop of each mode once, as a C
function (:func:`loop_address`), and every entry point that plays deals (batch simulation, traces,
the advisor, the bid charts, tournaments) calls it through its address (:func:`play_deal_in`,
:func:`run_shared`). One decision asked alone (the table's bots) is :func:`decide_once`, here
beside the decision points it compiles.
"""

from __future__ import annotations

import threading
from contextlib import nullcontext
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload
from numba.np.arrayobj import populate_array

from ..ground._cache import compile_lock
from ..ground._numba import NUMBA_OPTIONS, jit
from ..ground.layout import (
    N_PARAMS,
    PH_AUCTION,
    PH_CONTRACTS,
    PH_DONE,
    PH_FRISCH,
    PH_ILLEGAL,
    PH_PLAY,
    R_PLAYERS,
    S_CHECK,
    S_PHASE,
    S_TURN,
)
from ..ground.rng import stream_start_mixed
from ..loop.phases import (
    IllegalDecision,
    _steps,
    begin_deal,
    deal_cards,
    legal_calls,
    legal_cards,
    legal_contracts,
    redeal,
    redeal_due,
    run_base,
    steps_base,
)
from ..search.montecarlo import mc_call, mc_contract
from ..search.rollout import rollout_card
from ..strategies.dispatch import (
    BASE,
    CHECKED,
    CHECKED_TYPE,
    FULL,
    FULL_TYPE,
    OVERLOAD_OPTIONS,
    LoopMode,
    base_call,
    base_card,
    base_contract,
    base_frisch,
    choose_call,
    choose_card,
    choose_contract,
    choose_frisch,
    in_base_loop,
)
from ..strategies.registry import BID_MONTECARLO, PLAY_ROLLOUT


@overload(choose_call, jit_options=OVERLOAD_OPTIONS)
def _full_choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
        if pol[0, seat] == BID_MONTECARLO:
            return mc_call(pol, par, st, hm, rp, seat, lo, hi, rng)
        return base_call(pol, par, st, hm, rp, seat, lo, hi, rng)

    return impl


@overload(choose_frisch, jit_options=OVERLOAD_OPTIONS)
def _full_choose_frisch(mode, pol, par, st, hm, rp, seat, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, rng):
        return base_frisch(pol, par, st, hm, rp, seat, rng)

    return impl


@overload(choose_contract, jit_options=OVERLOAD_OPTIONS)
def _full_choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
        if pol[0, seat] == BID_MONTECARLO:
            return mc_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)
        return base_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)

    return impl


@overload(choose_card, jit_options=OVERLOAD_OPTIONS)
def _full_choose_card(mode, pol, par, st, hm, rp, seat, legal, rng):
    if mode != FULL_TYPE and mode != CHECKED_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, legal, rng):
        if pol[1, seat] == PLAY_ROLLOUT:
            return rollout_card(pol, par, st, hm, rp, seat, legal, rng)
        return base_card(pol, par, st, hm, rp, seat, legal, rng)

    return impl


@overload(in_base_loop, jit_options=OVERLOAD_OPTIONS)
def _full_in_base_loop(mode, st, hm, rp, pol, par, rng, until):
    if mode != FULL_TYPE:
        return None

    def impl(mode, st, hm, rp, pol, par, rng, until):
        if st[S_CHECK] != 0:  # the checked loop checks every answer: no hand-over
            return False
        for s in range(rp[R_PLAYERS]):
            if pol[0, s] == BID_MONTECARLO or pol[1, s] == PLAY_ROLLOUT:
                return False
        run_base(BASE, st, hm, rp, pol, par, rng, until)
        return True

    return impl


#: the full loop, inlined into its callers (the shared full loop's C function, :func:`run_full`),
#: so that its code is generated once in each rather than once more for a function of its own;
#: the shared loop runs ``CHECKED`` in its ``FULL`` code, checks switched on
steps_full = jit(inline="always")(_steps)


def _run_full(mode, st, hm, rp, pol, par, rng, until):
    """:func:`whist_sim.compiled.loop.phases.run_base` with every strategy (``mode`` ``FULL`` or
    ``CHECKED``); raises :class:`~whist_sim.compiled.loop.phases.IllegalDecision` after the checked
    loop stopped on an illegal answer."""
    steps_full(mode, st, hm, rp, pol, par, rng, until)
    if st[S_PHASE] == PH_ILLEGAL:
        raise IllegalDecision("a strategy gave an illegal answer")


#: the loop with every strategy, for ``mode`` ``FULL`` or ``CHECKED``
run_full = jit(_run_full)


# ---------------------------------------------------------------- one decision


@jit
def decide_once(mode, st, hm, rp, pol, par, rng):
    """The answer of the seat to act (``st[S_TURN]``) in the current phase; -1 when none: one
    decision of the loop, asked alone (the bots of :mod:`whist_sim.compiled.entry.decide`).
    ``mode``: the decision points of ``BASE`` (no seat searches) or ``FULL`` (registered above,
    in this module)."""
    seat = st[S_TURN]
    phase = st[S_PHASE]
    if phase == PH_AUCTION:
        lo, hi = legal_calls(st, rp, seat)
        return np.int64(choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng))
    if phase == PH_FRISCH:
        return np.int64(choose_frisch(mode, pol, par, st, hm, rp, seat, rng))
    if phase == PH_CONTRACTS:
        lo, forbidden = legal_contracts(st, rp)
        return np.int64(choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng))
    if phase == PH_PLAY:
        legal = legal_cards(st, hm, seat)
        return np.int64(choose_card(mode, pol, par, st, hm, rp, seat, legal, rng))
    return np.int64(-1)



# ---------------------------------------------------------------- the loop shared by address
#
# Every cached function that calls the loop carries its own copy of the loop's machine code: a
# second entry point costs a second code generation of the whole loop. So the entry points call
# the loop through its address instead: the loop of each mode is compiled once, as a C function
# (cached like every kernel), and an entry point holds one indirect call per deal.

#: the C signature of the shared loop: the state arrays by their first element and lengths,
#: ``P`` (``pol`` is ``int64[2, P]``, ``par`` ``float64[2, P, N_PARAMS]``), ``until``, and
#: ``checked`` (1: check every answer; the full loop only)
LOOP_SIGNATURE = types.void(
    types.CPointer(types.int64), types.CPointer(types.uint64), types.CPointer(types.int64),
    types.CPointer(types.int64), types.CPointer(types.float64), types.CPointer(types.uint64),
    types.int64, types.int64, types.int64, types.int64, types.int64, types.int64, types.int64)


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
    """The state arrays at the shared loop's pointers (see :data:`LOOP_SIGNATURE`)."""
    return (_array_at(st, (nst,)), _array_at(hm, (nhm,)), _array_at(rp, (nrp,)),
            _array_at(pol, (np.int64(2), p)), _array_at(par, (np.int64(2), p, N_PARAMS)),
            _array_at(rng, (nrng,)))


views = jit(inline="always")(_views)


def _shared_base(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, until, checked):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    steps_base(BASE, a, b, c, d, e, f, until)


def _shared_full(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, until, checked):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    a[S_CHECK] = checked
    steps_full(FULL, a, b, c, d, e, f, until)
    a[S_CHECK] = 0


#: the C functions compiled, by mode name (``CHECKED`` is the ``FULL`` one, checks switched on)
_SHARED = {"BASE": _shared_base, "FULL": _shared_full}
#: numba options of the shared loops (a C function takes no ``nogil``: it holds no GIL; the
#: cache is enabled apart, as the ``cfunc`` decorator does)
_CFUNC_OPTIONS = {k: v for k, v in NUMBA_OPTIONS.items() if k in ("error_model", "boundscheck",
                                                                   "fastmath", "_nrt")}


_SHARED_LOCK = threading.Lock()
_LOADED: dict[str, Any] = {}


def _load_or_compile(name: str, may_compile: bool) -> Any:
    """The C function of the loop of mode ``name`` from numba's cache; else compiled when
    ``may_compile`` (said as a compile to
    :class:`~whist_sim.compiled.ground._numba.CompileWatch`: numba tells its listeners of a jit
    function's compile, not of a C function's), or None."""
    from numba.core import event, sigutils
    from numba.core.ccallback import CFunc
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:  # numba's typing context is not safe across threads
        func = CFunc(_SHARED[name], sigutils.normalize_signature(LOOP_SIGNATURE), {},
                     dict(_CFUNC_OPTIONS))
        if NUMBA_OPTIONS.get("cache"):
            func.enable_caching()
        try:
            cached = func._cache.load_overload(func._sig, func._targetdescr.target_context)
        except AttributeError:  # pragma: no cover - numba internals moved: a compile
            cached = None
        if cached is not None:
            func.compile()  # loads what was found
            return func
        if not may_compile:
            return None
        with event.trigger_event("numba:compile", data={
                "dispatcher": func, "args": None, "return_type": None}):
            func.compile()
        return func


def _shared_loop(name: str) -> Any:
    """The compiled C function of the loop of mode ``name``, loaded from numba's cache or
    compiled once, by whichever thread of whichever process asks first: a process that finds it
    missing from the cache takes the cache's compile lock
    (:func:`~whist_sim.compiled.ground._cache.compile_lock`) and looks again before it compiles,
    so that another process compiling it at the same time is waited for (and said as a compile)
    rather than repeated."""
    from numba.core import event

    def waiting() -> Any:  # another process compiles the loop: a compile, as said here
        return event.trigger_event("numba:compile", data={
            "dispatcher": None, "args": None, "return_type": None})

    with _SHARED_LOCK:
        func = _LOADED.get(name)
        if func is None:
            func = _load_or_compile(name, may_compile=False)
        if func is None:
            locked = compile_lock(f"loop-{name}", waiting) if NUMBA_OPTIONS.get("cache") \
                else nullcontext()
            with locked:
                func = _load_or_compile(name, may_compile=True)
        _LOADED[name] = func
        return func


def loop_address(mode: LoopMode) -> np.int64:
    """The address of the loop of ``mode`` (a
    :class:`~whist_sim.compiled.strategies.dispatch.LoopMode` marker), compiled or loaded on first
    use in this process: the ``loop`` argument of the entry points. It is valid in this process
    only; pass it to a kernel, never store or send it. ``CHECKED`` is the ``FULL`` loop's
    address with its lowest bit set (a function's address is aligned: that bit is otherwise 0),
    which :func:`run_shared` passes on as the loop's ``checked`` argument."""
    if not isinstance(mode, LoopMode):
        raise TypeError(f"mode must be BASE, FULL or CHECKED, got {mode!r}")
    if mode is CHECKED:
        return np.int64(int(loop_address(FULL)) | 1)
    address = int(_shared_loop(mode.name).address)
    if address & 1:  # pragma: no cover - a C function is aligned on every platform numba targets
        raise RuntimeError("the shared loop's address is odd: the checked mark cannot be set")
    return np.int64(address)


@intrinsic
def _call_loop(typingctx, loop, st, hm, rp, pol, par, rng, until):
    """Call the shared loop at address ``loop`` on the state arrays (each C-contiguous, of the
    dtypes of :data:`LOOP_SIGNATURE`); the address's lowest bit is the ``checked`` argument
    (:func:`loop_address`)."""
    want = ((st, types.int64, 1), (hm, types.uint64, 1), (rp, types.int64, 1),
            (pol, types.int64, 2), (par, types.float64, 3), (rng, types.uint64, 1))
    for ty, dtype, ndim in want:
        if not (isinstance(ty, types.Array) and ty.dtype == dtype and ty.ndim == ndim
                and ty.layout == "C"):
            return None
    if not (isinstance(loop, types.Integer) and isinstance(until, types.Integer)):
        return None
    sig = types.void(loop, st, hm, rp, pol, par, rng, until)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        arrays = [context.make_array(ty)(context, builder, v)
                  for ty, v in zip(signature.args[1:7], args[1:7], strict=True)]
        ptrs = [a.data for a in arrays]
        lengths = [builder.extract_value(arrays[k].shape, 0) for k in (0, 1, 2, 5)]
        p = builder.extract_value(arrays[3].shape, 1)
        fnty = ir.FunctionType(ir.VoidType(), [q.type for q in ptrs] + [i64] * 7)
        address = context.cast(builder, args[0], signature.args[0], types.int64)
        one = ir.Constant(i64, 1)
        checked = builder.and_(address, one)
        fn = builder.inttoptr(builder.and_(address, ir.Constant(i64, ~1)), fnty.as_pointer())
        until = context.cast(builder, args[7], signature.args[7], types.int64)
        builder.call(fn, ptrs + lengths + [p, until, checked])
        return context.get_dummy_value()

    return sig, codegen


@jit(inline="always")
def run_shared(loop, st, hm, rp, pol, par, rng, until):
    """The loop at address ``loop`` (:func:`loop_address`) from the deal's current phase until
    ``until``; raises :class:`~whist_sim.compiled.loop.phases.IllegalDecision` after the checked
    loop stopped on an illegal answer."""
    _call_loop(loop, st, hm, rp, pol, par, rng, until)
    if st[S_PHASE] == PH_ILLEGAL:
        raise IllegalDecision("a strategy gave an illegal answer")
    if st[S_PHASE] < until:  # a C function cannot raise: say so if it stopped short
        raise RuntimeError("the shared loop stopped before the deal's end (see the message "
                           "printed above)")


@jit(inline="always")
def play_deal_in(loop, seed_mix, d, rp, deck, pol, par, deal):
    """Play deal ``d`` of the run whose seed mixes to ``seed_mix`` from the shuffle to the score
    (dealer ``d % P``, random stream ``(seed, d)``, docs/ENGINE.md §2-3) in ``deal`` (a
    :class:`~whist_sim.compiled.ground.layout.Deal`), with the rules' slots ``rp``, the deck and
    the seating ``pol`` / ``par``, in the shared loop at address ``loop`` (:func:`loop_address`
    of the seating's mode, :func:`~whist_sim.compiled.strategies.dispatch.loop_mode`: ``BASE``
    when no searching strategy is seated). A deal cancelled after the third Frisch is dealt again
    from the same stream (``after_third_frisch=redeal``; ``st[S_REDEALS]`` counts it). Inlined
    into its callers."""
    st, hm, rng, work = deal
    rng[0] = stream_start_mixed(seed_mix, np.uint64(d))
    begin_deal(st, hm, rp, d, d % rp[R_PLAYERS])
    deal_cards(st, hm, rp, deck, work, rng)
    run_shared(loop, st, hm, rp, pol, par, rng, np.int64(PH_DONE))
    while redeal_due(st, rp):  # after_third_frisch=redeal: the same dealer deals again
        redeal(st, hm, rp, deck, work, rng)
        run_shared(loop, st, hm, rp, pol, par, rng, np.int64(PH_DONE))
