"""The decision points of the deal loop: which strategy decides, by seat.

The one deal loop (:mod:`whist_sim.compiled.loop.phases`) asks four functions for every decision;
each switches on the integer id of the seat's strategy, ``pol[0, seat]`` for bidding decisions and
``pol[1, seat]`` for cards (:mod:`whist_sim.core.registry` holds the registry of ids).
Parameterised strategies read their parameters from ``par[0, seat, j]`` (bidding) or ``par[1,
seat, j]`` (play), ``j < N_PARAMS``; pass ``par`` on, do not slice it (a slice costs a reference
count per decision).

The loop hands every decision its legal choices, and checks the answer (the loop owns legality):

* ``choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng) -> call``: pass (``0``) or a legal
  bid: a code in ``lo..hi`` (none when ``hi < lo``) whose level is at least the lowest legal level
  of its strain, ``call_floor(st, rp, lo, hi, strain)`` (:mod:`whist_sim.compiled.ground.layout`;
  with ``bid_order=suit``, or without clubs in the deck, not every code of ``lo..hi`` is legal);
* ``choose_frisch(mode, pol, par, st, hm, rp, seat, rng) -> uint64``: three cards of the hand;
* ``choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng) -> contract`` in
  ``lo..N``, not ``forbidden`` (``-1`` when nothing is forbidden);
* ``choose_card(mode, pol, par, st, hm, rp, seat, legal, rng) -> card`` from the mask ``legal``.

Every strategy sees the whole deal state (``st``, ``hm``, ``rp``:
:mod:`whist_sim.compiled.ground.layout`) and the random stream, and must only read what its seat may
know. It may keep per-seat caches in its seat's scratch slots: bidding strategies use slots 0..7,
play policies 8..15.

**One loop text, the searches by address.** Strategies that search (``montecarlo`` bidding,
``rollout`` play) play sampled deals to the end with the deal loop itself. So that no compiled
function calls itself, and the loop does not carry the searches' code, each searching strategy is
compiled on its own, as a C function, and the decision points reach it through the loop table
(``searched``, :mod:`whist_sim.compiled.ground.addresses`): a run compiles only the searches
it seats. The loop's first argument ``mode``, a named marker (:class:`LoopMode`, each of its own
numba type), says what a run asks of it:

* :data:`BASE`: no seat searches;
* :data:`FULL`: a seat may search (its loop table holds the searches seated);
* :data:`AUDITED`: every answer checked (the tests' mode), in a loop compiled for it (the
  checks cost 5-10 % of the deal rate, so the others' loop holds none; see :func:`audits`).

Any other ``mode`` (a plain ``0``, say) is refused when the kernel compiles, by name.

The decision points (``choose_*``) are the same in every mode (the loop's checks,
:func:`audits`, and its play copies are what differ by mode): numba inlines each into its caller,
and they ask the strategies' ``base_*`` functions, each compiled once and inlined into the loop by
LLVM (``forceinline``): a real call per decision would cost more than the decision itself.

**The dispatch is generated.** ``base_call``, ``base_frisch``, ``base_contract`` and ``base_card``
are written from the registry's entries into :mod:`.decisions` by :mod:`.generate` (``make
dispatch``): each entry names its compiled decision functions
(:class:`~whist_sim.core.registry.Decisions`), or a searching strategy its word of the loop
table. A new strategy is its own file plus its entry (docs/CONTRIBUTING.md, "Adding a
strategy"); nothing here changes. This module refuses to load a generated file that is stale
(an entry added or changed since), and :func:`loop_mode` an id that no entry holds.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core.errors import TypingError
from numba.core.imputils import lower_constant
from numba.extending import (
    NativeValue,
    intrinsic,
    models,
    overload,
    register_model,
    typeof_impl,
    unbox,
)

from ...core.registry import (
    BID,
    PLAY,
    PLAY_HEURISTIC,
    PLAY_RANDOM,
    PolicyError,
    registry_key,
    searching,
)
from ..ground._numba import NUMBA_OPTIONS, jit
from ..ground.addresses import searched as searched  # its earlier home was here
from ..ground.layout import R_PLAYERS
from . import decisions
from .decisions import base_call, base_card, base_contract, base_frisch
from .play.heuristic import heuristic_play
from .play.random import random_card


def check_generated(key: tuple = decisions.REGISTRY_KEY) -> None:
    """Refuse a generated dispatch (:mod:`.decisions`) whose registry ``key`` is not the
    registry's now (:func:`~whist_sim.core.registry.registry_key`): an entry added or changed
    since it was generated would play another strategy's code, or none. Run when this module is
    imported, so nothing compiles until ``make dispatch`` has written it again."""
    if key != registry_key():
        raise PolicyError("whist_sim/compiled/strategies/decisions.py is stale: the registry "
                          "(whist_sim/core/registry.py) changed since it was generated; run "
                          "`make dispatch` (python -m whist_sim.compiled.strategies.generate)")


check_generated()


class LoopMode:
    """A named marker of the loop a kernel is compiled for: :data:`BASE`, :data:`FULL` or
    :data:`AUDITED`, the only three values. A kernel is compiled once per marker (each has its
    own numba type, :class:`LoopModeType`); the marker carries no data. Pickled, it comes back as
    the same object."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple:
        return (mode_named, (self.name,))


