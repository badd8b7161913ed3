"""whist-sim: a Monte Carlo strategy analyser for Israeli Whist.

The rule book is RULES.md; how simulated deals are generated is docs/ENGINE.md.
Cards are ``13 * suit + rank`` (suit 0..3 = C, D, H, S; rank 0..12 = 2..A); hands are ``uint64``
bitmasks (bit ``i`` = card ``i``); seats are 0..3 clockwise.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("whist-sim")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"

from .advisor import advise as advise  # whist_sim.advise(HAND, ...) -> Advice: the hand advisor
from .core.cards import CardSet, NotationError, format_hand, parse_card, parse_deal, parse_hand
from .core.rules import Rules, RulesError
from .core.scoring import score
from .runs.dataset import load as load  # whist_sim.load(DIR): a simulation dataset

__all__ = [
    "CardSet",
    "NotationError",
    "Rules",
    "RulesError",
    "__version__",
    "format_hand",
    "parse_card",
    "parse_deal",
    "parse_hand",
    "score",
]
