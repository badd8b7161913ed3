"""Israeli Whist as an OpenSpiel game: ``israeli_whist``, one deal, on the reference engine.

``import whist_sim.interfaces.openspiel`` registers the game with OpenSpiel (the ``openspiel``
extra: ``pip install 'whist-sim[openspiel]'``); then ``pyspiel.load_game("israeli_whist")`` or
``pyspiel.load_game("israeli_whist", {"players": 3, "zero_over": 30})`` (docs/OPENSPIEL.md).

Parameters
    Every option of :class:`whist_sim.core.rules.Rules` (RULES.md) under its own name, with the
    rule book's default (``frisch_directions`` as text with ``/``: ``"left/across/right"``, as
    OpenSpiel's game strings separate parameters by commas), and ``dealer`` (the seat that deals,
    default 0).

One game is one deal (RULES §2-§6), played by :class:`whist_sim.engine.state.DealState`:

* **Chance**: the deal, card by card: chance outcome ``c`` (a card, ``13 * suit + rank``) goes to
  the next seat round the table from the dealer's left, each remaining card equally likely; with
  the ``one_random`` deck the card left over is the removed card. Under ``after_third_frisch=
  redeal`` a round cancelled after the third Frisch is dealt again the same way, by the same
  dealer (at most ``MAX_REDEALS`` times, as the engines).
* **Actions** (``num_distinct_actions`` = 212): ``0..89`` the calls (``0`` pass, ``5 n + strain``
  for the bid of ``n`` tricks in strain 0..4 = C, D, H, S, NT, ``n`` up to 13, or 17 with the
  ``one_random`` deck: :data:`CALLS`); ``90 + c`` laying card ``c`` in a Frisch, three per seat in
  ascending card order (:data:`FRISCH`); ``142 + n`` the contract ``n`` (:data:`CONTRACTS`);
  ``160 + c`` playing card ``c`` (:data:`PLAY`).
* **Returns**: each seat's score of the deal in game points (RULES §6), the same numbers as
  ``whist-sim replay`` gives for the same moves; 0 for a thrown-in deal.
* **Observations**: strings and tensors for the current view (``observation_*``) and for the
  perfect-recall information state (``information_state_*``); see :class:`WhistObserver`.
* ``resample_from_infostate``: a state the player cannot tell apart from this one, the hidden
  hands drawn by the project's sampler of hidden hands
  (:func:`whist_sim.compiled.ground.sampler.deal_pool`; voids shown in play respected).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the extra is not installed
    raise ImportError(
        "whist_sim.interfaces.openspiel needs OpenSpiel: pip install 'whist-sim[openspiel]'"
    ) from e

from ..core.cards import N_CARDS, card_str, cards_of, format_hand
from ..core.rules import FRISCH_CARDS, MAX_FRISCH, MAX_REDEALS, Rules
from ..core.scoring import score
from ..engine.state import PASS, DealState, call_str

GAME_NAME = "israeli_whist"
MAX_TRICKS = 17  # the one_random deck: 17 cards each
CALLS = 0  # + call code: 0 pass, 5 * n + strain for n = 5..17
FRISCH = 90  # + card: a card laid in a Frisch
CONTRACTS = 142  # + n: the contract n = 0..17
PLAY = 160  # + card: a card played
NUM_ACTIONS = 212
BIDS = 5 * (MAX_TRICKS - 4)  # the bids 5C .. 17NT (call codes 25 .. 89)
LEVELS = MAX_TRICKS - 4  # the minimum levels 5 .. 17
PHASES = ("deal", "auction", "frisch", "contracts", "play")

_RULE_FIELDS = [f.name for f in dataclasses.fields(Rules)]


def _default_params() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in Rules().to_dict().items():
        out[name] = "/".join(value) if name == "frisch_directions" else value
    out["dealer"] = 0
    return out


PARAMS = _default_params()

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Israeli Whist (whist-sim)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=3,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMS,
)


def rules_of(params: dict[str, Any]) -> tuple[Rules, int]:
    """The :class:`Rules` and the dealer of a game's parameters (defaults for missing ones)."""
    values = {**PARAMS, **(params or {})}
    unknown = sorted(set(values) - set(PARAMS))
    if unknown:
        raise ValueError(f"unknown parameter(s) of {GAME_NAME}: {', '.join(unknown)}")
    options = {k: values[k] for k in _RULE_FIELDS}
    # OpenSpiel's game strings separate parameters by commas: the directions by "/"
    options["frisch_directions"] = tuple(
        d.strip() for d in str(options["frisch_directions"]).replace(",", "/").split("/"))
    rules = Rules(**options)
    dealer = int(values["dealer"])
    if not 0 <= dealer < rules.players:
        raise ValueError(f"dealer must be a seat in 0..{rules.players - 1}, got {dealer}")
    return rules, dealer