class LoopModeType(types.Type):
    """The numba type of one :class:`LoopMode` marker (an empty value)."""

    def __init__(self, name: str) -> None:
        self.mode = name
        super().__init__(name=f"LoopMode({name})")


@register_model(LoopModeType)
class _LoopModeModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [])


#: ``mode`` of the loop that searching strategies run (only non-searching strategies decide).
BASE = LoopMode("BASE")
#: ``mode`` of the loop that every other caller runs (every strategy decides).
FULL = LoopMode("FULL")
#: ``mode`` of the audited loop: as ``FULL``, and every answer is checked against the legal
#: choices (an illegal one raises ``IllegalDecision``). The tests run every strategy through it;
#: the checks cost 5-10 % of the deal rate, so simulations run ``FULL``.
AUDITED = LoopMode("AUDITED")
BASE_TYPE = LoopModeType("BASE")
FULL_TYPE = LoopModeType("FULL")
AUDITED_TYPE = LoopModeType("AUDITED")
_MODES = {m.name: (m, t) for m, t in ((BASE, BASE_TYPE), (FULL, FULL_TYPE),
                                      (AUDITED, AUDITED_TYPE))}


def mode_named(name: str) -> LoopMode:
    """The marker called ``name`` (``"BASE"``, ``"FULL"``, ``"AUDITED"``)."""
    return _MODES[name][0]


@typeof_impl.register(LoopMode)
def _typeof_mode(val, c):
    return _MODES[val.name][1]


@unbox(LoopModeType)
def _unbox_mode(typ, obj, c):
    return NativeValue(ir.Constant(c.context.get_value_type(typ), []))


@lower_constant(LoopModeType)
def _constant_mode(context, builder, ty, pyval):
    return ir.Constant(context.get_value_type(ty), [])


def audits(mode, st):
    """True when the loop of this ``mode`` checks every answer (compiled only): in ``AUDITED``
    only. The shared loops are compiled for ``BASE`` (every unaudited run) and ``AUDITED`` (the
    tests' runs), so an unaudited run's code holds no check."""
    raise NotImplementedError("compiled only")


def _marker(mode) -> None:
    """Refuse, by name, a ``mode`` that is not a loop mode marker (when a kernel compiles)."""
    if not isinstance(mode, LoopModeType):
        raise TypingError("mode must be a loop mode marker of "
                          "whist_sim.compiled.strategies.dispatch "
                          f"(BASE, FULL or AUDITED), got a value of type {mode}")


@overload(audits, inline="always")
def _audits(mode, st):
    _marker(mode)
    if mode == AUDITED_TYPE:
        return lambda mode, st: True
    return lambda mode, st: False


