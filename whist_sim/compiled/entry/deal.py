"""The deal loop with every strategy (the full loop), and the loops shared by address.

:mod:`whist_sim.compiled.loop.phases` holds the rules and the loop;
:mod:`whist_sim.compiled.strategies.dispatch` the decision points of the strategies that do not
search. This module, one layer up, registers the decision points of the ``FULL`` loop: the
strategies that search (``montecarlo`` bidding, ``rollout`` play: they play sampled deals in the
base loop, :func:`~whist_sim.compiled.loop.shared.run_base_at`), and every other strategy as in
the base loop. It compiles the loop of each mode once, as a C function, and hands out a table of
the loops' addresses (:func:`loop_address`); every entry point that plays deals (batch
simulation, traces, the advisor, the bid charts, tournaments) calls the loop through it
(:func:`play_deal_in`, :func:`run_shared`). One decision asked alone (the table's bots) is
:func:`decide_once`, here beside the decision points it compiles.
"""
from __future__ import annotations

import atexit
import subprocess
import sys
import threading
from contextlib import nullcontext
from typing import Any

import numpy as np
from numba.extending import overload

from ..ground._cache import compile_lock
from ..ground._numba import NUMBA_OPTIONS, jit
from ..ground.layout import (
    PH_AUCTION,
    PH_CONTRACTS,
    PH_DONE,
    PH_FRISCH,
    PH_ILLEGAL,
    PH_PLAY,
    R_PLAYERS,
    S_BASE_LOOP,
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
    steps_base,
)
from ..loop.shared import LOOP_SIGNATURE, call_loop_at, run_base_at, views, word_at
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
        run_base_at(st, hm, rp, pol, par, rng, until)  # st[S_BASE_LOOP]: the shared full loop's
        return True

    return impl


#: the full loop, inlined into the shared full loop's C function, so that its code is generated
#: once; the shared loop runs ``CHECKED`` in its ``FULL`` code, checks switched on
steps_full = jit(inline="always")(_steps)


# ---------------------------------------------------------------- one decision


@jit
def decide_once(mode, st, hm, rp, pol, par, rng):
    """The answer of the seat to act (``st[S_TURN]``) in the current phase; -1 when none: one
    decision of the loop, asked alone (the bots of :mod:`whist_sim.compiled.entry.decide`).
    ``mode``: the decision points of ``BASE`` (no seat searches) or ``FULL`` (registered above,
    in this module; a search plays its rollouts in the base loop at ``st[S_BASE_LOOP]``, which
    the caller sets, :func:`base_loop_address`)."""
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
# The loop of each mode is compiled once, as a C function (cached like every kernel), and every
# caller holds one indirect call per deal (whist_sim.compiled.loop.shared has why and how).

def _shared_base(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, until, checked, base):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    steps_base(BASE, a, b, c, d, e, f, until)


def _shared_full(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, until, checked, base):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    a[S_CHECK] = checked
    a[S_BASE_LOOP] = base
    steps_full(FULL, a, b, c, d, e, f, until)
    a[S_CHECK] = 0
    a[S_BASE_LOOP] = 0


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
    with _SHARED_LOCK:
        func = _LOADED.get(name)
        if func is None:
            func = _load_or_compile(name, may_compile=False)
        if func is None:
            locked = compile_lock(f"loop-{name}") if NUMBA_OPTIONS.get("cache") \
                else nullcontext()
            with locked:
                func = _load_or_compile(name, may_compile=True)
        _LOADED[name] = func
        return func


#: the loops whose compile this process has handed to a process of its own (:func:`compile_ahead`)
_AHEAD: dict[str, Any] = {}


def compile_ahead(mode: LoopMode) -> bool:
    """Start the compile of the loop of ``mode`` in a process of its own, beside this one, when
    this process will need it later (a check under a searching play) and finds it neither loaded
    nor in numba's cache: on two cores the two loops of a first run (the base loop, which the
    answer needs first, and the full loop, which its check needs) then compile at the same
    time. That process takes the cache's compile lock
    (:func:`~whist_sim.compiled.ground._cache.compile_lock`), so :func:`loop_address` here waits
    for it (said as a compile) rather than compiling again. At most one such process per loop
    and process; none without numba's cache. Returns whether one was started."""
    name = _loop_name(mode)
    if not NUMBA_OPTIONS.get("cache") or name in _AHEAD or not _first_compile(name):
        return False
    code = f"from whist_sim.compiled.entry.deal import _shared_loop; _shared_loop({name!r})"
    _AHEAD[name] = _start(code, subprocess.DEVNULL)
    return True


def _loop_name(mode: LoopMode) -> str:
    """The name of the loop that ``mode`` runs (``CHECKED``: the ``FULL`` one)."""
    if not isinstance(mode, LoopMode):
        raise TypeError(f"mode must be BASE, FULL or CHECKED, got {mode!r}")
    return FULL.name if mode is CHECKED else mode.name


def _first_compile(name: str) -> bool:
    """Whether the loop ``name`` is neither loaded nor in numba's cache (a first run); one found
    in the cache is loaded."""
    with _SHARED_LOCK:
        if name in _LOADED:
            return False
        func = _load_or_compile(name, may_compile=False)
        if func is not None:
            _LOADED[name] = func
            return False
    return True


def _start(code: str, stdin: Any) -> Any:
    """A process of this interpreter running ``code``, silent, ended with this one (at exit,
    :func:`_end_ahead`, and on Linux when this process dies, :func:`_end_with_parent`)."""
    if not _STARTED:
        atexit.register(_end_ahead)
    proc = subprocess.Popen(  # noqa: S603 - this interpreter, a fixed program
        [sys.executable, "-c", code], stdin=stdin, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, preexec_fn=_end_with_parent)  # noqa: PLW1509 - main thread
    _STARTED.append(proc)
    return proc