def _utility_bounds(rules: Rules) -> tuple[float, float]:
    n = rules.n_tricks
    values = [score(b, t, over, rules) for b in range(n + 1) for t in range(n + 1)
              for over in (False, True)] + [0]
    return float(min(values)), float(max(values))


def _max_game_length(rules: Rules) -> int:
    p = rules.players
    auction = (MAX_FRISCH + 1) * (BIDS * p + p)
    per_deal = auction + MAX_FRISCH * p * FRISCH_CARDS + p + rules.n_tricks * p
    return per_deal * ((MAX_REDEALS + 1) if rules.after_third_frisch == "redeal" else 1)


class WhistGame(pyspiel.Game):
    """The ``israeli_whist`` game: its rules and dealer come from the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules, self.dealer = rules_of(params or {})
        low, high = _utility_bounds(self.rules)
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=N_CARDS,
            num_players=self.rules.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=_max_game_length(self.rules),
        )
        super().__init__(GAME_TYPE, info, {**PARAMS, **(params or {})})

    def new_initial_state(self) -> WhistState:
        return WhistState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> WhistObserver:
        return WhistObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.rules)


class WhistState(pyspiel.State):
    """One deal in progress. ``deal_state`` is the reference engine's state once the cards are
    dealt (``None`` while they are being dealt)."""

    def __init__(self, game: WhistGame) -> None:
        super().__init__(game)
        self._game = game
        self.rules: Rules = game.rules
        self.dealer: int = game.dealer
        self._deck = cards_of(self.rules.deck_mask)
        self._dealt: list[int] = []  # chance outcomes of the current dealing
        self.deal_state: DealState | None = None
        self._picks: list[int] = []  # Frisch cards chosen so far by the seat to move
        self.redeals = 0
        self._log: list[tuple[int, int]] = []  # (seat, action) since the current dealing
        self._prefix: list[int] = []  # the actions before the current dealing (cancelled ones)

    # ---------------------------------------------------------------- the OpenSpiel API
    def current_player(self) -> int:
        ds = self.deal_state
        if ds is None:
            return pyspiel.PlayerId.CHANCE
        if ds.is_over:
            return pyspiel.PlayerId.TERMINAL
        return ds.to_move

    def _legal_actions(self, player: int) -> list[int]:
        ds = self.deal_state
        if ds is None or ds.is_over or player != ds.to_move:
            return []
        if ds.phase == "auction":
            return [CALLS + c for c in ds.legal_actions()]
        if ds.phase == "frisch":
            hand = ds.hand(player)
            last = self._picks[-1] if self._picks else -1
            need = FRISCH_CARDS - len(self._picks) - 1  # cards still to pick above this one
            cards = [c for c in cards_of(hand) if c > last]
            return [FRISCH + c for i, c in enumerate(cards) if len(cards) - i - 1 >= need]
        if ds.phase == "contracts":
            return [CONTRACTS + n for n in ds.legal_actions()]
        return [PLAY + c for c in ds.legal_actions()]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self._dealt)
        rest = [c for c in self._deck if c not in dealt]
        return [(c, 1.0 / len(rest)) for c in rest]

    def _apply_action(self, action: int) -> None:
        self._refuse_illegal(action)
        if self.deal_state is None:
            self._deal_card(action)
            return
        ds = self.deal_state
        seat = ds.to_move
        self._log.append((seat, action))
        if ds.phase == "frisch":
            self._picks.append(action - FRISCH)
            if len(self._picks) == FRISCH_CARDS:
                mask = sum(1 << c for c in self._picks)
                self._picks = []
                ds.apply(mask)
        elif ds.phase == "auction":
            ds.apply(action - CALLS)
        elif ds.phase == "contracts":
            ds.apply(action - CONTRACTS)
        else:
            ds.apply(action - PLAY)
        if ds.redeal_due and self.redeals < MAX_REDEALS:
            # RULES §3, after_third_frisch=redeal: the same dealer deals again
            self._prefix = list(self.history()) + [action]
            self.redeals += 1
            self._dealt = []
            self._log = []
            self.deal_state = None

    def _refuse_illegal(self, action: int) -> None:
        """Raise OpenSpiel's ``SpielError`` for an action that is not legal here, naming the
        action, before anything changes (as OpenSpiel's own games check with
        ``SPIEL_CHECK``): a card already dealt or not in the deck as a chance outcome, a card
        during the auction, a call out of turn, any action of a finished deal."""
        ds = self.deal_state
        if ds is None:
            if action not in self._deck or action in self._dealt:
                why = ("not a card of this deck" if action not in self._deck
                       else "dealt already")
                raise pyspiel.SpielError(
                    f"illegal chance outcome {action} ({_action_name(action, chance=True)}): "
                    f"{why}")
            return
        if ds.is_over:
            raise pyspiel.SpielError(
                f"illegal action {action} ({_action_name(action)}): the deal is over")
        if action not in self._legal_actions(ds.to_move):
            raise pyspiel.SpielError(
                f"illegal action {action} ({_action_name(action)}) for player {ds.to_move} "
                f"in the {ds.phase}")

    def _deal_card(self, card: int) -> None:
        self._dealt.append(card)
        p = self.rules.players
        if len(self._dealt) < self.rules.hand_size * p:
            return
        hands = [0] * p
        for i, c in enumerate(self._dealt):
            hands[(self.dealer + 1 + i) % p] |= 1 << c
        self.deal_state = DealState(self.rules, self.dealer, hands)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal {card_str(action)}"
        return action_text(action)

    def is_terminal(self) -> bool:
        return self.deal_state is not None and self.deal_state.is_over

    def returns(self) -> list[float]:
        ds = self.deal_state
        if ds is None or not ds.is_over:
            return [0.0] * self.rules.players
        return [float(x) for x in ds.scores]

    def __str__(self) -> str:
        ds = self.deal_state
        if ds is None:
            return f"dealer {self.dealer}, dealing: {len(self._dealt)} cards"
        return repr(ds)

    # ---------------------------------------------------------------- resampling
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> WhistState:
        """A state with the history ``player_id`` knows and the others' hidden cards drawn again
        (see :func:`resample`)."""
        u = float(probability_sampler())
        return resample(self, player_id, int(u * (1 << 53)))

    # helpers for observers and resampling
    @property
    def picks(self) -> list[int]:
        return list(self._picks)

    @property
    def log(self) -> list[tuple[int, int]]:
        return list(self._log)


def _action_name(action: int, chance: bool = False) -> str:
    """The action's text for an error message; "no action" for a number out of range."""
    if chance:
        return f"deal {card_str(action)}" if 0 <= action < N_CARDS else "no card"
    if not 0 <= action < NUM_ACTIONS:
        return "no action"
    # "7C" is both the bid of seven in clubs and the seven of clubs: say which
    return f"play {action_text(action)}" if action >= PLAY else (
        f"call {action_text(action)}" if action < FRISCH else action_text(action))


