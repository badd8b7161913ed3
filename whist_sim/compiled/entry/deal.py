"""The compiled loop and searching strategies, reached by address; one decision asked alone.

:mod:`whist_sim.compiled.loop.phases` holds the rules and the loop;
:mod:`whist_sim.compiled.strategies.dispatch` its decision points. This module compiles the loop
once, as a C function, and each searching strategy (``montecarlo`` bidding, ``rollout`` play) as
a C function of its own, on first use, and hands out **loop tables**
(:mod:`whist_sim.compiled.ground.addresses`): the loop's address and those of the searches a run
seats (:func:`loop_address`). Every entry point that plays deals (batch simulation, traces, the
advisor, the bid charts, tournaments) calls the loop through its table (:func:`play_deal_in`,
:func:`run_shared`); the loop reaches the searches through it, and they play their sampled deals
in the loop through it. A run that seats no search compiles none. One decision asked alone (the
table's bots) is :func:`decide_once`.
"""
from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading
from contextlib import nullcontext
from typing import Any

import numpy as np

from ..ground._cache import compile_lock
from ..ground._numba import NUMBA_OPTIONS, jit
from ..ground.addresses import (
    DECISION_SIGNATURE,
    K_CALL,
    LOOP_SIGNATURE,
    T_AUDITED,
    T_LOOP,
    TABLE_WORDS,
    call_loop_at,
    views,
    word_at,
)
from ..ground.layout import (
    PH_AUCTION,
    PH_CONTRACTS,
    PH_DONE,
    PH_FRISCH,
    PH_ILLEGAL,
    PH_PLAY,
    R_PLAYERS,
    S_LOOP_TABLE,
    S_PHASE,
    S_TURN,
    S_UNLOADED,
)
from ..ground.rng import stream_start_mixed
from ..loop.phases import (
    IllegalDecision,
    begin_deal,
    deal_cards,
    legal_calls,
    legal_cards,
    legal_contracts,
    redeal,
    redeal_due,
    steps_inlined,
)
from ..search.montecarlo import mc_call, mc_contract
from ..search.rollout import rollout_card
from ..strategies.dispatch import (
    AUDITED,
    BASE,
    LoopMode,
    choose_call,
    choose_card,
    choose_contract,
    choose_frisch,
)
from ..strategies.registry import (
    BID,
    BID_POLICIES,
    PLAY,
    PLAY_POLICIES,
    SEARCHING_BID,
    SEARCHING_PLAY,
    by_id,
    search_words,
)

# ---------------------------------------------------------------- one decision


@jit
def decide_once(mode, st, hm, rp, pol, par, rng):
    """The answer of the seat to act (``st[S_TURN]``) in the current phase; -1 when none: one
    decision of the loop, asked alone (the bots of :mod:`whist_sim.compiled.entry.decide`).
    ``mode``: a loop mode marker (the decisions are the same in every mode). A searching seat is
    reached through the loop table at ``st[S_LOOP_TABLE]``, which the caller sets
    (:func:`loop_address`); without it the answer is the lowest legal one and
    ``st[S_UNLOADED]`` is set."""
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



# ---------------------------------------------------------------- compiled once, reached by address
#
# The loop and each searching strategy are compiled once, as C functions (cached like every
# kernel), and every caller holds one indirect call (whist_sim.compiled.ground.addresses has why).

def _shared_base(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, until, table):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    held = a[S_LOOP_TABLE]
    a[S_LOOP_TABLE] = table
    steps_inlined(BASE, a, b, c, d, e, f, until)
    a[S_LOOP_TABLE] = held


def _shared_audited(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, until, table):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    held = a[S_LOOP_TABLE]
    a[S_LOOP_TABLE] = table
    steps_inlined(AUDITED, a, b, c, d, e, f, until)
    a[S_LOOP_TABLE] = held


def _search_rollout(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, seat, kind, x, y):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    return rollout_card(d, e, a, b, c, seat, np.uint64(x), f)


def _search_montecarlo(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p, seat, kind, x, y):
    a, b, c, d, e, f = views(st, hm, rp, pol, par, rng, nst, nhm, nrp, nrng, p)
    if kind == K_CALL:
        return mc_call(d, e, a, b, c, seat, x, y, f)
    return mc_contract(d, e, a, b, c, seat, x, y, f)