def compile_kernels_ahead(mode: LoopMode, calls: list[tuple[str, str, tuple]]) -> Any:
    """Compile entry points in a process of their own while this one compiles the loop of
    ``mode``, when that loop is neither loaded nor in numba's cache (a first run): an entry
    point calls the loop through its address, so its compile does not wait for the loop's, and
    on two cores the two compile at the same time. ``calls``: ``(module, name, args)`` of each
    jit function, with arguments that compile it and do no work (no deal, no loop called:
    ``loop`` may be 0); they are pickled to that process. Returns the process (the caller waits
    for it, :func:`wait_ahead`, before it calls the kernels, which then load from the cache), or
    None when there is nothing to gain: the loop cached, no numba cache, or a loop already
    compiling in a process of its own (:func:`compile_ahead`, a check's: a third compile on two
    cores would slow that loop, which the command waits for longest) or kernels, or when
    called from a thread other than the main one (a server's worker: a process started there
    runs code before it execs, which is not safe beside other threads)."""
    name = _loop_name(mode)
    if (not NUMBA_OPTIONS.get("cache") or any(p.poll() is None for p in _STARTED)
            or threading.current_thread() is not threading.main_thread()
            or name in _AHEAD or not _first_compile(name)):
        return None
    import pickle

    proc = _start("from whist_sim.compiled.entry.deal import _compile_calls; _compile_calls()",
                  subprocess.PIPE)
    # fed from a thread: the pickle is larger than a pipe holds, and that process reads it only
    # once it has imported the package; this one goes on to its own compile meanwhile
    threading.Thread(target=_feed, args=(proc, pickle.dumps(calls)), daemon=True).start()
    return proc


def _feed(proc: Any, data: bytes) -> None:
    """Write ``data`` to the stdin of ``proc`` and close it (nothing when it has ended)."""
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except (OSError, ValueError):  # it ended: the command compiles the kernels itself
        pass


def wait_ahead(proc: Any) -> None:
    """Wait for a process of :func:`compile_kernels_ahead` (None: nothing to wait for); said
    as a compile while it runs, as waiting for another process's loop is."""
    if proc is None or proc.poll() is not None:
        return
    from numba.core import event

    with event.trigger_event("numba:compile", data={
            "dispatcher": None, "args": None, "return_type": None}):
        proc.wait()


def _compile_calls() -> None:
    """In the process of :func:`compile_kernels_ahead`: read the calls from stdin and make each
    (compiling its function, or loading it from the cache)."""
    import importlib
    import pickle

    for module, name, args in pickle.loads(sys.stdin.buffer.read()):
        getattr(importlib.import_module(module), name)(*args)


#: every process started by :func:`compile_ahead` and :func:`compile_kernels_ahead`
_STARTED: list[Any] = []


def _end_ahead() -> None:
    """At exit: end the compiles started by :func:`compile_ahead` that are still running (the
    command that wanted them is done) and collect every one's exit status."""
    for proc in _STARTED:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()


def _end_with_parent() -> None:
    """In the compiling process, before it starts (Linux): end it when the process that asked
    for it ends, so that a command that stops early (a usage error, Ctrl-C) leaves no compile
    running behind it. Elsewhere a no-op: the compile then finishes and fills the cache."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover - not Linux
        pass


#: the loop tables handed out by :func:`loop_address`, by mode name: ``int64[3]`` of the C
#: function's address, the base loop's address (which the full loop's rollouts call) and
#: ``checked``; kept here so that their addresses stay valid for the life of the process
_TABLES: dict[str, np.ndarray] = {}


def loop_address(mode: LoopMode) -> np.int64:
    """The address of the loop table of ``mode`` (a
    :class:`~whist_sim.compiled.strategies.dispatch.LoopMode` marker): the ``loop`` argument of
    the entry points, which :func:`run_shared` reads. The table holds the address of the loop's
    C function (``CHECKED``: the ``FULL`` one), the base loop's (the full loop's rollouts play in
    it) and ``checked`` (1 for ``CHECKED``); each loop is compiled or loaded on first use in
    this process. It is valid in this process only; pass it to a kernel, never store or send
    it."""
    if not isinstance(mode, LoopMode):
        raise TypeError(f"mode must be BASE, FULL or CHECKED, got {mode!r}")
    with _SHARED_LOCK:
        table = _TABLES.get(mode.name)
    if table is None:
        fn = _shared_loop(BASE.name if mode is BASE else FULL.name).address
        base = _shared_loop(BASE.name).address
        table = np.array([fn, base, int(mode is CHECKED)], dtype=np.int64)
        with _SHARED_LOCK:
            table = _TABLES.setdefault(mode.name, table)
    return np.int64(table.ctypes.data)


def base_loop_address() -> np.int64:
    """The address of the base loop's C function (compiled or loaded on first use): what
    ``st[S_BASE_LOOP]`` holds while the full loop runs, for a search asked alone
    (:func:`decide_once` in ``FULL``)."""
    return np.int64(_shared_loop(BASE.name).address)


@jit(inline="always")
def run_shared(loop, st, hm, rp, pol, par, rng, until):
    """The loop at address ``loop`` (:func:`loop_address`) from the deal's current phase until
    ``until``; raises :class:`~whist_sim.compiled.loop.phases.IllegalDecision` after the checked
    loop stopped on an illegal answer."""
    call_loop_at(word_at(loop, 0), st, hm, rp, pol, par, rng, until, word_at(loop, 2),
                 word_at(loop, 1))
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