def action_text(action: int) -> str:
    """An action's text: ``pass``, ``6H``, ``lay 2C`` (Frisch), ``contract 5``, ``AS``."""
    if action < FRISCH:
        return "pass" if action == PASS else call_str(action)
    if action < CONTRACTS:
        return f"lay {card_str(action - FRISCH)}"
    if action < PLAY:
        return f"contract {action - CONTRACTS}"
    return card_str(action - PLAY)


# -------------------------------------------------------------------- observations


class WhistObserver:
    """Observation tensors and strings (OpenSpiel's PyObserver).

    ``perfect_recall=False`` (the observation): ``player`` (one-hot), ``phase`` (deal, auction,
    frisch, contracts, play), ``dealer``, ``hand`` (52, the player's cards now), ``highest_bid``
    (65 bids + none), ``highest_bidder`` (P + none), ``min_level`` (5..17), ``frisch_count``
    (0..3), ``passes`` (passes in a row, 0..P), ``picks`` (52: the cards chosen so far in the
    Frisch), ``received`` (52: the cards received in the last Frisch), ``declarer`` (P + none),
    ``trump`` (C, D, H, S, NT, none), ``contracts`` (P x 18 + unknown), ``trick`` (P x 52: each
    seat's card in the trick in progress), ``played`` (52), ``tricks_taken`` (P x 18).

    ``perfect_recall=True`` (the information state): ``player``, ``phase``, ``dealer``,
    ``redeals`` (a count), ``dealt`` (52: the hand as dealt), ``hand``, ``bids`` (4 auctions x
    65 bids x P: who made each bid; the order of the calls follows from the rules), ``passes``,
    ``passed`` and ``received`` (3 Frisches x 52), ``picks``, ``contracts``, ``declarer``,
    ``trump``, ``play`` (tricks x P x 52: the card each seat played to each trick).

    Private pieces (the hand, the Frisch cards) are left out for a public observer
    (``private_info=NONE``).
    """

    def __init__(self, iig_obs_type: Any, params: Any, rules: Rules) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        p = rules.players
        n = rules.n_tricks
        self.players = p
        self.recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("player", p, (p,)), ("phase", len(PHASES), (len(PHASES),)), ("dealer", p, (p,))]
        if self.recall:
            pieces.append(("redeals", 1, (1,)))
            if private:
                pieces += [("dealt", N_CARDS, (N_CARDS,)), ("hand", N_CARDS, (N_CARDS,))]
            pieces += [("bids", (MAX_FRISCH + 1) * BIDS * p, (MAX_FRISCH + 1, BIDS, p)),
                       ("passes", p + 1, (p + 1,))]
            if private:
                pieces += [("passed", MAX_FRISCH * N_CARDS, (MAX_FRISCH, N_CARDS)),
                           ("received", MAX_FRISCH * N_CARDS, (MAX_FRISCH, N_CARDS)),
                           ("picks", N_CARDS, (N_CARDS,))]
            pieces += [("contracts", p * (MAX_TRICKS + 2), (p, MAX_TRICKS + 2)),
                       ("declarer", p + 1, (p + 1,)), ("trump", 6, (6,)),
                       ("play", n * p * N_CARDS, (n, p, N_CARDS))]
        else:
            if private:
                pieces.append(("hand", N_CARDS, (N_CARDS,)))
            pieces += [("highest_bid", BIDS + 1, (BIDS + 1,)),
                       ("highest_bidder", p + 1, (p + 1,)), ("min_level", LEVELS, (LEVELS,)),
                       ("frisch_count", MAX_FRISCH + 1, (MAX_FRISCH + 1,)),
                       ("passes", p + 1, (p + 1,))]
            if private:
                pieces += [("picks", N_CARDS, (N_CARDS,)), ("received", N_CARDS, (N_CARDS,))]
            pieces += [("declarer", p + 1, (p + 1,)), ("trump", 6, (6,)),
                       ("contracts", p * (MAX_TRICKS + 2), (p, MAX_TRICKS + 2)),
                       ("trick", p * N_CARDS, (p, N_CARDS)), ("played", N_CARDS, (N_CARDS,)),
                       ("tricks_taken", p * (MAX_TRICKS + 1), (p, MAX_TRICKS + 1))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[i:i + size].reshape(shape)
            i += size

    def set_from(self, state: WhistState, player: int) -> None:
        t = self.dict
        self.tensor.fill(0)
        p = self.players
        t["player"][player] = 1
        t["dealer"][state.dealer] = 1
        ds = state.deal_state
        if "redeals" in t:
            t["redeals"][0] = state.redeals
        if ds is None:
            t["phase"][0] = 1
            return
        if not ds.is_over:
            t["phase"][PHASES.index(ds.phase)] = 1
        mine = cards_of(ds.hand(player))
        if "hand" in t:
            t["hand"][mine] = 1
        if "dealt" in t:
            t["dealt"][cards_of(ds.dealt[player])] = 1
        passes = _passes_in_a_row(ds)
        t["passes"][min(passes, p)] = 1
        if "picks" in t and ds.phase == "frisch" and ds.to_move == player:
            t["picks"][state.picks] = 1
        if "bids" in t:
            for r, bids in enumerate(_auctions(ds)):
                for seat, code in bids:
                    t["bids"][r, code - 25, seat] = 1
        if "passed" in t:
            for f, masks in enumerate(ds.frisch):
                t["passed"][f, cards_of(masks[player])] = 1
                giver = (player - ds.rules.direction_offset(f)) % p
                t["received"][f, cards_of(masks[giver])] = 1
        elif "received" in t and ds.frisch:
            f = len(ds.frisch) - 1
            giver = (player - ds.rules.direction_offset(f)) % p
            t["received"][cards_of(ds.frisch[f][giver])] = 1
        if "highest_bid" in t:
            hb = ds.highest_bid
            t["highest_bid"][hb - 25 if hb != PASS else BIDS] = 1
            t["highest_bidder"][ds.highest_bidder if ds.highest_bidder >= 0 else p] = 1
            t["min_level"][min(ds.min_level, MAX_TRICKS) - 5] = 1
            t["frisch_count"][ds.frisch_count] = 1
        t["declarer"][ds.declarer if ds.declarer >= 0 else p] = 1
        t["trump"][ds.trump if ds.trump >= 0 else 5] = 1
        for s, c in enumerate(ds.contracts):
            t["contracts"][s, MAX_TRICKS + 1 if c is None else c] = 1
        if "play" in t:
            for k, (_, cards) in enumerate(ds.completed_tricks):
                for seat, card in cards:
                    t["play"][k, seat, card] = 1
            for seat, card in ds.current_trick:
                t["play"][ds.trick_number, seat, card] = 1
        if "trick" in t:
            for seat, card in ds.current_trick:
                t["trick"][seat, card] = 1
            t["played"][list(ds.plays)] = 1
            for s, n in enumerate(ds.tricks_taken):
                t["tricks_taken"][s, n] = 1

    def string_from(self, state: WhistState, player: int) -> str:
        ds = state.deal_state
        head = f"p{player} dealer {state.dealer}"
        if self.recall and state.redeals:
            head += f" redeals {state.redeals}"
        if ds is None:
            return f"{head} dealing"
        parts = [head]
        private = "hand" in self.dict
        if self.recall:
            if private:
                parts.append(f"dealt {format_hand(ds.dealt[player])}")
            parts.append("calls " + " ".join(call_str(c) for c in ds.calls))
            if private:
                for f, masks in enumerate(ds.frisch):
                    giver = (player - ds.rules.direction_offset(f)) % self.players
                    parts.append(f"frisch{f + 1} gave {format_hand(masks[player])} got "
                                 f"{format_hand(masks[giver])}")
                if ds.phase == "frisch" and ds.to_move == player and state.picks:
                    parts.append("picks " + " ".join(card_str(c) for c in state.picks))
            if any(c is not None for c in ds.contracts):
                parts.append("contracts " + " ".join("-" if c is None else str(c)
                                                     for c in ds.contracts))
            if ds.plays:
                parts.append("play " + " ".join(card_str(c) for c in ds.plays))
            return " | ".join(parts)
        parts.append(f"phase {ds.phase}")
        if private:
            parts.append(f"hand {format_hand(ds.hand(player))}")
        if ds.phase in ("auction", "frisch"):
            hb = ds.highest_bid
            parts.append(f"high {call_str(hb) if hb != PASS else '-'} by "
                         f"{ds.highest_bidder} min {ds.min_level} frisch {ds.frisch_count} "
                         f"passes {_passes_in_a_row(ds)}")
            if private and ds.phase == "frisch" and ds.to_move == player and state.picks:
                parts.append("picks " + " ".join(card_str(c) for c in state.picks))
        else:
            parts.append(f"declarer {ds.declarer} trump {ds.trump} level {ds.level}")
            parts.append("contracts " + " ".join("-" if c is None else str(c)
                                                 for c in ds.contracts))
            if ds.phase == "play" or ds.is_over:
                parts.append("trick " + " ".join(f"{s}:{card_str(c)}"
                                                 for s, c in ds.current_trick))
                parts.append("taken " + " ".join(map(str, ds.tricks_taken)))
        return " | ".join(parts)


def _passes_in_a_row(ds: DealState) -> int:
    n = 0
    for c in reversed(ds.auction_calls):
        if c != PASS:
            break
        n += 1
    return n


def _auctions(ds: DealState) -> list[list[tuple[int, int]]]:
    """The bids of each auction (one per Frisch round) as ``(seat, code)``."""
    p = ds.players
    out: list[list[tuple[int, int]]] = [[]]
    seat = ds.first_caller
    run = 0
    for c in ds.calls:
        if c == PASS:
            run += 1
        else:
            run = 0
            out[-1].append((seat, c))
        seat = (seat + 1) % p
        if run == p and not out[-1] and len(out) <= MAX_FRISCH:  # all passed: a Frisch
            out.append([])
            run = 0
            seat = ds.first_caller
    return out


# -------------------------------------------------------------------- resampling


def resample(state: WhistState, player: int, seed: int) -> WhistState:
    """A state ``player`` cannot tell from ``state`` (the same information state string): the
    others' cards drawn again.

    The cards the player laid in a Frisch get a route first (:func:`_routes`): from their
    receiver, kept or passed on in each later Frisch, to the seat that played them, or (still
    out) to a seat not void in their suit, drawn among the possible routes. The others' hands now
    are dealt from the cards the player has not seen by the project's sampler of hidden hands
    (:func:`whist_sim.compiled.ground.sampler.deal_pool`): each keeps its number of cards, no card
    of a suit it has shown void in, the routed cards at the routes' ends. The deal and the others'
    Frisch cards are then rebuilt backwards from those hands (each Frisch: the routed cards, and
    other cards of the receiver's drawn at random), so that every move of the history is legal. The
    routes are drawn uniformly, not by their posterior weight. When nothing fits (rare), the state
    itself is returned.
    """
    ds = state.deal_state
    if ds is None or ds.is_over:
        return state.clone()
    from ..compiled.ground.layout import sampler_scratch
    from ..compiled.ground.sampler import NO_LAYOUT, W_NEED, deal_pool

    rules = state.rules
    p = rules.players
    played_by: list[int] = [0] * p
    voids = 0
    tricks = [cards for _, cards in ds.completed_tricks]
    if ds.current_trick:
        tricks.append(tuple(ds.current_trick))
    for trick in tricks:
        led = trick[0][1] // 13
        for seat, card in trick:
            played_by[seat] |= 1 << card
            if card // 13 != led:
                voids |= 1 << (4 * seat + led)
    played = 0
    for m in played_by:
        played |= m
    mine = ds.hand(player)
    gen = np.random.default_rng(seed)
    routes = _routes(ds, player, played_by, mine, voids, gen)
    if routes is None:
        return state.clone()
    pinned, forced, stay = routes
    out = np.zeros(p, dtype=np.uint64)
    out[player] = mine
    work, tab = sampler_scratch()
    for s in range(p):
        work[W_NEED + s] = ds.hand(s).bit_count()
        if s != player:
            if pinned[s].bit_count() > ds.hand(s).bit_count():
                return state.clone()
            out[s] = pinned[s]
    pool = np.uint64(rules.deck_mask & ~played & ~mine)
    rng = np.array([seed & ((1 << 64) - 1)], dtype=np.uint64)
    left = deal_pool(np.int64(p), pool, out, np.int64(0), np.int64(voids), work, tab, True, rng)
    if left == NO_LAYOUT:
        return state.clone()
    now = [int(x) for x in out]
    now[player] = mine
    # during a Frisch the hands have not moved yet; the seats that chose already chose from them
    frisch_now: dict[int, int] = {}
    if ds.phase == "frisch":
        seat = ds.first_caller
        while seat != ds.to_move:
            if seat != player:
                frisch_now[seat] = _pick3(now[seat], gen)
            seat = (seat + 1) % p
    # backwards through the Frisches: the hands before each
    hands = [now[s] | played_by[s] for s in range(p)]
    passes: list[list[int]] = [list(m) for m in ds.frisch]
    for f in range(len(ds.frisch) - 1, -1, -1):
        off = rules.direction_offset(f)
        new_passes = [0] * p
        for g in range(p):
            r = (g + off) % p
            if g == player or r == player:
                new_passes[g] = passes[f][g]  # the player's own Frisch: known
            else:  # the cards the routes move, and others r holds after this Frisch
                must = forced[f][g]
                free = hands[r] & ~must & ~stay[f][r]
                if free.bit_count() < FRISCH_CARDS - must.bit_count():
                    return state.clone()
                new_passes[g] = must | _pick(free, FRISCH_CARDS - must.bit_count(), gen)
        hands = [(hands[s] & ~new_passes[(s - off) % p]) | new_passes[s] for s in range(p)]
        passes[f] = new_passes
    if hands[player] != ds.dealt[player] or any(h.bit_count() != rules.hand_size
                                                 for h in hands):
        return state.clone()
    try:
        return _replay(state, hands, passes, frisch_now, player)
    except (ValueError, IndexError, KeyError):  # IllegalAction is a ValueError: no such history
        return state.clone()


def _pick(mask: int, k: int, gen: np.random.Generator) -> int:
    cards = cards_of(mask)
    chosen = gen.choice(len(cards), size=k, replace=False)
    return sum(1 << cards[int(i)] for i in chosen)


def _pick3(mask: int, gen: np.random.Generator) -> int:
    return _pick(mask, FRISCH_CARDS, gen)


def _routes(ds: DealState, player: int, played_by: list[int], mine: int, voids: int,
            gen: np.random.Generator) -> tuple[list[int], list[list[int]], list[list[int]]] | None:
    """Where the cards ``player`` laid in a Frisch went: for each such card still out of his
    hand, a route from its receiver through the later Frisches (kept, or passed on by its
    holder; never back to the player, who would have seen it) that ends with the seat that
    played it, or, unplayed, with a seat not void in its suit (drawn among the possible ones).
    Returns the cards pinned at each seat now, the cards each seat must pass in each Frisch,
    and the cards each seat must keep through each Frisch; ``None`` when no routes fit."""
    rules = ds.rules
    p = rules.players
    n_f = len(ds.frisch)
    last: dict[int, int] = {}
    for f in range(n_f):
        for c in cards_of(ds.frisch[f][player]):
            last[c] = f  # a card laid again: its last Frisch
    pinned = [0] * p
    forced = [[0] * p for _ in range(n_f)]
    stay = [[0] * p for _ in range(n_f)]
    for c, f in sorted(last.items()):
        if mine >> c & 1 or played_by[player] >> c & 1:
            continue  # back with the player: he saw it
        holder_end = next((s for s in range(p) if played_by[s] >> c & 1), None)
        paths = [[(player + rules.direction_offset(f)) % p]]
        for g in range(f + 1, n_f):
            off = rules.direction_offset(g)
            paths = [path + [h] for path in paths
                     for h in {path[-1], (path[-1] + off) % p} if h != player]
        if holder_end is not None:
            paths = [path for path in paths if path[-1] == holder_end]
        else:
            paths = [path for path in paths if not voids >> (4 * path[-1] + c // 13) & 1]
        if not paths:
            return None
        path = paths[int(gen.integers(len(paths)))]
        for i, g in enumerate(range(f + 1, n_f)):
            a, b = path[i], path[i + 1]
            if a != b:
                forced[g][a] |= 1 << c
            else:
                stay[g][a] |= 1 << c
        if holder_end is None:
            pinned[path[-1]] |= 1 << c
    if any(m.bit_count() > FRISCH_CARDS for row in forced for m in row):
        return None
    return pinned, forced, stay


def _replay(state: WhistState, hands: list[int], passes: list[list[int]],
            frisch_now: dict[int, int], player: int) -> WhistState:
    """A new state: the cancelled dealings as they were, then ``hands`` dealt and the current
    deal's actions, the others' Frisch cards replaced by ``passes`` (and ``frisch_now`` for the
    Frisch under way)."""
    game = state.get_game()
    new = game.new_initial_state()
    for a in state._prefix:
        new.apply_action(a)
    p = state.rules.players
    order = [(state.dealer + 1 + i) % p for i in range(state.rules.hand_size * p)]
    queues = {s: cards_of(hands[s]) for s in range(p)}
    for s in order:
        new.apply_action(queues[s].pop(0))
    picks_left: dict[int, list[int]] = {}
    for seat, action in state.log:
        ds = new.deal_state
        assert ds is not None
        if ds.phase == "frisch" and seat != player:
            if seat not in picks_left:
                mask = passes[ds.frisch_count][seat] if ds.frisch_count < len(passes) else (
                    frisch_now[seat])
                picks_left[seat] = cards_of(mask)
            action = FRISCH + picks_left[seat].pop(0)
            if not picks_left[seat]:
                del picks_left[seat]
        new.apply_action(action)
    return new


pyspiel.register_game(GAME_TYPE, WhistGame)

__all__ = ["CALLS", "CONTRACTS", "FRISCH", "GAME_NAME", "NUM_ACTIONS", "PARAMS", "PLAY",
           "WhistGame", "WhistObserver", "WhistState", "action_text", "resample", "rules_of"]