#: the C functions, by name: the loop (``BASE``, which the unaudited runs of every mode run), the
#: audited loop (``AUDITED``) and the searching strategies (by their registered names), each
#: with its signature
_SHARED = {"BASE": (_shared_base, LOOP_SIGNATURE), "AUDITED": (_shared_audited, LOOP_SIGNATURE),
           "rollout": (_search_rollout, DECISION_SIGNATURE),
           "montecarlo": (_search_montecarlo, DECISION_SIGNATURE)}
#: the loop table's word of each searching strategy, by its C function's name (its registered
#: name; the word its registry entry names)
_SEARCH_WORDS = search_words()
for _name in _SEARCH_WORDS:
    if _name not in _SHARED:  # its entry names a word, but it has no C function to put there
        raise ImportError(f"the searching strategy {_name!r} has no C function in _SHARED of "
                          f"whist_sim.compiled.entry.deal")
#: the name of the C function of each searching strategy id (its registered name): bidding,
#: then play
_SEARCH_OF_BID = {BID_POLICIES[n].id: n for n in SEARCHING_BID}
_SEARCH_OF_PLAY = {PLAY_POLICIES[n].id: n for n in SEARCHING_PLAY}
#: numba options of the C functions (a C function takes no ``nogil``: it holds no GIL; the
#: cache is enabled apart, as the ``cfunc`` decorator does)
_CFUNC_OPTIONS = {k: v for k, v in NUMBA_OPTIONS.items() if k in ("error_model", "boundscheck",
                                                                   "fastmath", "_nrt")}


_SHARED_LOCK = threading.Lock()
_LOADED: dict[str, Any] = {}


def _load_or_compile(name: str, may_compile: bool) -> Any:
    """The C function ``name`` (:data:`_SHARED`) from numba's cache; else compiled when
    ``may_compile`` (said as a compile to
    :class:`~whist_sim.compiled.ground._numba.CompileWatch`: numba tells its listeners of a jit
    function's compile, not of a C function's), or None."""
    from numba.core import event, sigutils
    from numba.core.ccallback import CFunc
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:  # numba's typing context is not safe across threads
        pyfunc, signature = _SHARED[name]
        options = dict(_CFUNC_OPTIONS)
        if name in _SEARCH_WORDS:  # a search allocates its scratch per decision
            options["_nrt"] = True
        func = CFunc(pyfunc, sigutils.normalize_signature(signature), {}, options)
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
    """The compiled C function ``name`` (the loop, ``BASE``, or a searching strategy by its
    registered name, :data:`_SHARED`), loaded from numba's cache or
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


#: the C functions whose compile this process has handed to a process of its own
#: (:func:`compile_ahead`), by name
_AHEAD: dict[str, Any] = {}


def compile_ahead(mode: LoopMode, searches: tuple[str, ...] | None = None) -> bool:
    """Start the compile of the searching strategies that a run of ``mode`` will need later (a
    check under a searching play) in a process of its own, beside this one, when this process
    finds them neither loaded nor in numba's cache: on two cores the loop, which the answer
    needs first, and the searches of its check then compile at the same time. ``searches``: the
    C functions' names (``("rollout",)``); every search of ``mode`` when None (none for
    ``BASE``). That process takes the cache's compile lock
    (:func:`~whist_sim.compiled.ground._cache.compile_lock`), so :func:`loop_address` here waits
    for it (said as a compile) rather than compiling again. At most one such process per search
    and process; none without numba's cache. Returns whether one was started."""
    names = _searches_of(mode, None) if searches is None else tuple(searches)
    unknown = [n for n in names if n not in _SEARCH_WORDS]
    if unknown:
        raise ValueError(f"no searching strategy named {unknown[0]!r}")
    if not NUMBA_OPTIONS.get("cache"):
        return False
    todo = [n for n in names if n not in _AHEAD and _first_compile(n)]
    if not todo:
        return False
    code = ("from whist_sim.compiled.entry.deal import _shared_loop; "
            + "; ".join(f"_shared_loop({n!r})" for n in todo))
    proc = _start(code, subprocess.DEVNULL)
    for n in todo:
        _AHEAD[n] = proc
    return True


