"""The deal state of the compiled engine: plain arrays and the meaning of each slot.

Every phase function and every compiled policy works on the same four arrays, allocated once per
batch (never per deal) and reused deal after deal:

``st`` (``int64[ST_SIZE]``)
    scalar fields of the deal (``S_*`` slots), per-seat fields (``S_CONTRACT + seat`` ...), the
    move record (``S_CALLS + i``, ``S_PLAYS + i``) and a per-seat scratch area for policies
    (``S_SCRATCH + SCRATCH_PER_SEAT * seat + j``: slots ``j`` 0..7 belong to the seat's bidding
    strategy, 8..15 to its play policy; the same split holds for ``H_SCRATCH`` in ``hm``).
``hm`` (``uint64[HM_SIZE]``)
    card masks: hands as dealt, current hands, hands at the start of play, the Frisch passes, the
    cards of the current trick and all played cards, and a per-seat masks scratch for policies.
``rp`` (``int64[RP_SIZE]``)
    the rule options of :class:`whist_sim.core.rules.Rules` as integers (``R_*`` slots); built by
    :func:`rules_array`.
``rng`` (``uint64[1]``)
    the state of the deal's random stream (:mod:`whist_sim.compiled.ground.rng`).

Conventions (docs/ENGINE.md §1): cards ``13 * suit + rank``, hands ``uint64`` masks, strains 0..3 =
C, D, H, S and 4 = NT, calls ``0`` = pass and ``5 * n + strain`` for a bid, seats clockwise.
Fields that do not apply hold ``-1`` (declarer and trump of a thrown-in deal, no card led yet).

The state is complete: ``st[S_PHASE]`` and the fields of that phase say who decides next, so the
one deal loop (:mod:`whist_sim.compiled.loop.phases`) can resume a deal from any point. A caller can
snapshot a deal by copying ``st``, ``hm`` and ``rng`` and continue each copy differently.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...core.registry import N_PARAMS as N_PARAMS  # per seat and decision kind (the registry's)
from ...core.rules import (
    BID_ORDERS,
    FIRST_MIN_LEVEL,
    MAX_FRISCH,
    MOST_TRICKS,
    Rules,
    deck_of,
    scoring_names,
)
from ._numba import jit

MAX_SEATS = 4
#: the most cards a hand holds under any rules (three players, the one_random deck: 17): the
#: size of a buffer with a slot per card of a hand (the kernels do not check bounds)
MAX_HAND = MOST_TRICKS
MAX_CALLS = 256  # auction calls of one deal across all rounds; the longest legal deal needs < 200
MAX_PLAYS = 64  # cards played in one deal (at most 52)
SCRATCH_PER_SEAT = 16

# ---------------------------------------------------------------- st: int64 slots
S_DEAL = 0  # deal index in the run
S_DEALER = 1  # dealer seat
S_FIRST = 2  # first caller of every auction round: (dealer + 1) % P
S_HIGH = 3  # highest bid code in the current auction round, 0 = none yet
S_HIGH_SEAT = 4  # seat that made it, -1 = none
S_MINLEVEL = 5  # minimum auction level n of the current round (5, raised by Frisches)
S_PASSED = 6  # bit s set: seat s has passed in the current auction round
S_NFRISCH = 7  # Frisches played so far
S_THROWN = 8  # 1 if the deal was thrown in
S_NCALLS = 9  # auction calls made so far (all rounds); the calls are at S_CALLS
S_DECLARER = 10  # declarer seat, -1 if none (yet)
S_TRUMP = 11  # 0..3 suit, 4 = NT, -1 if none (yet)
S_LEVEL = 12  # auction level of the winning bid, 0 if none
S_REMOVED = 13  # card removed by the one_random deck, else -1
S_BIDSUM = 14  # sum of the contracts (valid after the contract phase)
S_OVER = 15  # 1 if bid_sum > n_tricks
S_NCONTRACTS = 16  # contracts bid so far in the contract phase
S_TRICK = 17  # index of the current trick, 0-based
S_LEADER = 18  # seat that led the current trick
S_POS = 19  # position of the player to act in the trick (0 = leader .. P-1 = last)
S_LED = 20  # suit led to the current trick, -1 before the lead
S_BEST_CARD = 21  # card winning the current trick so far, -1 before the lead
S_BEST_SEAT = 22  # seat that played it, -1 before the lead
S_NPLAYS = 23  # cards played so far; the cards are at S_PLAYS
S_PHASE = 24  # phase of the deal: PH_AUCTION .. PH_DONE (the loop resumes from it)
S_TURN = 25  # seat to decide next (auction call, Frisch cards, contract or card)
S_NPASS = 26  # auction: passes since the last bid of the round (or since its start: then
#   every call of the round was a pass)
S_NCHOSEN = 28  # Frisch: seats that have chosen their three cards in the current Frisch
S_BAD_SEAT = 29  # seat whose policy gave an illegal answer (the loop raises IllegalDecision)
S_BAD_VALUE = 30  # ... and that answer
S_VOIDS = 31  # voids shown in the play: bit 4 * seat + suit when seat failed to follow that suit
S_CONTRACT = 32  # + seat: contract, -1 before it is bid
S_TRICKS = 36  # + seat: tricks taken so far
S_SCORE = 40  # + seat: score of the deal
S_FLOOR = 44  # + strain (0..4): lowest legal level of a bid in that strain for the seat to call,
#   max_level + 1 when none; written by the loop's legal_calls before every call when the legal
#   bids are not one run of codes (RULES §2: bid_order=suit, or no clubs in the no_suit deck).
#   Strategies read it through call_floor, which computes it when they are one run.
S_REDEALS = 49  # times the deal was cancelled and dealt again (after_third_frisch=redeal)
# slot 50: free
S_LOOP_TABLE = 51  # the address of the loop table while the shared loop runs (set on entry to it
#   and restored on its return, so a finished deal shows 0;
#   whist_sim.compiled.ground.addresses): the searching strategies are reached
#   through it and play their rollouts in the loop it names; 0 otherwise
S_UNLOADED = 52  # the loop table's word of a searching strategy that a seat asked for but the
#   table does not hold (not loaded for the run); the loop's caller raises
S_CALLS = 64  # + i: i-th auction call of the deal
S_PLAYS = S_CALLS + MAX_CALLS  # + i: i-th card played
S_SCRATCH = S_PLAYS + MAX_PLAYS  # + SCRATCH_PER_SEAT * seat + j: policy scratch of seat
ST_SIZE = S_SCRATCH + SCRATCH_PER_SEAT * MAX_SEATS

# phases of a deal (``st[S_PHASE]``), in the order they happen; a thrown-in deal goes from
# PH_AUCTION straight to PH_DONE
PH_AUCTION = 0  # S_TURN makes a call
PH_FRISCH = 1  # S_TURN chooses the three cards it passes (all cards move after the last choice)
PH_CONTRACTS = 2  # S_TURN (bidding position S_NCONTRACTS) bids its contract
PH_PLAY = 3  # S_TURN plays a card (position S_POS in trick S_TRICK)
PH_SCORE = 4  # every trick played: the deal is scored next
PH_DONE = 5  # scored, or thrown in
PH_ILLEGAL = 6  # stopped: a strategy gave an illegal answer (S_BAD_SEAT, S_BAD_VALUE)

# ---------------------------------------------------------------- hm: uint64 slots
H_DEALT = 0  # + seat: hand as dealt (before Frisch)
H_HAND = 4  # + seat: current hand
H_START = 8  # + seat: hand at the start of play (after Frisch)
H_FRISCH = 12  # + 4 * f + seat: the cards seat passed in Frisch f (0-based)
H_TRICK = 24  # cards of the current trick
H_PLAYED = 25  # all cards played in earlier tricks
H_SCRATCH = 32  # + SCRATCH_PER_SEAT * seat + j: policy scratch of seat (masks)
HM_SIZE = H_SCRATCH + SCRATCH_PER_SEAT * MAX_SEATS

# ---------------------------------------------------------------- rp: int64 rule slots
R_PLAYERS = 0
R_NTRICKS = 1  # tricks per deal = cards per hand = highest level/contract
R_HAND = 2
R_MAXLEVEL = 3
R_ONE_RANDOM = 4  # 1: the last deck card (deck[51]) is removed (three_player_deck=one_random)
R_FRISCH = 5
R_RAISES = 6  # frisch_raises_minimum
R_PASS_FINAL = 7
R_DIR = 8  # + f: seat offset of the receiver in Frisch f
R_MAX_FRISCH = 11
R_FIRST_MIN = 12
R_DECK_SIZE = 13
R_DECK_MASK = 14  # the cards of the deck (bit per card code); the one_random deck: all 52
R_BID_ORDER = 15  # 0: bid_order=number, 1: bid_order=suit (RULES §2)
R_LOW_STRAIN = 16  # lowest strain that may be bid: 1 when clubs are out of the deck (no_suit)
R_REDEAL = 17  # 1: after_third_frisch=redeal (RULES §3)
R_CALLS_RUN = 18  # 1: the legal bids are every code of lo..hi (bid_order=number, all strains)
R_DECK_ADJ_Q = 19  # quarter tricks the deck adds to every estimate: 4 * (N - 13) // P (ENGINE.md
#   §5); kept here so that the estimates divide by no player count
R_SHARE_GAP_Q = 20  # a share of the tricks the estimates do not see: 4 * N // P - 13 - R_DECK_ADJ_Q
R_MODEL_DECK = 21  # the deck of the learned models (core.rules.DECKS): four, or three players' deck
R_SCORING = 22  # + i: the i-th scoring number of Rules (core.rules.scoring_names), as declared
RP_SIZE = R_SCORING + len(scoring_names())


def rule_slot(name: str) -> int:
    """The ``rp`` slot of the scoring number ``name`` of :class:`Rules` (``scoring=True``): the
    kernel's score reads it as ``rp[rule_slot("made_bonus")]`` through a module constant."""
    names = scoring_names()
    if name not in names:
        raise KeyError(f"{name!r} is not a scoring number of Rules (those are: "
                       f"{', '.join(names)})")
    return R_SCORING + names.index(name)


