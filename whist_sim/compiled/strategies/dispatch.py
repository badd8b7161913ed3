"""The decision points of the deal loop: which strategy decides, by seat.

The one deal loop (:mod:`whist_sim.compiled.loop.phases`) asks four functions for every decision;
each switches on the integer id of the seat's strategy, ``pol[0, seat]`` for bidding decisions and
``pol[1, seat]`` for cards (:mod:`whist_sim.compiled.strategies.registry` holds the registry of
ids). Parameterised strategies read their parameters from ``par[0, seat, j]`` (bidding) or ``par[1,
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

**Two loops from one text.** Strategies that search (``montecarlo``) play sampled deals to the end
with the deal loop itself. So that no compiled function calls itself, the loop is compiled twice
from the same source, told apart by its first argument ``mode``, a named marker
(:class:`LoopMode`, each of its own numba type):

* :data:`BASE`: the loop that searches run. Its decision points know only the strategies that do
  not search (this module).
* :data:`FULL`: the loop that simulations, the advisor and tournaments run. Its decision points
  are registered by :mod:`whist_sim.compiled.entry.deal`, one layer up: the searching strategies,
  and everything else by the base decision points below.
* :data:`CHECKED`: ``FULL`` with every answer checked (the tests' mode). The shared loop runs it
  as the full loop's own code with the checks switched on (``st[S_CHECK]``, see
  :func:`checks`), so it costs no compile of its own.

Any other ``mode`` (a plain ``0``, say) is refused when the kernel compiles, by name.

The decision points are numba overloads of the stubs below: an overload returns its
implementation only for its own ``mode`` type. They are inlined into the loop by LLVM
(``forceinline``): a real call per decision would cost more than the decision itself.

To add a strategy that does not search: one branch per decision kind in the ``base_*`` functions.
One that searches: its branch in :mod:`whist_sim.compiled.entry.deal`.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core.errors import TypingError
from numba.core.imputils import lower_constant
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from ..ground._numba import NUMBA_OPTIONS, jit
from ..ground.layout import R_PLAYERS, S_CHECK
from .bidding.estimators import (
    hcp_call,
    hcp_contract,
    ltc_call,
    ltc_contract,
    ltc_frisch,
    shaded_call,
    shaded_contract,
)
from .bidding.heuristic import heuristic_call, heuristic_contract, heuristic_frisch, nt_rule
from .bidding.random import random_call, random_contract, random_frisch
from .play.expert import expert_card
from .play.heuristic import heuristic_card, heuristic_play
from .play.learned import learned_card
from .play.planner import planner_card
from .play.random import random_card
from .registry import (
    BID_AGGRESSIVE,
    BID_CAUTIOUS,
    BID_HCP,
    BID_HEURISTIC,
    BID_LTC,
    BID_MONTECARLO,
    PLAY_EXPERT,
    PLAY_HEURISTIC,
    PLAY_LEARNED,
    PLAY_PLANNER,
    PLAY_RANDOM,
    SEARCHING_BIDS,
    SEARCHING_PLAYS,
)


class LoopMode:
    """A named marker of the loop a kernel is compiled for: :data:`BASE`, :data:`FULL` or
    :data:`CHECKED`, the only three values. A kernel is compiled once per marker (each has its
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
#: ``mode`` of the checked loop: as ``FULL``, and every answer is checked against the legal
#: choices (an illegal one raises ``IllegalDecision``). The tests run every strategy through it;
#: the checks cost 5-10 % of the deal rate, so simulations run ``FULL``.
CHECKED = LoopMode("CHECKED")
BASE_TYPE = LoopModeType("BASE")
FULL_TYPE = LoopModeType("FULL")
CHECKED_TYPE = LoopModeType("CHECKED")
_MODES = {m.name: (m, t) for m, t in ((BASE, BASE_TYPE), (FULL, FULL_TYPE),
                                      (CHECKED, CHECKED_TYPE))}


def mode_named(name: str) -> LoopMode:
    """The marker called ``name`` (``"BASE"``, ``"FULL"``, ``"CHECKED"``)."""
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


def checks(mode, st):
    """True when the loop of this ``mode`` checks every answer (compiled only): never in
    ``BASE``, always in ``CHECKED``, and in ``FULL`` while ``st[S_CHECK]`` is set (the shared
    loop's checked entry sets it: one compiled full loop serves both)."""
    raise NotImplementedError("compiled only")


@overload(checks, inline="always")
def _checks(mode, st):
    if not isinstance(mode, LoopModeType):
        raise TypingError("mode must be a loop mode marker of "
                          "whist_sim.compiled.strategies.dispatch "
                          f"(BASE, FULL or CHECKED), got a value of type {mode}")
    if mode == CHECKED_TYPE:
        return lambda mode, st: True
    if mode == FULL_TYPE:
        return lambda mode, st: st[S_CHECK] != 0
    return lambda mode, st: False


#: numba options of the decision points' implementations (not cached on their own: they are
#: compiled into the cached loop).
OVERLOAD_OPTIONS = {k: v for k, v in NUMBA_OPTIONS.items() if k != "cache"}
OVERLOAD_OPTIONS["forceinline"] = True


def loop_mode(pol: np.ndarray, checked: bool = False) -> LoopMode:
    """The ``mode`` an entry point runs the seating ``pol`` (``int64[2, P]``) in: ``CHECKED``
    when asked; ``BASE`` when no seat has a strategy that searches (the same deals as ``FULL``,
    which hands such a deal to the base loop, from an entry point compiled without the searching
    strategies); else ``FULL``."""
    if checked:
        return CHECKED
    if any(int(b) in SEARCHING_BIDS for b in pol[0]) or any(
            int(q) in SEARCHING_PLAYS for q in pol[1]):
        return FULL
    return BASE


def in_base_loop(mode, st, hm, rp, pol, par, rng, until):
    """Play the deal in the base loop (``run_base``) when the loop of ``mode`` may: ``FULL`` with
    no searching strategy seated, whose decisions are then the base loop's. Returns True when it
    did (compiled only). The base loop holds no call to a searching strategy, so the compiler
    keeps more of the deal in registers: about 2 % of the deal rate."""
    raise NotImplementedError("compiled only")


@overload(in_base_loop, jit_options=OVERLOAD_OPTIONS)
def _base_in_base_loop(mode, st, hm, rp, pol, par, rng, until):
    if mode == FULL_TYPE:
        return None  # registered by compiled.entry.deal, which knows the searching strategies
    return lambda mode, st, hm, rp, pol, par, rng, until: False


def choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
    """Auction call of ``seat`` (compiled only; see the module doc)."""
    raise NotImplementedError("a decision point of the compiled loop")


def choose_frisch(mode, pol, par, st, hm, rp, seat, rng):
    """The three cards ``seat`` passes in a Frisch (compiled only)."""
    raise NotImplementedError("a decision point of the compiled loop")


def choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """Contract of ``seat`` (compiled only)."""
    raise NotImplementedError("a decision point of the compiled loop")


def choose_card(mode, pol, par, st, hm, rp, seat, legal, rng):
    """Card played by ``seat`` (compiled only)."""
    raise NotImplementedError("a decision point of the compiled loop")


# ---------------------------------------------------------------- strategies that do not search


@jit(forceinline=True)
def base_call(pol, par, st, hm, rp, seat, lo, hi, rng):
    """Auction call by the seat's bidding strategy (``random`` for any id not listed)."""
    pid = pol[0, seat]
    if pid == BID_HEURISTIC:
        return heuristic_call(st, hm, rp, seat, lo, hi, nt_rule(par, seat, 0))
    elif pid == BID_HCP:
        return hcp_call(st, hm, rp, seat, lo, hi, par)
    elif pid == BID_LTC:
        return ltc_call(st, hm, rp, seat, lo, hi, par)
    elif pid == BID_CAUTIOUS or pid == BID_AGGRESSIVE:
        return shaded_call(st, hm, rp, seat, lo, hi, par)
    return random_call(st, hm, rp, seat, lo, hi, rng)


@jit(forceinline=True)
def base_frisch(pol, par, st, hm, rp, seat, rng):
    """Frisch cards by the seat's bidding strategy (no strategy searches its Frisch: the
    heuristic's three cards for every strategy but ``ltc`` and ``random``)."""
    pid = pol[0, seat]
    if pid == BID_LTC:
        return ltc_frisch(st, hm, rp, seat)
    elif (pid == BID_HEURISTIC or pid == BID_HCP or pid == BID_CAUTIOUS or pid == BID_AGGRESSIVE
          or pid == BID_MONTECARLO):
        return heuristic_frisch(st, hm, rp, seat, rng)
    return random_frisch(st, hm, rp, seat, rng)


@jit(forceinline=True)
def base_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng):
    """Contract by the seat's bidding strategy (``random`` for any id not listed)."""
    pid = pol[0, seat]
    if pid == BID_HEURISTIC:
        return heuristic_contract(st, hm, rp, seat, lo, forbidden, nt_rule(par, seat, 0))
    elif pid == BID_HCP:
        return hcp_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pid == BID_LTC:
        return ltc_contract(st, hm, rp, seat, lo, forbidden, par)
    elif pid == BID_CAUTIOUS or pid == BID_AGGRESSIVE:
        return shaded_contract(st, hm, rp, seat, lo, forbidden, par)
    return random_contract(st, hm, rp, seat, lo, forbidden, rng)


