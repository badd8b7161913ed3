"""The JSON fields of a web request, checked and turned into the library's arguments.

``POST /api/advise`` takes the fields of ``whist-sim advise`` (docs/ADVISOR.md), with the option
names in snake case: ``hand`` (required), ``trump``, ``declarer``, ``level``, ``seat``, ``bids``
(``"7,0"`` or ``[7, 0]``), ``auction`` (``"pass,5S,pass,pass,pass"`` or a list of calls) and
``dealer``, ``play``, ``bid_policy``, ``deals``, ``seed``, ``infer`` (read the
earlier bids; default true), ``model``, ``eps``, ``consistent`` (deprecated: ``infer``),
``constrain`` (a list of ``SEAT:KEY=RANGE``), ``known`` (a list of ``SEAT:CARDS`` or an object
``{"1": "AS KH"}``), ``confidence``, and the rule options, either at the top level
(``"zero_over": 30``, as the command's flags) or in an object ``"rules"``. Every error is a
:class:`RequestError` naming the field, which the app answers with status 400.

A body is read within limits (:data:`MAX_BODY_BYTES`, and the nesting and number limits of
:mod:`whist_sim.core.jsonio`); a field no endpoint knows is refused, not ignored. An advice is
costed by its real work, ``deals`` times its play policy's cost per deal (:func:`play_cost`: a
searching policy plays many layouts per card), against the server's ``--max-deals``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...analyses.advisor.sampling import DEFAULT_EPS
from ...core.rules import Rules, rule_names

if TYPE_CHECKING:
    from ...compiled.strategies.spec import StrategySpec

#: the fields of an advice request besides the rule options
ADVICE_FIELDS = ("hand", "trump", "declarer", "level", "seat", "bids", "auction", "dealer",
                 "play", "bid_policy",
                 "deals", "seed", "infer", "model", "eps", "consistent", "constrain", "known",
                 "confidence", "eval",
                 "screen", "rules")
RULE_FIELDS = rule_names()
#: the fields of ``POST /api/chart`` (the chart lookup of ``whist-sim chart``)
CHART_FIELDS = ("hand", "trump", "declarer", "level", "seat", "bids", "players")
#: the fields of ``POST /api/play`` besides the rule options (``level``: a name of
#: :data:`whist_sim.interfaces.web.tables.OPPONENT_LEVELS`, instead of ``seats``)
PLAY_FIELDS = ("seat", "seats", "level", "seed", "rules")
MAX_SEED = (1 << 64) - 1
MAX_BODY_BYTES = 1 << 20  # a request is a hand and a few options: a few hundred bytes
#: deals of a non-searching play that one rollout layout costs, roughly: ``rollout:n=16`` at
#: every seat plays about 1,100 times slower than ``expert`` (docs/STRATEGIES.md), less once its
#: race drops the weak candidates
ROLLOUT_COST_PER_LAYOUT = 60


class RequestError(ValueError):
    """A field of a request that cannot be used: ``field`` (or ``None``) and the reason."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    def to_dict(self) -> dict[str, Any]:
        text = f"{self.field}: {self}" if self.field else str(self)
        return {"error": text, "field": self.field}


def parse_body(raw: bytes) -> Any:
    """The JSON value of a request body, within the limits (else a :class:`RequestError`)."""
    from ...core.jsonio import JsonInputError, parse_json

    if len(raw) > MAX_BODY_BYTES:
        raise RequestError(f"the request body is over {MAX_BODY_BYTES:,} bytes")
    try:
        return parse_json(raw)
    except JsonInputError as e:
        text = str(e)
        if text.startswith("not valid JSON: "):
            raise RequestError(f"the request body is not JSON: {text[16:]}") from None
        raise RequestError(f"the request body is not JSON we accept: {text}") from None


def check_fields(body: Any, known: tuple[str, ...]) -> dict:
    """``body`` as an object whose every field is one of ``known`` or a rule option."""
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    unknown = [k for k in body if k not in known and k.replace("-", "_") not in RULE_FIELDS]
    if unknown:
        raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}; known: "
                           f"{', '.join(known + RULE_FIELDS)}")
    return body


def play_cost(play: str | StrategySpec) -> int:
    """What one deal of play policy ``play`` (a spec, or its text) costs, in deals of a
    non-searching play: 1, or :data:`ROLLOUT_COST_PER_LAYOUT` per layout of a rollout (``n``)."""
    from ...compiled.strategies.spec import parse_play

    spec = parse_play(play)
    if spec.name != "rollout":
        return 1
    v = spec.values()
    # reading the table draws pool x n layouts and weighs each: about 2.5 x with pool 8
    # (docs/STRATEGIES.md, bench play_rollout_infer_vs_rollout)
    infer = 1.0 + 0.19 * v["pool"] if v["infer"] else 1.0
    return max(1, int(ROLLOUT_COST_PER_LAYOUT * v["n"] * infer))