# the scoring numbers of Rules, each at its rule slot
_MADE_BONUS = rule_slot("made_bonus")
_MISS_PER_TRICK = rule_slot("miss_per_trick")
_ZERO_UNDER = rule_slot("zero_under")
_ZERO_OVER = rule_slot("zero_over")
_ZERO_FAIL_FIRST = rule_slot("zero_fail_first")
_ZERO_FAIL_REFUND = rule_slot("zero_fail_refund")


@jit(inline="always")
def contract_score(b, t, over, rp):
    """The score (RULES §6) of a contract of ``b`` tricks with ``t`` taken, in a deal that is
    ``over`` (or under), under the scoring numbers of ``rp``: the deal's own score and the
    learned bidder's values read it, so the rule is written once."""
    if b > 0:
        if t == b:
            return t * t + rp[_MADE_BONUS]
        d = t - b if t > b else b - t
        return -rp[_MISS_PER_TRICK] * d
    if t == 0:
        return rp[_ZERO_OVER] if over else rp[_ZERO_UNDER]
    return rp[_ZERO_FAIL_FIRST] + rp[_ZERO_FAIL_REFUND] * (t - 1)


@jit(inline="always")
def call_floor(st, rp, lo, hi, t):
    """The lowest legal level of a bid in strain ``t`` for the seat to call, ``max_level + 1``
    when it has none, given the ``(lo, hi)`` of the loop's ``legal_calls``: a bid ``(n, t)`` is
    legal exactly when ``call_floor(...) <= n <= max_level``.

    When the legal bids are one run of codes (``rp[R_CALLS_RUN]``) the level is computed from
    ``lo`` (the smallest ``n`` with ``5 * n + t >= lo``; none when ``hi < 0``, a seat that may
    only pass), otherwise read from ``st[S_FLOOR + t]``, which ``legal_calls`` wrote: computing
    it costs less than five stores per call, and most deals are played with one run.
    """
    if rp[R_CALLS_RUN] != 0:
        top = rp[R_MAXLEVEL]
        f = run_floor(lo, t)
        return f if (f <= top) & (hi >= 0) else top + 1
    return st[S_FLOOR + t]


