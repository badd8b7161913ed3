"""The card features of the ``learned`` play policy, named once (docs/ENGINE.md §8).

:data:`FEATURES` is the one table of the features: a name and what the feature holds, in the
order of a row of weights (:data:`whist_sim.core.play_model.MODELS`, one model per deck). The
compiled policy (``whist_sim/compiled/strategies/play/learned.py``), its reference twin
(:func:`whist_sim.engine.policies.learned_features`), the training (``scripts/train_play.py``)
and the data card (docs/PLAY_MODEL.md) all read this table: a weight is reached by its index
constant (``w[F_TRUMP]``), never by a bare column number. Every feature is an integer read from
what the seat to move may know, blind to the names of the suits.

Adding a feature (docs/CONTRIBUTING.md has the recipe): append a :class:`Feature` row at the end
and its constant at the end of the unpacking below; compute it in both engines and write it
under its constant; the weight rows are padded with zeros (:func:`weight_rows`), so the trained
weights keep working until ``make train`` fits the new column.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .play_model import MODELS as _FITTED_MODELS
from .play_model import SITUATIONS as _SITUATIONS
from .rules import DECKS


class Feature(NamedTuple):
    """One card feature: its ``name`` (as in the docs and the data card) and what it holds."""

    name: str
    doc: str


#: the features of a card ``c`` of suit ``s``, in the order of a row of weights; ``doc`` states
#: each value (docs/ENGINE.md §8 shows this table; "later players": those after the seat in this
#: trick)
FEATURES_TABLE: tuple[Feature, ...] = (
    Feature("wins", "1 when `c` beats the trick's best card now (every card at the lead)"),
    Feature("sure", "1 when it wins and no later player can beat it as far as the seat can "
                    "tell: in the led suit (or leading) no later player may ruff `s` (void in "
                    "it, not in trumps, trumps out) and either `c` is a master or every later "
                    "player has shown a void in `s`; a ruff is sure unless a later player void "
                    "in the led suit may over-ruff with a higher trump"),
    Feature("trump", "1 for a trump"),
    Feature("master", "1 when no card of `s` still out is above `c`"),
    Feature("higher", "the cards of `s` still out above `c`, at most 6"),
    Feature("lower", "the cards of `s` still out below `c`, at most 6"),
    Feature("rank", "0 (two) .. 12 (ace)"),
    Feature("length", "the seat's cards of `s`"),
    Feature("suit_out", "the cards of `s` still out"),
    Feature("lowest", "1 for the seat's lowest card of `s`"),
    Feature("highest", "1 for the seat's highest card of `s`"),
    Feature("ruff_risk", "1 when a later player may ruff `s` (as in `sure`)"),
    Feature("masters", "the seat's masters in `s`"),
    Feature("discard", "1 for a side card played on a trick led in another suit"),
    Feature("singleton", "1 for the seat's last card of `s`"),
    Feature("draw", "1 for a trump led while trumps are still out"),
    Feature("no_return", "1 for a lead of a suit in which the seat holds no master, after which "
                         "it holds no trump (no way back by a ruff; at No Trump every lead of a "
                         "suit without a master)"),
    Feature("last_trump", "1 for the seat's last trump while it holds a side suit without a "
                          "master"),
    Feature("side_vs_trumps", "for a lead of a side suit, the trumps still out, at most 6 (0 at "
                              "No Trump and for every other card): the risk that a side winner "
                              "is ruffed before trumps are drawn"),
)

#: the feature names, in the order of a row of weights
FEATURES: tuple[str, ...] = tuple(f.name for f in FEATURES_TABLE)
N_FEATURES = len(FEATURES)

# The index of each feature in a row, one constant per row of the table, in its order (an
# unpacking of the wrong length fails at import; tests/test_learned_play.py checks each
# constant against its name). Plain ints: compiled code reads them as constants.
(F_WINS, F_SURE, F_TRUMP, F_MASTER, F_HIGHER, F_LOWER, F_RANK, F_LENGTH, F_SUIT_OUT, F_LOWEST,
 F_HIGHEST, F_RUFF_RISK, F_MASTERS, F_DISCARD, F_SINGLETON, F_DRAW, F_NO_RETURN, F_LAST_TRUMP,
 F_SIDE_VS_TRUMPS) = range(N_FEATURES)


def index_of(name: str) -> int:
    """The column of the feature ``name`` in a row of weights (ValueError for no feature)."""
    try:
        return FEATURES.index(name)
    except ValueError:
        raise ValueError(f"no learned feature {name!r}; the features: "
                         f"{', '.join(FEATURES)}") from None


def weight_rows(weights: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """``weights`` with every row padded with zeros to :data:`N_FEATURES` columns: weights
    trained before a feature was added give it weight 0 (the policy plays as before). A row
    longer than the table is an error: its columns would be read as other features."""
    for i, row in enumerate(weights):
        if len(row) > N_FEATURES:
            raise ValueError(f"weight row {i} has {len(row)} columns, more than the "
                             f"{N_FEATURES} features")
    return tuple(tuple(row) + (0,) * (N_FEATURES - len(row)) for row in weights)



def fitted_models(models: Mapping[str, Mapping[int, Sequence[int]] | Sequence[Sequence[int]]],
                  situations: int = _SITUATIONS) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The rows of every deck's model, in the order of :data:`~whist_sim.core.rules.DECKS`, a
    row per situation padded with zeros (:func:`weight_rows`). A model is a row per situation,
    or (as the model file writes it) the rows with weights by situation, every other situation
    weighing 0. A deck with no model, a situation outside ``0 .. situations - 1`` or models of
    different sizes are errors, never a silent stand-in."""
    missing = [d for d in DECKS if d not in models]
    if missing:
        raise ValueError(f"the learned play model has no weights for the deck(s) "
                         f"{', '.join(missing)} (make train)")
    out = []
    for d in DECKS:
        model = models[d]
        if isinstance(model, Mapping):
            bad = [i for i in model if not 0 <= i < situations]
            if bad:
                raise ValueError(f"the learned play model of {d} has rows for situations "
                                 f"{bad[:3]} outside 0..{situations - 1}")
            model = tuple(tuple(model.get(i, ())) for i in range(situations))
        out.append(weight_rows(tuple(tuple(r) for r in model)))
    if len({len(r) for r in out}) != 1:
        raise ValueError("the learned play model's decks have different numbers of situations: "
                         + ", ".join(f"{d} {len(r)}" for d, r in zip(DECKS, out, strict=True)))
    return tuple(out)


#: the trained weights (:mod:`whist_sim.core.play_model`) of every deck, padded to today's
#: features: ``FITTED[deck][context]`` is a row
FITTED: tuple[tuple[tuple[int, ...], ...], ...] = fitted_models(_FITTED_MODELS)