#: numba options of the decision points' implementations (not cached on their own: they are
#: compiled into the cached loop).
OVERLOAD_OPTIONS = {k: v for k, v in NUMBA_OPTIONS.items() if k != "cache"}
OVERLOAD_OPTIONS["forceinline"] = True


def loop_mode(pol: np.ndarray, audited: bool = False) -> LoopMode:
    """The ``mode`` an entry point runs the seating ``pol`` (``int64[2, P]``) in: ``AUDITED``
    when asked; ``BASE`` when no seat has a strategy that searches (its loop table then loads
    no search); else ``FULL``. :class:`~whist_sim.core.registry.PolicyError` for an id that no
    entry of the registry holds."""
    if audited:
        return AUDITED
    if any(searching(BID, int(b)) for b in pol[0]) or any(
            searching(PLAY, int(q)) for q in pol[1]):
        return FULL
    return BASE


@intrinsic
def marked(typingctx, mode):
    """Nothing, compiled: refuses, when a kernel compiles, a ``mode`` that is not a loop mode
    marker (by name)."""
    _marker(mode)
    return types.none(mode), lambda context, builder, signature, args: None


@jit(inline="always")
def choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
    """Auction call of ``seat`` (see the module doc)."""
    marked(mode)
    return base_call(pol, par, st, hm, rp, seat, lo, hi, rng)


@jit(inline="always")
def choose_frisch(mode, pol, par, st, hm, rp, seat, rng):
    """The three cards ``seat`` passes in a Frisch."""
    marked(mode)
    return base_frisch(pol, par, st, hm, rp, seat, rng)


@jit(inline="always")
def choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """Contract of ``seat``."""
    marked(mode)
    return base_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)


@jit(inline="always")
def choose_card(mode, pol, par, st, hm, rp, seat, legal, rng):
    """Card played by ``seat``."""
    marked(mode)
    return base_card(pol, par, st, hm, rp, seat, legal, rng)


@jit(inline="always")
def one_play_policy(pol, rp):
    """The play policy id of every seat when they all play the same one, else -1."""
    pid = pol[1, 0]
    for s in range(1, rp[R_PLAYERS]):
        if pol[1, s] != pid:
            return np.int64(-1)
    return pid


def choose_card_of(mode, only, pol, par, st, hm, rp, seat, rng, trick):
    """:func:`choose_card` in a play where every seat plays policy ``only`` (``random`` or
    ``heuristic``: small inlined kernels, for which the dispatch and the other policies' code
    cost a large share of a card), or any mix when ``only`` is -1 (compiled only). The loop
    passes ``only`` as a constant, and the overload below chooses at compile time: each copy of
    its play holds one policy's kernel and no dispatch, and compiles no other. ``trick``:
    ``(legal, hand, pos, led, best, trump)``, the seat's legal cards, its hand and the trick so
    far as the loop holds them in registers (the same as ``st`` shows), for the policy of a copy
    to read."""
    raise NotImplementedError("compiled only")


@overload(choose_card_of, jit_options=OVERLOAD_OPTIONS, inline="always", prefer_literal=True)
def _choose_card_of(mode, only, pol, par, st, hm, rp, seat, rng, trick):
    if not isinstance(only, types.IntegerLiteral):
        raise TypingError("choose_card_of: `only` must be a constant")
    if only.literal_value == PLAY_RANDOM:
        def copy_random(mode, only, pol, par, st, hm, rp, seat, rng, trick):
            return random_card(st, hm, rp, seat, trick[0], rng)
        return copy_random
    if only.literal_value == PLAY_HEURISTIC:
        def copy_heuristic(mode, only, pol, par, st, hm, rp, seat, rng, trick):
            _legal, hand, pos, led, best, trump = trick
            return heuristic_play(st, rp, seat, hand, pos, led, best, trump)
        return copy_heuristic
    if only.literal_value >= 0:
        raise TypingError(f"choose_card_of: no copy for play policy {only.literal_value}")

    def general(mode, only, pol, par, st, hm, rp, seat, rng, trick):
        return choose_card(mode, pol, par, st, hm, rp, seat, trick[0], rng)
    return general
