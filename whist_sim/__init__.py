"""whist-sim: a Monte Carlo strategy analyser for Israeli Whist.

The rule book is RULES.md; how simulated deals are generated is docs/ENGINE.md.
Cards are ``13 * suit + rank`` (suit 0..3 = C, D, H, S; rank 0..12 = 2..A); hands are ``uint64``
bitmasks (bit ``i`` = card ``i``); seats are 0..3 clockwise.
"""

import sys
from typing import TYPE_CHECKING

from .compiled.ground._cache import configure_numba_cache
from .core.version import __version__

# before numba is first imported: every way of starting whist-sim shares one cache of compiled
# kernels
configure_numba_cache()

#: modules that moved when the package was cut into floors (old name -> new name, under
#: ``whist_sim.``): ``import whist_sim.advisor`` or ``whist_sim.kernels.batch`` still works and
#: gives the one module object of its new home (a sub-module of a moved package moves with it)
MOVED = {
    "advisor": "analyses.advisor",
    "bench": "analyses.bench",
    "check": "analyses.check",
    "reports": "analyses.reports",
    "tournament": "analyses.tournament",
    "cli": "interfaces.cli",
    "manual": "interfaces.manual",
    "openspiel": "interfaces.openspiel",
    "web": "interfaces.web",
    "_cache": "compiled.ground._cache",
    "kernels": "compiled",
    "kernels._numba": "compiled.ground._numba",
    "kernels.bits": "compiled.ground.bits",
    "kernels.conditional": "compiled.ground.conditional",
    "kernels.layout": "compiled.ground.layout",
    "kernels.rng": "compiled.ground.rng",
    "kernels.sampler": "compiled.ground.sampler",
    "kernels.loop": "compiled.loop.phases",
    "kernels.advise_batch": "compiled.entry.advise",
    "kernels.batch": "compiled.entry.batch",
    "kernels.deal": "compiled.entry.deal",
    "kernels.decide": "compiled.entry.decide",
    "kernels.tournament_kernel": "compiled.entry.tournament",
    "strategies": "compiled.strategies",
    "strategies.bidding.montecarlo": "compiled.search.montecarlo",
    "strategies.inference": "compiled.search.inference",
    "strategies.play.rollout": "compiled.search.rollout",
}


def moved_name(name: str) -> str | None:
    """The new full name of the old module ``name`` (``whist_sim.kernels.batch`` ->
    ``whist_sim.compiled.entry.batch``), or None when ``name`` did not move."""
    prefix = __name__ + "."
    if not name.startswith(prefix):
        return None
    parts = name[len(prefix):].split(".")
    for n in range(len(parts), 0, -1):
        new = MOVED.get(".".join(parts[:n]))
        if new is not None:
            return prefix + ".".join([new, *parts[n:]])
    return None


class _MovedModules:
    """A meta path finder and loader for the old module names: an old module name is answered with
    the module itself; an old package name with a stand-in package whose attributes are the moved
    package's, and whose sub-modules are found under their old names too."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        import importlib.util
        from importlib.machinery import ModuleSpec

        new = moved_name(name)
        if new is None or importlib.util.find_spec(new) is None:
            return None
        return ModuleSpec(name, _MovedModules)

    @staticmethod
    def create_module(spec):
        return None

    @staticmethod
    def exec_module(module) -> None:
        import importlib
        import importlib.util

        old = module.__name__
        new = moved_name(old)
        assert new is not None
        real = importlib.import_module(new)
        if not hasattr(real, "__path__"):
            # the import system returns what sys.modules holds under the old name after this call
            sys.modules[old] = real
            return

        def attribute(name: str):
            try:
                return getattr(real, name)
            except AttributeError:
                pass
            moved = moved_name(f"{old}.{name}")
            if moved is not None and importlib.util.find_spec(moved) is not None:
                return importlib.import_module(f"{old}.{name}")
            raise AttributeError(f"module {old!r} has no attribute {name!r}")

        module.__path__ = []
        module.__doc__ = real.__doc__
        module.__getattr__ = attribute


if not any(f is _MovedModules for f in sys.meta_path):
    sys.meta_path.insert(0, _MovedModules)

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
