"""The one registry of policies, for both engines: names, ids, descriptions, parameters, code.

A seat has a **bidding strategy** (auction calls, Frisch passes and its contract) and a **play
policy** (the cards it plays). Both are chosen by name, here; the compiled engine switches on
their integer ids, the readable reference engine (:mod:`whist_sim.engine.policies`) looks its
twins up by name. docs/ENGINE.md §4-§8 specify the policies both engines play (``random``,
``heuristic``, ``expert``, ``planner``, ``learned``); docs/STRATEGIES.md the others (the
estimators, ``montecarlo``, ``rollout``).

An entry (:class:`PolicyInfo`) is everything the code knows of a policy: its name, its stable
id, its description (the one text: ``--help``, the docs' tables and the reference engine's
:data:`~whist_sim.engine.policies.DESCRIPTIONS` read it), its parameters, where its compiled
decision functions are (:class:`Decisions`: ``module:function`` under
``whist_sim/compiled/strategies/``, or a searching strategy's word of the loop table) and the
name of its reference twin in :mod:`whist_sim.engine.policies`, if it has one. The compiled
dispatch (``whist_sim/compiled/strategies/decisions.py``) is generated from these entries
(:mod:`whist_sim.compiled.strategies.generate`, ``make dispatch``), so a new policy is its own
file plus its entry here (docs/CONTRIBUTING.md, "Adding a strategy"). An entry without the
decision functions of its kind is refused when this module is imported.

Parameterised policies declare each parameter here, once (:class:`Param`: default, legal values,
help); the parser (:mod:`whist_sim.core.spec`), its checks and the help texts read them, and the
compiled engine gets them per seat as a ``float64`` row of length :data:`N_PARAMS`.

This module holds data only (no numba): the reference engine, the command line's help and the
spec parser import it without the compiled engine.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from .play_features import N_FEATURES

BID = "bid"
PLAY = "play"

#: parameters per seat and decision kind: the length of a policy's parameter row (the compiled
#: engine's ``par[k, seat, :]``; ``whist_sim.compiled.ground.layout.N_PARAMS`` is this one)
N_PARAMS = 8
#: the first word of the loop table a searching strategy may take (words 0 and 1 are the loop's
#: address and its check switch, :mod:`whist_sim.compiled.ground.addresses`)
FIRST_SEARCH_WORD = 2


class PolicyError(ValueError):
    """An unknown policy name, or a seating that does not fit the table."""


@dataclass(frozen=True)
class Param:
    """One parameter of a policy, declared once, where its policy is registered.

    ``default``: its value when a spec does not give it; ``lo..hi``: its legal values (inclusive;
    any finite number when unbounded); ``whole``: whole numbers only; ``help``: one line. A
    parameter whose value names a policy (``rollout:base=heuristic``) has ``names``, the kind of
    policy it names (:data:`BID` or :data:`PLAY`), and, when it has one, the ``word`` stored as
    -1 (``table``, ``own``); such a value is stored as the named policy's id, and its legal range
    is those ids (:meth:`bounds`). The engine reads a policy's parameters per seat, in declaration
    order, from a ``float64`` row of length :data:`N_PARAMS`."""

    name: str
    default: float
    lo: float = -math.inf
    hi: float = math.inf
    whole: bool = False
    help: str = ""
    names: str | None = None
    word: str | None = None

    def bounds(self) -> tuple[float, float]:
        """``(lo, hi)``: the declared range, or for a policy-valued parameter the ids of its kind
        (from -1 when it has a ``word``)."""
        if self.names is None:
            return self.lo, self.hi
        return (-1.0 if self.word is not None else 0.0), float(max(
            i.id for i in _registry(self.names).values()))

    @property
    def bounded(self) -> bool:
        """True when the parameter has a range narrower than every finite number."""
        return self.names is not None or math.isfinite(self.lo) or math.isfinite(self.hi)


def _whole(name: str, default: float, lo: float, hi: float, help: str) -> Param:
    """A whole-number parameter in ``lo..hi``."""
    return Param(name, default, lo, hi, True, help)


def _named(name: str, default: float, kind: str, word: str | None, help: str) -> Param:
    """A parameter whose value names a policy of ``kind`` (stored as its id; ``word``: -1)."""
    return Param(name, default, whole=True, help=help, names=kind, word=word)


#: the decisions of each kind of policy: a bidding strategy makes auction calls, Frisch passes and
#: contracts, a play policy plays cards
DECISIONS: dict[str, tuple[str, ...]] = {BID: ("call", "frisch", "contract"), PLAY: ("card",)}


@dataclass(frozen=True)
class Decisions:
    """Where a policy's compiled decision functions are, as ``module:function`` (the module
    relative to ``whist_sim.compiled.strategies``: ``"bidding.heuristic:heuristic_decide_call"``).

    Every function has the signature of its decision point in the deal loop, the loop's own
    arguments first, then the random stream and the parameters (docs/ENGINE.md, "Decisions"):

    * ``call(st, hm, rp, seat, lo, hi, rng, par) -> int``: pass (0) or a legal bid code;
    * ``frisch(st, hm, rp, seat, rng, par) -> uint64``: a mask of three cards of the hand;
    * ``contract(st, hm, rp, seat, lo, forbidden, rng, par) -> int`` in ``lo..N``, not
      ``forbidden``;
    * ``card(st, hm, rp, seat, legal, rng, par) -> int``: a card of the mask ``legal``.

    A strategy that **searches** (plays sampled deals in the loop) is reached through ``word``,
    its word of the loop table (:mod:`whist_sim.compiled.ground.addresses`), instead of a call or
    contract function (bidding) or a card function (play): a searching bidding strategy still
    names its ``frisch``. The compiled dispatch is generated from these names
    (:mod:`whist_sim.compiled.strategies.generate`)."""

    call: str | None = None
    frisch: str | None = None
    contract: str | None = None
    card: str | None = None
    word: int | None = None

    def named(self, decision: str) -> str | None:
        """The ``module:function`` of ``decision`` (``"call"``, ``"frisch"``, ``"contract"``,
        ``"card"``), None when the policy has none (a searching one's search decisions)."""
        return getattr(self, decision)


def _bidder(module: str, call: str, frisch: str, contract: str) -> Decisions:
    """The decisions of a bidding strategy whose functions are in ``bidding.<module>`` (a name
    with a ``:`` is a function of another module)."""
    def at(name: str) -> str:
        return name if ":" in name else f"bidding.{module}:{name}"
    return Decisions(call=at(call), frisch=at(frisch), contract=at(contract))


def _player(module: str, card: str) -> Decisions:
    """The decisions of a play policy whose card function is ``play.<module>:<card>``."""
    return Decisions(card=f"play.{module}:{card}")


@dataclass(frozen=True)
class PolicyInfo:
    """One registered policy.

    ``params``: its :class:`Param` declarations, in the order the kernel reads them from its row.
    ``decide``: where its compiled decision functions are (:class:`Decisions`). ``reference``:
    the name of the function of :mod:`whist_sim.engine.policies` that plays it in the readable
    engine (a whole-deal policy, ``state, rng -> action``), None when only the compiled engine
    has it.
    """

    name: str
    id: int
    kind: str  # BID or PLAY
    description: str
    params: tuple[Param, ...] = field(default=())
    decide: Decisions = field(default=Decisions())
    reference: str | None = None

    @property
    def searches(self) -> bool:
        """True for a strategy that searches: it plays sampled deals in the loop, reached
        through its word of the loop table (``decide.word``)."""
        return self.decide.word is not None

    @property
    def defaults(self) -> dict[str, float]:
        """Every parameter's default, by name, in row order."""
        return {p.name: p.default for p in self.params}

    def param(self, name: str) -> Param | None:
        """The declaration of parameter ``name``, ``None`` when the policy has none so named."""
        return next((p for p in self.params if p.name == name), None)


# ids are stable: they are compiled into the generated dispatch. Never reuse or renumber one. A
# new entry may write its id as a number; these constants name the built-in ones for the code
# that tests for one (the loop's copies of the play, the tests).
BID_RANDOM = 0
BID_HEURISTIC = 1
BID_HCP = 2
BID_LTC = 3
BID_CAUTIOUS = 4
BID_AGGRESSIVE = 5
BID_MONTECARLO = 6
BID_LEARNED = 7
PLAY_RANDOM = 0
PLAY_HEURISTIC = 1
PLAY_EXPERT = 2
PLAY_ROLLOUT = 3
PLAY_PLANNER = 4
PLAY_LEARNED = 5

#: the NT rule's parameters, last in the row of every strategy of the heuristic family
#: (ENGINE.md §5): ``nt`` 1 = on (0: NT is never rated above its estimate, the earlier
#: versions), ``nt_hcp`` the high-card minimum of an NT hand, 0 = the deck's (20 with four
#: players, 14 with three). Kept equal to ``whist_sim.compiled.strategies.bidding.heuristic.NT_HCP``
#: (tested).
NT_PARAMS: tuple[Param, ...] = (
    _whole("nt", 1.0, 0, 1, "1: NT rated as the best suit with an NT hand; 0: never NT"),
    _whole("nt_hcp", 0.0, 0, 40, "high-card minimum of an NT hand; 0: the deck's (20 with four "
           "players, 14 with three)"),
)

_SHADING = ("quarter tricks to spare before it bids in the auction",
            "quarter tricks taken off the estimate of its contract",
            "contracts zero below this many quarter tricks",
            "1: a forbidden contract moves up (0: down)")


def _shading(margin_q: float, shift_q: float, zero_below_q: float, forbidden_up: float
             ) -> tuple[Param, ...]:
    """The parameters of ``cautious`` and ``aggressive`` (one kernel, two sets of defaults)."""
    return (_whole("margin_q", margin_q, -52, 52, _SHADING[0]),
            _whole("shift_q", shift_q, -52, 52, _SHADING[1]),
            _whole("zero_below_q", zero_below_q, 0, 53, _SHADING[2]),
            _whole("forbidden_up", forbidden_up, 0, 1, _SHADING[3])) + NT_PARAMS


#: the heuristic's Frisch passes, which most strategies of its family share
_HEURISTIC_FRISCH = "bidding.heuristic:heuristic_decide_frisch"
#: ``cautious`` and ``aggressive``: one kernel, two sets of defaults
_SHADED = _bidder("estimators", "shaded_decide_call", _HEURISTIC_FRISCH, "shaded_decide_contract")

BID_POLICIES: dict[str, PolicyInfo] = {
    "random": PolicyInfo(
        "random", BID_RANDOM, BID,
        "uniform over the legal calls, Frisch cards and contracts; one draw per decision "
        "(ENGINE.md §4)",
        decide=_bidder("random", "random_decide_call", "random_decide_frisch",
                       "random_decide_contract"),
        reference="random_policy",
    ),
    "heuristic": PolicyInfo(
        "heuristic", BID_HEURISTIC, BID,
        "quarter-trick estimate of the hand per strain: bids its best strain when the estimate "
        "reaches the level, passes its lowest cards from short suits, contracts its estimate "
        "(ENGINE.md §5); nt=1 rates NT as its best suit with a balanced hand, a stopper in every "
        "suit and nt_hcp high-card points (0: 20 with four players, 14 with three; nt=0: never NT, "
        "as before the NT rule)",
        NT_PARAMS,
        decide=_bidder("heuristic", "heuristic_decide_call", "heuristic_decide_frisch",
                       "heuristic_decide_contract"),
        reference="heuristic_policy",
    ),
    # Strategies of the heuristic's family (docs/STRATEGIES.md; kernels in
    # whist_sim/compiled/strategies/bidding/estimators.py and
    # whist_sim/compiled/search/montecarlo.py).
    "hcp": PolicyInfo(
        "hcp", BID_HCP, BID,
        "high-card-point table: A=4 K=3 Q=2 J=1 plus trump length, shortness and NT length "
        "points, divided by points_per_trick; bids its best strain when the rounded estimate "
        "reaches the level + margin, contracts the rounded estimate, zero below zero_below tricks",
        (Param("points_per_trick", 4.0, 0.5, 40.0, help="points that make one trick"),
         Param("trump_length", 4.0, help="points per trump beyond three"),
         Param("shortness", 1.0, help="x points for a side void (3), singleton (2), doubleton (1)"),
         Param("nt_length", 2.0, help="NT: points per card beyond four in a suit"),
         Param("margin", 0.0, help="tricks above the level the estimate needs to bid"),
         Param("zero_below", 1.0, help="contracts zero below this many tricks"))
        + NT_PARAMS,
        decide=_bidder("estimators", "hcp_decide_call", _HEURISTIC_FRISCH, "hcp_decide_contract"),
    ),
    "ltc": PolicyInfo(
        "ltc", BID_LTC, BID,
        "losing-trick count: trumps that are not losers plus side_weight x the side-suit winners "
        "(top cards that are not losers); passes from its shortest suits in a Frisch",
        (Param("side_weight", 0.8, help="weight of a side-suit winner (trumps count 1)"),
         Param("nt_length", 0.5, help="NT: tricks per card beyond four in a suit"),
         Param("margin", 0.0, help="tricks above the level the estimate needs to bid"),
         Param("zero_below", 1.0, help="contracts zero below this many tricks"))
        + NT_PARAMS,
        decide=_bidder("estimators", "ltc_decide_call", "ltc_decide_frisch",
                       "ltc_decide_contract"),
    ),
    "cautious": PolicyInfo(
        "cautious", BID_CAUTIOUS, BID,
        "the heuristic's estimate, shaded down: bids in the auction only with a trick to spare, "
        "contracts its estimate rounded down, and bids zero on weak hands (under 2.5 tricks as a "
        "non-declarer)",
        _shading(4.0, 2.0, 10.0, 0.0),
        decide=_SHADED,
    ),
    "aggressive": PolicyInfo(
        "aggressive", BID_AGGRESSIVE, BID,
        "the heuristic's estimate, pushed up: bids one level above its estimate in the auction, "
        "contracts one more than its estimate rounded down, rarely bids zero",
        _shading(-4.0, -2.0, 2.0, 1.0),
        decide=_SHADED,
    ),
    "montecarlo": PolicyInfo(
        "montecarlo", BID_MONTECARLO, BID,
        "samples n layouts of the hidden cards given its own hand (infer=1: weighted by how well "
        "they explain the calls and contracts so far under the model, STRATEGIES.md), plays "
        "each out for every candidate call or contract (same samples; heuristic bidding, the "
        "play policy play=, own: the seat's own play policy, or the base of a searching one) "
        "and takes the best mean score; draws only from its own sub-stream",
        (_whole("n", 32.0, 0, 4096, "layouts sampled per decision"),
         _whole("calls", 1.0, 0, 1, "1: searches its auction calls too (0: contracts only)"),
         _whole("span", 13.0, 0, 17, "contracts tried within this many of the heuristic's"),
         _whole("slack", 2.0, 0, 17, "strains tried within this many tricks of the best"),
         _named("play", -1.0, PLAY, "own", "the play of the sampled deals (own: the seat's, or "
                "the base of a searching one)"),
         _whole("infer", 1.0, 0, 1, "1: layouts weighted by the calls and contracts so far"),
         _named("model", -1.0, BID, "table", "the strategy the others are read with (table: "
                "each seat's own)"),
         Param("eps", 0.2, 0.0, 1.0, help="weight of a layout per decision the model would "
               "have made otherwise")),
        decide=Decisions(frisch=_HEURISTIC_FRISCH, word=3),
    ),
    "learned": PolicyInfo(
        "learned", BID_LEARNED, BID,
        "contracts the number a model fitted to search values highest: a trick estimate from "
        "suit-blind hand features, the earlier contracts and its position (declarer, middle, "
        "last), spread into a chance of each trick count and scored by the deal's own scoring "
        "(docs/BID_MODEL.md; one model per deck); its auction calls and Frisch passes are the "
        "heuristic's, and nt, nt_hcp the heuristic's NT rule (the models were fitted at the "
        "defaults)",
        NT_PARAMS,
        decide=_bidder("learned", "learned_decide_call", "learned_decide_frisch",
                       "learned_decide_contract"),
        reference="learned_policy",
    ),
}

PLAY_POLICIES: dict[str, PolicyInfo] = {
    "random": PolicyInfo(
        "random", PLAY_RANDOM, PLAY,
        "uniform over the legal cards; one draw per card (ENGINE.md §4)",
        decide=_player("random", "random_decide_card"),
        reference="random_policy",
    ),
    "heuristic": PolicyInfo(
        "heuristic", PLAY_HEURISTIC, PLAY,
        "plays for its contract: wins cheaply while it needs tricks, ducks once it has them "
        "(ENGINE.md §5)",
        decide=_player("heuristic", "heuristic_decide_card"),
        reference="heuristic_policy",
    ),
    "expert": PolicyInfo(
        "expert", PLAY_EXPERT, PLAY,
        "counts the cards (masters, trumps out, voids shown) and plays for the exact contract: "
        "draws trumps with the length, cashes masters nobody can ruff, wins as surely and "
        "cheaply as it can while it needs tricks; once made (or on zero) sheds its most "
        "dangerous cards on tricks it cannot win, under-ruffs, leads cards others can beat "
        "(ENGINE.md §6)",
        decide=_player("expert", "expert_decide_card"),
        reference="expert_policy",
    ),
    "rollout": PolicyInfo(
        "rollout", PLAY_ROLLOUT, PLAY,
        "searches: samples n layouts of the unseen cards consistent with what it knows (cards "
        "played, voids shown, hand sizes, its Frisch passes; infer=1: also the others' calls "
        "and contracts, read with the bidding strategy model=, table: each seat's own, "
        "weighting pool x n layouts by eps per decision the model would have made otherwise and"
        " playing picks x n picks in proportion, each distinct layout once, counted as often as"
        " picked), plays each candidate card on every layout and finishes the deal with the "
        "base policy at every seat, and plays the best mean score for itself (ties: the base "
        "policy's card); draws only from its own stream. race=z drops a candidate once its mean"
        " trails the leader's by more than z standard errors (0: every candidate on every "
        "layout)",
        (_whole("n", 16.0, 1, 4096, "layouts sampled per decision"),
         _named("base", float(PLAY_EXPERT), PLAY, None, "the play that finishes each layout (a "
                "policy that does not search)"),
         Param("race", 1.0, 0.0, 100.0, help="drops a candidate trailing by more than this many "
               "standard errors (0: none)"),
         _whole("infer", 1.0, 0, 1, "1: layouts weighted by the calls and contracts so far"),
         _named("model", -1.0, BID, "table", "the strategy the others are read with (table: "
                "each seat's own)"),
         Param("eps", 0.6, 0.0, 1.0, help="weight of a layout per decision the model would "
               "have made otherwise"),
         _whole("pool", 4.0, 1, 64, "layouts drawn per layout searched (pool x n)"),
         _whole("picks", 2.0, 1, 8, "layouts picked in proportion to their weight (picks x n)")),
        decide=Decisions(word=2),
    ),
    "planner": PolicyInfo(
        "planner", PLAY_PLANNER, PLAY,
        "expert with a plan for the tricks it needs: counts its sure tricks (masters, trump "
        "length, side masters the others can be expected to follow) and, while they cover the "
        "tricks it still needs with margin to spare, loses the trick in progress with a card it "
        "can spare instead of ending over its contract (ENGINE.md §7). side: side-suit rounds "
        "counted beyond the others' average length while trumps are out; lead=1: gives tricks "
        "up at the lead too, with its surest loser (2: low from its longest suit); shed=1: a "
        "spare master may go",
        (_whole("margin", 1.0, 0, 13, "sure tricks to spare before it gives a trick away"),
         _whole("side", 0.0, -13, 13, "side-suit rounds counted beyond the others' average "
                "length"),
         _whole("lead", 0.0, 0, 2, "1: gives tricks away at the lead too; 2: low from its "
                "longest suit"),
         _whole("shed", 1.0, 0, 1, "1: a spare master may go")),
        decide=_player("planner", "planner_card"),
        reference="planner_policy",
    ),
    "learned": PolicyInfo(
        "learned", PLAY_LEARNED, PLAY,
        "learned from search: scores every legal card with integer weights "
        "fitted to the values search gives every candidate card on recorded deals, over "
        f"{N_FEATURES} suit-blind features of the card in 252 situations of the seat and the "
        "trick (ENGINE.md §8), one set of weights per deck (four players, and three with each "
        "three-player deck; docs/PLAY_MODEL.md); plays at simulation speed",
        decide=_player("learned", "learned_decide_card"),
        reference="learned_policy",
    ),
}

#: The default play policy: the play of every seat whose play is not named, in ``simulate``,
#: ``advise``, ``bid-chart``, ``tournament``, ``make run`` and the Python API (a seat ``BID`` alone
#: plays it). The strongest policy that keeps ``make run`` within a few minutes on two cores;
#: change it here only, every command and function takes it from this constant.
DEFAULT_PLAY = "learned"

#: The bidding strategy assumed at the other seats of an answer (``advise --bid-policy``,
#: ``bid-chart --bid``, the web advisor) and seated at a whole table by default (``simulate``,
#: ``make run``, ``deal``). A measured decision (``scripts/other_seats.py``, results/other_seats):
#: the assumption that costs least when the table bids the other way, or, when the two costs
#: cannot be told apart, the faster one to advise with. Change it here only.
DEFAULT_BID = "heuristic"

#: parameters whose value names a policy (``rollout:base=heuristic``, ``rollout:model=hcp``):
#: ``(policy, parameter) -> (kind of the named policy, the word stored as -1 or None)``, read from
#: the :class:`Param` declarations (``names``, ``word``)
POLICY_PARAMS: dict[tuple[str, str], tuple[str, str | None]] = {
    (info.name, p.name): (p.names, p.word)
    for reg in (BID_POLICIES, PLAY_POLICIES) for info in reg.values() for p in info.params
    if p.names is not None
}
#: the names of the strategies that search (their entry has a word of the loop table,
#: :attr:`PolicyInfo.searches`): they play sampled deals in the loop, each compiled as a C
#: function of its own that the loop reaches through its word, and a play policy that searches
#: cannot be the ``base`` of a search. Read from the entries; their ids are
#: ``get_info(name, kind).id``.
SEARCHING_BID: frozenset[str] = frozenset(n for n, i in BID_POLICIES.items() if i.searches)
SEARCHING_PLAY: frozenset[str] = frozenset(n for n, i in PLAY_POLICIES.items() if i.searches)

_REGISTRY: dict[str, dict[str, PolicyInfo]] = {BID: BID_POLICIES, PLAY: PLAY_POLICIES}


def policy_names(kind: str) -> list[str]:
    """Names of the registered policies of ``kind`` (``'bid'`` or ``'play'``)."""
    return list(_registry(kind))


def get_info(name: str, kind: str) -> PolicyInfo:
    """The registered policy ``name`` of ``kind``; :class:`PolicyError` if there is none."""
    reg = _registry(kind)
    if not isinstance(name, str) or name not in reg:
        raise PolicyError(
            f"unknown {kind} policy {name!r} (known: {', '.join(reg)})"
        )
    return reg[name]


def seat_ids(names: Sequence[str], kind: str, players: int) -> np.ndarray:
    """Policy ids by seat (``int64[players]``) for the names by seat; checks the seating."""
    if isinstance(names, str):
        raise PolicyError(
            f"{kind} policies must be a sequence of {players} names (one per seat), got the "
            f"string {names!r}"
        )
    names = list(names)
    if len(names) != players:
        raise PolicyError(
            f"{kind} policies: {len(names)} name(s) given for {players} seats: {names!r}"
        )
    return np.array([get_info(n, kind).id for n in names], dtype=np.int64)


def seat_params(
    names: Sequence[str], kind: str, overrides: Sequence[Mapping[str, float]] | None = None
) -> np.ndarray:
    """Parameter rows by seat (``float64[len(names), N_PARAMS]``): defaults, then ``overrides``."""
    out = np.zeros((len(names), N_PARAMS), dtype=np.float64)
    for s, n in enumerate(names):
        info = get_info(n, kind)
        given = dict(overrides[s]) if overrides is not None else {}
        for extra in set(given) - set(info.defaults):
            raise PolicyError(f"seat {s}: {kind} policy {n!r} has no parameter {extra!r}")
        for j, p in enumerate(info.params):
            out[s, j] = float(given.get(p.name, p.default))
    return out


def describe() -> list[dict[str, object]]:
    """All registered policies as plain dicts (for ``--help`` texts and reports)."""
    rows = []
    for kind, reg in _REGISTRY.items():
        for info in reg.values():
            rows.append(
                {"kind": kind, "name": info.name, "id": info.id, "description": info.description,
                 "params": info.defaults}
            )
    return rows


def _registry(kind: str) -> dict[str, PolicyInfo]:
    if kind not in _REGISTRY:
        raise PolicyError(f"policy kind must be 'bid' or 'play', got {kind!r}")
    return _REGISTRY[kind]


def searching(kind: str, pid: int) -> bool:
    """True when the policy of ``kind`` with id ``pid`` searches (:attr:`PolicyInfo.searches`);
    :class:`PolicyError` for an id with no entry."""
    return by_id(kind, pid).searches


def by_id(kind: str, pid: int) -> PolicyInfo:
    """The entry of ``kind`` whose id is ``pid``; :class:`PolicyError` when there is none (an id
    that no entry holds never reaches the compiled engine)."""
    for info in _registry(kind).values():
        if info.id == pid:
            return info
    raise PolicyError(f"no {kind} policy has the id {pid} (ids: "
                      f"{', '.join(str(i.id) for i in _registry(kind).values())})")


def registry_key() -> tuple[tuple[object, ...], ...]:
    """What the compiled dispatch is generated from: ``(kind, id, name, call, frisch, contract,
    card, word)`` of every entry, in registry order. The generated module keeps the key it was
    written from, and the compiled engine refuses to load a dispatch whose key is not this one
    (:mod:`whist_sim.compiled.strategies.dispatch`)."""
    return tuple((kind, info.id, info.name, info.decide.call, info.decide.frisch,
                  info.decide.contract, info.decide.card, info.decide.word)
                 for kind, reg in _REGISTRY.items() for info in reg.values())


def check_entries() -> None:
    """Refuse an entry that the engines cannot play (:class:`PolicyError` naming it): a name or
    an id taken twice, an id that is not a whole number from 0, a decision function missing for
    its kind (a bidding strategy: call, Frisch and contract, or Frisch and a search word; a play
    policy: card, or a search word), one of the other kind, a search word below
    :data:`FIRST_SEARCH_WORD` or taken twice, a name that is not ``module:function``, more than
    :data:`N_PARAMS` parameters. Run when this module is imported."""
    words: dict[int, str] = {}
    for kind, reg in _REGISTRY.items():
        ids: dict[int, str] = {}
        for key, info in reg.items():
            where = f"{kind} policy {key!r}"
            if info.name != key or info.kind != kind:
                raise PolicyError(f"{where}: its entry says name {info.name!r}, kind "
                                  f"{info.kind!r}")
            if not isinstance(info.id, int) or info.id < 0 or info.id in ids:
                raise PolicyError(f"{where}: id {info.id!r} is not a free whole number from 0 "
                                  f"(taken: {ids})")
            ids[info.id] = key
            if len(info.params) > N_PARAMS:
                raise PolicyError(f"{where} declares more than {N_PARAMS} parameters")
            d = info.decide
            searched = ("call", "contract") if kind == BID else ("card",)
            for decision in ("call", "frisch", "contract", "card"):
                name = d.named(decision)
                need = decision in DECISIONS[kind] and not (
                    info.searches and decision in searched)
                if need and name is None:
                    raise PolicyError(f"{where} has no compiled {decision} function (Decisions."
                                      f"{decision}): every {kind} policy needs one")
                if not need and name is not None:
                    raise PolicyError(f"{where} names a {decision} function it does not use")
                if name is not None and (name.count(":") != 1 or not all(name.split(":"))):
                    raise PolicyError(f"{where}: {decision} function {name!r} is not "
                                      f"'module:function'")
            if d.word is not None:
                if not isinstance(d.word, int) or d.word < FIRST_SEARCH_WORD or d.word in words:
                    raise PolicyError(f"{where}: search word {d.word!r} is not a free whole "
                                      f"number from {FIRST_SEARCH_WORD} (taken: {words})")
                words[d.word] = key


def search_words() -> dict[str, int]:
    """The loop table's word of every searching strategy, by name (its C function's name)."""
    return {info.name: info.decide.word for reg in _REGISTRY.values()
            for info in reg.values() if info.decide.word is not None}


check_entries()


__all__ = [
    "BID",
    "BID_AGGRESSIVE",
    "BID_CAUTIOUS",
    "BID_HCP",
    "BID_HEURISTIC",
    "BID_LEARNED",
    "BID_LTC",
    "BID_MONTECARLO",
    "BID_POLICIES",
    "BID_RANDOM",
    "DECISIONS",
    "DEFAULT_BID",
    "DEFAULT_PLAY",
    "Decisions",
    "FIRST_SEARCH_WORD",
    "NT_PARAMS",
    "N_PARAMS",
    "PLAY",
    "PLAY_EXPERT",
    "PLAY_HEURISTIC",
    "PLAY_LEARNED",
    "PLAY_PLANNER",
    "PLAY_POLICIES",
    "PLAY_RANDOM",
    "PLAY_ROLLOUT",
    "POLICY_PARAMS",
    "Param",
    "PolicyError",
    "PolicyInfo",
    "SEARCHING_BID",
    "SEARCHING_PLAY",
    "by_id",
    "check_entries",
    "describe",
    "get_info",
    "policy_names",
    "registry_key",
    "search_words",
    "searching",
    "seat_ids",
    "seat_params",
]