@jit(inline="always")
def every_strain_open(rp, lo, hi):
    """True when every strain has a legal bid for the seat to call and its lowest legal level is
    :func:`run_floor` of ``lo``: the legal bids are one run of codes (``rp[R_CALLS_RUN]``) from a
    code ``lo`` at most ``5 * max_level`` (so clubs, the lowest strain, still has a level), and
    the seat may bid (``hi >= 0``). Strategies take their best strain without a legality test
    per strain then: most calls of most deals."""
    return (rp[R_CALLS_RUN] != 0) & (lo <= 5 * rp[R_MAXLEVEL]) & (hi >= 0)


@jit(inline="always")
def run_floor(lo, t):
    """The smallest level ``n`` whose bid in strain ``t`` is at least the code ``lo``: the lowest
    legal level in ``t`` when the legal bids are the run of codes from ``lo`` (``lo >= 1``)."""
    return (lo - t + 4) // 5


def rules_array(rules: Rules) -> np.ndarray:
    """The ``rp`` array of ``rules`` (int64, slots ``R_*``)."""
    rp = np.zeros(RP_SIZE, dtype=np.int64)
    rp[R_PLAYERS] = rules.players
    rp[R_NTRICKS] = rules.n_tricks
    rp[R_HAND] = rules.hand_size
    rp[R_MAXLEVEL] = rules.max_level
    rp[R_ONE_RANDOM] = int(rules.players == 3 and rules.three_player_deck == "one_random")
    rp[R_FRISCH] = int(rules.frisch)
    rp[R_RAISES] = int(rules.frisch_raises_minimum)
    rp[R_PASS_FINAL] = int(rules.pass_is_final)
    for f in range(MAX_FRISCH):
        rp[R_DIR + f] = rules.direction_offset(f)
    rp[R_MAX_FRISCH] = MAX_FRISCH
    rp[R_FIRST_MIN] = FIRST_MIN_LEVEL
    rp[R_DECK_SIZE] = int(rules.deck_mask).bit_count()
    rp[R_DECK_MASK] = int(rules.deck_mask)
    rp[R_BID_ORDER] = BID_ORDERS.index(rules.bid_order)
    rp[R_LOW_STRAIN] = rules.lowest_strain
    rp[R_REDEAL] = int(rules.after_third_frisch == "redeal")
    rp[R_CALLS_RUN] = int(rules.bid_order == "number" and rules.lowest_strain == 0)
    rp[R_DECK_ADJ_Q] = (4 * (rules.n_tricks - 13)) // rules.players
    rp[R_SHARE_GAP_Q] = (4 * rules.n_tricks) // rules.players - 13 - rp[R_DECK_ADJ_Q]
    rp[R_MODEL_DECK] = deck_of(rules.players, rules.three_player_deck)
    for i, name in enumerate(scoring_names()):
        rp[R_SCORING + i] = getattr(rules, name)
    return rp