def _searches_of(mode: LoopMode, pol: np.ndarray | None) -> tuple[str, ...]:
    """The names of the searching strategies' C functions that a run of ``mode`` with the
    seating ``pol`` (``int64[2, P]``, or a stack of seatings ``int64[..., 2, P]``) needs: those
    seated in ``pol``; every one when ``pol`` is None, but none for ``BASE``.
    :class:`~whist_sim.core.registry.PolicyError` for an id of ``pol`` that no entry holds."""
    if not isinstance(mode, LoopMode):
        raise TypeError(f"mode must be BASE, FULL or AUDITED, got {mode!r}")
    if pol is None:
        return () if mode is BASE else tuple(_SEARCH_WORDS)
    pol = np.asarray(pol)
    for kind, row in ((BID, 0), (PLAY, 1)):  # an id with no entry never reaches the loop
        for pid in np.unique(pol[..., row, :]):
            by_id(kind, int(pid))
    seated = {_SEARCH_OF_BID[int(b)] for b in pol[..., 0, :].ravel() if int(b) in _SEARCH_OF_BID}
    seated |= {_SEARCH_OF_PLAY[int(q)] for q in pol[..., 1, :].ravel()
               if int(q) in _SEARCH_OF_PLAY}
    return tuple(n for n in _SEARCH_WORDS if n in seated)


def _first_compile(name: str) -> bool:
    """Whether the C function ``name`` is neither loaded nor in numba's cache (a first run); one
    found in the cache is loaded."""
    with _SHARED_LOCK:
        if name in _LOADED:
            return False
        func = _load_or_compile(name, may_compile=False)
        if func is not None:
            _LOADED[name] = func
            return False
    return True


def _start(code: str, stdin: Any, behind: bool = False) -> Any:
    """A process of this interpreter running ``code``, silent, ended with this one (at exit,
    :func:`_end_ahead`, and on Linux when this process dies, :func:`_end_with_parent`);
    ``behind``: at the lowest priority, so that it takes only a core the others leave idle."""
    if not _STARTED:
        atexit.register(_end_ahead)
    proc = subprocess.Popen(  # noqa: S603 - this interpreter, a fixed program
        [sys.executable, "-c", code], stdin=stdin, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_end_behind if behind else _end_with_parent)  # noqa: PLW1509 - main thread
    _STARTED.append(proc)
    return proc


def compile_kernels_ahead(mode: LoopMode, calls: list[tuple[str, str, tuple]]) -> Any:
    """Compile entry points in a process of their own while this one compiles the loop (which
    every ``mode`` runs), when the loop is neither loaded nor in numba's cache (a first run): an
    entry point calls the loop through its address, so its compile does not wait for the loop's,
    and on two cores the two compile at the same time. ``calls``: ``(module, name, args)`` of each
    jit function, with arguments that compile it and do no work (no deal, no loop called:
    ``loop`` may be 0); they are pickled to that process. Returns the process (the caller waits
    for it, :func:`wait_ahead`, before it calls the kernels, which then load from the cache), or
    None when there is nothing to gain: the loop cached, no numba cache, kernels already
    compiling, or when called from a thread other than the main one (a server's worker: a
    process started there runs code before it execs, which is not safe beside other threads).
    Beside searches compiling in a process of their own (:func:`compile_ahead`, a check's), it
    runs at the lowest priority: on two cores it then takes the core that they or the loop
    leave idle first, and slows neither."""
    if not isinstance(mode, LoopMode):
        raise TypeError(f"mode must be BASE, FULL or AUDITED, got {mode!r}")
    searching = any(p.poll() is None for p in _AHEAD.values())
    if (not NUMBA_OPTIONS.get("cache") or any(p.poll() is None for p in _KERNELS)
            or threading.current_thread() is not threading.main_thread()
            or not _first_compile(AUDITED.name if mode is AUDITED else BASE.name)):
        return None
    import pickle

    proc = _start("from whist_sim.compiled.entry.deal import _compile_calls; _compile_calls()",
                  subprocess.PIPE, behind=searching)
    _KERNELS.append(proc)
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
#: the processes started by :func:`compile_kernels_ahead`
_KERNELS: list[Any] = []