@jit(forceinline=True)
def base_card(pol, par, st, hm, rp, seat, legal, rng):
    """Card by the seat's play policy (``random`` for any id not listed)."""
    pid = pol[1, seat]
    if pid == PLAY_HEURISTIC:
        return heuristic_card(st, hm, rp, seat, legal, rng)
    elif pid == PLAY_EXPERT:
        return expert_card(st, hm, rp, seat, legal, rng)
    elif pid == PLAY_PLANNER:
        return planner_card(st, hm, rp, seat, legal, rng, par)
    elif pid == PLAY_LEARNED:
        return learned_card(st, hm, rp, seat, legal, rng)
    return random_card(st, hm, rp, seat, legal, rng)


@jit(inline="always")
def one_play_policy(pol, rp):
    """The play policy id of every seat when they all play the same one, else -1."""
    pid = pol[1, 0]
    for s in range(1, rp[R_PLAYERS]):
        if pol[1, s] != pid:
            return np.int64(-1)
    return pid


def choose_card_of(mode, only, pol, par, st, hm, rp, seat, legal, rng, trick):
    """:func:`choose_card` in a play where every seat plays policy ``only`` (``random`` or
    ``heuristic``: small inlined kernels, for which the dispatch and the other policies' code
    cost a large share of a card), or any mix when ``only`` is -1 (compiled only). The loop
    passes ``only`` as a constant, and the overload below chooses at compile time: each copy of
    its play holds one policy's kernel and no dispatch, and compiles no other. ``trick``:
    ``(hand, pos, led, best, trump)``, the seat's hand and the trick so far as the loop holds them
    in registers (the same as ``st`` shows), for the policy of a copy to read."""
    raise NotImplementedError("compiled only")