def _bids(body: dict) -> str | None:
    """The ``bids`` field as ``advise`` takes it (``"7,0"``): a list of whole numbers or a
    text, else a refusal naming the field."""
    bids = body.get("bids")
    if isinstance(bids, list):
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in bids):
            raise RequestError(f"expected whole numbers, got {bids!r}", "bids")
        return ",".join(map(str, bids))
    if bids is not None and not isinstance(bids, str):
        raise RequestError(f"expected e.g. \"7,0\", got {bids!r}", "bids")
    return bids


def _int(body: dict, name: str, lo: int, hi: int, default: int | None = None) -> int | None:
    v = body.get(name, default)
    if v is None or v == "":
        return default
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        v = int(v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise RequestError(f"expected a whole number, got {v!r}", name)
    if not lo <= v <= hi:
        raise RequestError(f"{v} is not in {lo}..{hi}", name)
    return v


def _text(body: dict, name: str, default: str | None = None) -> str | None:
    v = body.get(name, default)
    if v is None or (isinstance(v, str) and not v.strip()):
        return default
    if not isinstance(v, str):
        raise RequestError(f"expected text, got {v!r}", name)
    return v.strip()


def _texts(body: dict, name: str) -> list[str]:
    v = body.get(name) or []
    if isinstance(v, str):
        v = [x for x in v.replace("\n", ",").split(",") if x.strip()] if name != "known" else [
            x for x in v.split() if x.strip()]
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise RequestError(f"expected a list of texts, got {v!r}", name)
    return [x.strip() for x in v]


def rules_of(body: dict) -> Rules:
    """The rule options of a request: the rule book's defaults, then ``rules``, then top-level
    rule fields (names in snake case or with dashes)."""
    from ...core.rules import RulesError, rule_options

    values: dict[str, Any] = {}
    nested = body.get("rules") or {}
    if not isinstance(nested, dict):
        raise RequestError(f"expected an object of rule options, got {nested!r}", "rules")
    for source in (nested, body):
        for key, v in source.items():
            name = key.replace("-", "_")
            if name in RULE_FIELDS and v is not None and v != "":
                values[name] = v
            elif source is nested:
                raise RequestError(f"unknown rule option {key!r}; known: "
                                   f"{', '.join(RULE_FIELDS)}", "rules")
    for o in rule_options():  # a form's numbers arrive as text
        v = values.get(o.name)
        if o.kind == "number" and isinstance(v, str) and v.strip().lstrip("-").isdigit():
            values[o.name] = int(v)
    try:
        return Rules(**values)
    except RulesError as e:  # the message names the option
        raise RequestError(str(e), "rules") from None
    except TypeError as e:
        raise RequestError(str(e), "rules") from None


def advice_kwargs(body: Any, max_deals: int) -> dict[str, Any]:
    """An advice request, checked as ``whist-sim advise`` checks its options and parsed once:
    ``{"hand": text, "options": AdviseOptions}`` for :func:`whist_sim.analyses.advisor.advise`
    (the play spec parsed here serves the cost estimate and the advice alike). ``max_deals``
    caps ``deals`` (``serve --max-deals``); ``deals`` defaults to the smaller of the command's
    default and the cap."""
    from ...analyses.advisor import DEFAULT_DEALS
    from ...analyses.advisor.options import AdviseOptions, check_play_spec, checked_bid_policy
    from ...analyses.advisor.scenario import AdviceError
    from ...compiled.strategies.registry import DEFAULT_BID, DEFAULT_PLAY

    check_fields(body, ADVICE_FIELDS)
    hand = _text(body, "hand")
    if hand is None:
        raise RequestError("a hand is required, e.g. AKQ2.K3.QJ54.872", "hand")
    if body.get("eval", "heuristic") not in (None, "", "heuristic"):
        raise RequestError("the web page offers the heuristic evaluation only; the double-dummy "
                           "view (--eval dd) is on the command line", "eval")
    deals = _int(body, "deals", 1, max_deals, min(DEFAULT_DEALS, max_deals))
    try:
        bid_policy = checked_bid_policy(_text(body, "bid_policy", DEFAULT_BID) or DEFAULT_BID)
    except AdviceError as e:
        raise RequestError(str(e), "bid_policy") from None
    try:
        play = check_play_spec(_text(body, "play", DEFAULT_PLAY) or DEFAULT_PLAY)
    except AdviceError as e:
        raise RequestError(str(e), "play") from None
    assert deals is not None  # it has a default
    cost = deals * play_cost(play)
    if cost > max_deals:
        raise RequestError(
            f"{deals:,} deals of play {play.text} cost {cost:,} deal-equivalents "
            f"({play_cost(play):,} a deal), over this server's limit of {max_deals:,}: ask for "
            f"at most {max(1, max_deals // play_cost(play)):,} deals, or a cheaper play", "deals")
    bids = _bids(body)
    auction = body.get("auction")
    if isinstance(auction, list):
        if not all(isinstance(c, str) for c in auction):
            raise RequestError(f"expected calls such as \"pass\" and \"5S\", got {auction!r}",
                               "auction")
        auction = ",".join(auction)
    elif auction is not None and not isinstance(auction, str):
        raise RequestError(f"expected e.g. \"pass,5S,pass,pass,pass\", got {auction!r}",
                           "auction")
    # "consistent": the old name of "infer", still accepted from a page that sends it
    consistent = body.get("consistent", False)
    if not isinstance(consistent, bool):
        raise RequestError(f"expected true or false, got {consistent!r}", "consistent")
    infer = body.get("infer", True)
    if not isinstance(infer, bool):
        raise RequestError(f"expected true or false, got {infer!r}", "infer")
    model = body.get("model")
    if model is not None and (not isinstance(model, str) or not model.strip()):
        raise RequestError(f"expected a bidding strategy spec, got {model!r}", "model")
    eps = body.get("eps", DEFAULT_EPS)
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 <= eps <= 1:
        raise RequestError(f"expected a number in 0..1, got {eps!r}", "eps")
    confidence = body.get("confidence", 0.95)
    if (isinstance(confidence, bool) or not isinstance(confidence, (int, float))
            or not 0 < confidence < 1):
        raise RequestError(f"expected a fraction between 0 and 1, got {confidence!r}",
                           "confidence")
    try:
        options = AdviseOptions(
            trump=_text(body, "trump"), declarer=_int(body, "declarer", -99, 99),
            level=_int(body, "level", -99, 99), seat=_int(body, "seat", -99, 99),
            bids=(bids or "").strip() or (), auction=(auction or "").strip() or None,
            dealer=_int(body, "dealer", -99, 99), play=play, bid_policy=bid_policy,
            deals=deals, seed=_int(body, "seed", 0, MAX_SEED, 0) or 0,
            infer=infer or consistent, model=model, eps=float(eps),
            constraints=tuple(_texts(body, "constrain")), known=known_of(body),
            rules=rules_of(body), confidence=float(confidence),
            screen=_int(body, "screen", 0, 10_000))
    except AdviceError as e:
        raise RequestError(str(e)) from None
    return {"hand": hand, "options": options}


def chart_kwargs(body: Any) -> dict[str, Any]:
    """The arguments of :func:`whist_sim.analyses.advisor.scenario.resolve_scenario` for a chart
    lookup (``POST /api/chart``, as ``whist-sim chart``): ``hand`` and ``trump`` required;
    ``declarer``, ``level``, ``seat``, ``bids`` and ``players`` (3 or 4) as the command's."""
    from ...core.rules import Rules

    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    unknown = [k for k in body if k not in CHART_FIELDS]
    if unknown:  # a bid chart is made under the rule book: no rule options but the players
        raise RequestError(f"unknown field(s) {', '.join(map(repr, unknown))}; known: "
                           f"{', '.join(CHART_FIELDS)}")
    hand = _text(body, "hand")
    if hand is None:
        raise RequestError("a hand is required, e.g. AKQ2.K3.QJ54.872", "hand")
    trump = _text(body, "trump")
    if trump is None:
        raise RequestError("choose the trump: a bid chart answers the contract once the trump "
                           "is known", "trump")
    bids = _bids(body)
    players = _int(body, "players", 3, 4, 4) or 4
    return {"hand": hand, "trump": trump, "declarer": _int(body, "declarer", -99, 99),
            "level": _int(body, "level", -99, 99), "seat": _int(body, "seat", -99, 99),
            "bids": (bids or "").strip() or (), "rules": Rules(players=players)}


def known_of(body: dict) -> dict[int, str]:
    """``known``: ``["1:AS,KH", ...]`` or ``{"1": "AS KH"}`` -> ``{1: "AS KH"}``."""
    v = body.get("known")
    if isinstance(v, dict):
        out = {}
        for seat, cards in v.items():
            try:
                out[int(seat)] = str(cards)
            except ValueError:
                raise RequestError(f"{seat!r} is not a seat", "known") from None
        return out
    out = {}
    for item in _texts(body, "known"):
        seat, sep, cards = item.partition(":")
        if not sep or not seat.strip().isdigit() or not cards.strip():
            raise RequestError(f"{item!r}: expected SEAT:CARDS, e.g. 1:AS,KH", "known")
        if int(seat) in out:
            raise RequestError(f"seat {seat} given twice", "known")
        out[int(seat)] = cards
    return out