def _end_ahead() -> None:
    """At exit: end the compiles started by :func:`compile_ahead` that are still running (the
    command that wanted them is done) and collect every one's exit status."""
    for proc in _STARTED:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()


def _end_behind() -> None:
    """:func:`_end_with_parent`, at the lowest priority (Unix; elsewhere at the usual one)."""
    _end_with_parent()
    try:
        os.nice(19)
    except (OSError, AttributeError):  # pragma: no cover - not Unix
        pass


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


#: the loop tables handed out by :func:`loop_address`, by ``audited`` and the searches they hold:
#: ``int64[TABLE_WORDS]`` (:mod:`whist_sim.compiled.ground.addresses`); kept here so that
#: their addresses stay valid for the life of the process
_TABLES: dict[tuple[bool, tuple[str, ...]], np.ndarray] = {}


def loop_address(mode: LoopMode, pol: np.ndarray | None = None) -> np.int64:
    """The address of a loop table for a run of ``mode`` (a
    :class:`~whist_sim.compiled.strategies.dispatch.LoopMode` marker) with the seating ``pol``
    (``int64[2, P]``, or a stack of seatings ``int64[..., 2, P]``):
    the ``loop`` argument of the entry points, which :func:`run_shared` reads. The table holds
    the address of the loop's C function (``AUDITED``: the audited loop's; every other mode: the
    one loop), ``audited`` (1 for ``AUDITED``) and the addresses of
    the searching strategies seated in ``pol`` (every one when ``pol`` is None, none for
    ``BASE``), each compiled or loaded on first use in this process; a seat whose search the
    table lacks makes :func:`run_shared` raise. It is valid in this process only; pass it to a
    kernel, never store or send it."""
    searches = _searches_of(mode, pol)
    key = (mode is AUDITED, searches)
    with _SHARED_LOCK:
        table = _TABLES.get(key)
    if table is None:
        table = np.zeros(TABLE_WORDS, dtype=np.int64)
        table[T_LOOP] = _shared_loop(AUDITED.name if mode is AUDITED else BASE.name).address
        table[T_AUDITED] = int(mode is AUDITED)
        for name in searches:
            table[_SEARCH_WORDS[name]] = _shared_loop(name).address
        with _SHARED_LOCK:
            table = _TABLES.setdefault(key, table)
    return np.int64(table.ctypes.data)


def base_loop_address() -> np.int64:
    """The address of the loop's C function (compiled or loaded on first use)."""
    return np.int64(_shared_loop(BASE.name).address)


@jit(inline="always")
def run_shared(loop, st, hm, rp, pol, par, rng, until):
    """The loop of the loop table at address ``loop`` (:func:`loop_address`) from the deal's
    current phase until ``until``; raises :class:`~whist_sim.compiled.loop.phases.IllegalDecision`
    after an audited loop stopped on an illegal answer, and RuntimeError when a seat's searching
    strategy is not in the table."""
    call_loop_at(word_at(loop, T_LOOP), st, hm, rp, pol, par, rng, until, loop)
    if st[S_UNLOADED] != 0:
        st[S_UNLOADED] = 0
        raise RuntimeError("a seat's searching strategy was not loaded for this run (the "
                           "seating passed to loop_address does not hold it)")
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
    the seating ``pol`` / ``par``, in the shared loop of the loop table at address ``loop``
    (:func:`loop_address` of the seating's mode,
    :func:`~whist_sim.compiled.strategies.dispatch.loop_mode`, and of ``pol``). A deal cancelled
    after the third Frisch is dealt again from the same stream (``after_third_frisch=redeal``;
    ``st[S_REDEALS]`` counts it). Inlined into its callers."""
    st, hm, rng, work = deal
    rng[0] = stream_start_mixed(seed_mix, np.uint64(d))
    begin_deal(st, hm, rp, d, d % rp[R_PLAYERS])
    deal_cards(st, hm, rp, deck, work, rng)
    run_shared(loop, st, hm, rp, pol, par, rng, np.int64(PH_DONE))
    while redeal_due(st, rp):  # after_third_frisch=redeal: the same dealer deals again
        redeal(st, hm, rp, deck, work, rng)
        run_shared(loop, st, hm, rp, pol, par, rng, np.int64(PH_DONE))
