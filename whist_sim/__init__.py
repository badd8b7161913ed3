"""whist-sim: a Monte Carlo strategy analyser for Israeli Whist.

The rule book is RULES.md; how simulated deals are generated is docs/ENGINE.md.
Cards are ``13 * suit + rank`` (suit 0..3 = C, D, H, S; rank 0..12 = 2..A); hands are ``uint64``
bitmasks (bit ``i`` = card ``i``); seats are 0..3 clockwise.
"""

from typing import TYPE_CHECKING

from .compiled.ground._cache import configure_numba_cache
from .core.version import __version__

# before numba is first imported: every way of starting whist-sim shares one cache of compiled
# kernels
configure_numba_cache()

# Imported on first use (PEP 562), so that ``import whist_sim`` stays light (no numpy) and the
# command line starts at once: whist_sim.advise(HAND, ...) -> Advice (the hand advisor);
# whist_sim.load(DIR) (a dataset) and load_manifest(DIR) (its manifest); the card notation, Rules
# and score.
_LAZY = {
    "advise": ("whist_sim.analyses.advisor", "advise"),
    "load": ("whist_sim.runs.dataset", "load"),
    "load_manifest": ("whist_sim.runs.dataset", "load_manifest"),
    **{name: ("whist_sim.core.cards", name) for name in (
        "CardSet", "NotationError", "format_hand", "parse_card", "parse_deal", "parse_hand")},
    "Rules": ("whist_sim.core.rules", "Rules"),
    "RulesError": ("whist_sim.core.rules", "RulesError"),
    "score": ("whist_sim.core.scoring", "score"),
}


if TYPE_CHECKING:
    # what type checkers see: the real names with their types (the imports never run); the lazy
    # __getattr__ below is hidden from them, so a name not listed here is an error to them
    from .analyses.advisor import advise as advise
    from .core.cards import CardSet as CardSet
    from .core.cards import NotationError as NotationError
    from .core.cards import format_hand as format_hand
    from .core.cards import parse_card as parse_card
    from .core.cards import parse_deal as parse_deal
    from .core.cards import parse_hand as parse_hand
    from .core.rules import Rules as Rules
    from .core.rules import RulesError as RulesError
    from .core.scoring import score as score
    from .runs.dataset import load as load
    from .runs.dataset import load_manifest as load_manifest
else:

    def __getattr__(name: str):
        if name in _LAZY:
            import importlib

            module, attr = _LAZY[name]
            value = getattr(importlib.import_module(module), attr)
            globals()[name] = value
            return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CardSet",
    "NotationError",
    "Rules",
    "RulesError",
    "__version__",
    "advise",
    "format_hand",
    "load",
    "load_manifest",
    "parse_card",
    "parse_deal",
    "parse_hand",
    "score",
]