@overload(choose_card_of, jit_options=OVERLOAD_OPTIONS, inline="always", prefer_literal=True)
def _choose_card_of(mode, only, pol, par, st, hm, rp, seat, legal, rng, trick):
    if not isinstance(only, types.IntegerLiteral):
        raise TypingError("choose_card_of: `only` must be a constant")
    if only.literal_value == PLAY_RANDOM:
        def copy_random(mode, only, pol, par, st, hm, rp, seat, legal, rng, trick):
            return random_card(st, hm, rp, seat, legal, rng)
        return copy_random
    if only.literal_value == PLAY_HEURISTIC:
        def copy_heuristic(mode, only, pol, par, st, hm, rp, seat, legal, rng, trick):
            hand, pos, led, best, trump = trick
            return heuristic_play(st, rp, seat, hand, pos, led, best, trump)
        return copy_heuristic
    if only.literal_value >= 0:
        raise TypingError(f"choose_card_of: no copy for play policy {only.literal_value}")

    def general(mode, only, pol, par, st, hm, rp, seat, legal, rng, trick):
        return choose_card(mode, pol, par, st, hm, rp, seat, legal, rng)
    return general


@overload(choose_call, jit_options=OVERLOAD_OPTIONS)
def _base_choose_call(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
    if mode != BASE_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, lo, hi, rng):
        return base_call(pol, par, st, hm, rp, seat, lo, hi, rng)

    return impl


@overload(choose_frisch, jit_options=OVERLOAD_OPTIONS)
def _base_choose_frisch(mode, pol, par, st, hm, rp, seat, rng):
    if mode != BASE_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, rng):
        return base_frisch(pol, par, st, hm, rp, seat, rng)

    return impl


@overload(choose_contract, jit_options=OVERLOAD_OPTIONS)
def _base_choose_contract(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
    if mode != BASE_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, lo, forbidden, rng):
        return base_contract(pol, par, st, hm, rp, seat, lo, forbidden, rng)

    return impl


@overload(choose_card, jit_options=OVERLOAD_OPTIONS)
def _base_choose_card(mode, pol, par, st, hm, rp, seat, legal, rng):
    if mode != BASE_TYPE:
        return None

    def impl(mode, pol, par, st, hm, rp, seat, legal, rng):
        return base_card(pol, par, st, hm, rp, seat, legal, rng)

    return impl