def deck_array(rules: Rules) -> np.ndarray:
    """The card codes of ``rules.deck_mask``, ascending (int64): the deck before the shuffle."""
    m = int(rules.deck_mask)
    return np.array([c for c in range(52) if m >> c & 1], dtype=np.int64)


#: scratch of the sampler of hidden hands (:mod:`whist_sim.compiled.ground.sampler`): ``work`` int64
#: and ``tab`` float64, the table of layout counts: up to four bound suits, by the states of all
#: places but the last (four players: three places of 0..13 cards; three: two of 0..17)
SAMPLER_WORK = 72
SAMPLER_TAB = 4 * 14 * 14 * 14


def sampler_scratch() -> tuple[np.ndarray, np.ndarray]:
    """Fresh ``(work, tab)`` scratch of the sampler of hidden hands, for one thread."""
    return np.zeros(SAMPLER_WORK, dtype=np.int64), np.zeros(SAMPLER_TAB, dtype=np.float64)


def new_state() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fresh ``(st, hm, rng)`` arrays for one thread of deals."""
    st = np.zeros(ST_SIZE, dtype=np.int64)
    hm = np.zeros(HM_SIZE, dtype=np.uint64)
    rng = np.zeros(1, dtype=np.uint64)
    return st, hm, rng


class Table(NamedTuple):
    """The table a kernel plays at, as plain arrays: ``rp`` the rules' slots (int64, ``R_*``),
    ``deck`` the deck's cards (int64, :func:`deck_array`), ``pol`` the seated strategies' ids
    (int64 ``[2, P]``: row 0 bidding, row 1 play) and ``par`` their parameters (float64
    ``[2, P, N_PARAMS]``). A tournament's ``pol`` and ``par`` have one more leading axis, one
    row per seating."""

    rp: np.ndarray
    deck: np.ndarray
    pol: np.ndarray
    par: np.ndarray


class Deal(NamedTuple):
    """One thread's deal in play: the state ``st`` (int64, ``S_*``), the hands ``hm`` (uint64,
    ``H_*``), the random stream's counter ``rng`` (uint64 ``[1]``) and the dealing scratch
    ``work`` (int64, at least 52 long; the sampler's ``work`` where hidden hands are dealt)."""

    st: np.ndarray
    hm: np.ndarray
    rng: np.ndarray
    work: np.ndarray


def new_deal(work: np.ndarray | None = None) -> Deal:
    """A fresh :class:`Deal` for one thread (``work``: 52 zeros unless given)."""
    st, hm, rng = new_state()
    return Deal(st, hm, rng, np.zeros(52, dtype=np.int64) if work is None else work)
