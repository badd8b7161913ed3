"""The hand advisor (``whist-sim advise``) and the bid charts (``whist-sim bid-chart``).

Docs: docs/ADVISOR.md (the method, the options and the JSON schema). One module per job; each
imports only the ones above it in this list, so there is no import cycle:

* :mod:`~whist_sim.analyses.advisor.scenario`: what the player knows, parsed and checked against the
  rules (:class:`Scenario`, :func:`resolve_scenario`, :class:`AdviceError`);
* :mod:`~whist_sim.analyses.advisor.sampling`: dealing the hidden hands and playing every candidate
  on them (:func:`run_scenario`, :func:`sample_play_hands`, the kernels' policy arrays);
* :mod:`~whist_sim.analyses.advisor.cells`: the numbers and text cells of the outputs;
* :mod:`~whist_sim.analyses.advisor.options`: the options of an advice as one value, checked and
  parsed once (:class:`AdviseOptions`), and the screening rule;
* :mod:`~whist_sim.analyses.advisor.dd_view`: the double-dummy view of an advice (:class:`DDView`);
* :mod:`~whist_sim.analyses.advisor.render`: the advice as text, JSON and plot;
* :mod:`~whist_sim.analyses.advisor.evaluate`: :func:`advise`, its statistics and the
  :class:`Advice`;
* :mod:`~whist_sim.analyses.advisor.bidchart`: bid charts over many sampled hands;

The names below are re-exported here, so ``from whist_sim.analyses.advisor import advise`` (or
``AdviceError``, ``Scenario``, ...) works; the bid charts are imported from
:mod:`whist_sim.analyses.advisor.bidchart`.
"""

from typing import TYPE_CHECKING

# The names below are imported on first use (PEP 562): importing one light module of the package
# (``scenario``, ``chart_lookup``) does not import the sampler, the kernels or pandas, so that
# ``whist-sim chart`` answers in well under a second.
_LAZY = {
    **{name: "dd_view" for name in ("DD_OBJECTIVES", "DEFAULT_DD_DEALS", "DEFAULT_DD_NODE_LIMIT",
                                    "EVALUATIONS", "DDView", "check_dd_options",
                                    "check_min_node_limit", "dd_view", "solve_dd")},
    **{name: "evaluate" for name in ("DEFAULT_DEALS", "Advice", "advise", "summarize")},
    "AdviseOptions": "options",
    **{name: "render" for name in ("JSON_SCHEMA", "render_text")},
    **{name: "sampling" for name in ("MODEL_BID_POLICIES", "RunResult", "SampledDeals",
                                     "run_scenario", "sample_play_hands")},
    **{name: "scenario" for name in ("AdviceError", "Scenario", "parse_constraint",
                                     "parse_strain", "resolve_scenario")},
}

if TYPE_CHECKING:  # what type checkers see: the real names (the imports never run)
    from .dd_view import (
        DD_OBJECTIVES,
        DEFAULT_DD_DEALS,
        DEFAULT_DD_NODE_LIMIT,
        EVALUATIONS,
        DDView,
        check_dd_options,
        check_min_node_limit,
        dd_view,
        solve_dd,
    )
    from .evaluate import DEFAULT_DEALS, Advice, advise, summarize
    from .options import AdviseOptions
    from .render import JSON_SCHEMA, render_text
    from .sampling import (
        MODEL_BID_POLICIES,
        RunResult,
        SampledDeals,
        run_scenario,
        sample_play_hands,
    )
    from .scenario import AdviceError, Scenario, parse_constraint, parse_strain, resolve_scenario
else:

    def __getattr__(name: str):
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        globals()[name] = value
        return value

__all__ = [
    "DD_OBJECTIVES",
    "DEFAULT_DD_DEALS",
    "DEFAULT_DD_NODE_LIMIT",
    "DEFAULT_DEALS",
    "EVALUATIONS",
    "JSON_SCHEMA",
    "MODEL_BID_POLICIES",
    "Advice",
    "AdviceError",
    "AdviseOptions",
    "DDView",
    "RunResult",
    "SampledDeals",
    "Scenario",
    "advise",
    "check_dd_options",
    "check_min_node_limit",
    "dd_view",
    "parse_constraint",
    "parse_strain",
    "render_text",
    "resolve_scenario",
    "run_scenario",
    "sample_play_hands",
    "solve_dd",
    "summarize",
]
