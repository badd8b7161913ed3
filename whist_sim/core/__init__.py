"""The ground floor: what every other part of whist-sim stands on.

* :mod:`.cards` - the card encoding (``13 * suit + rank``, ``uint64`` hands), ``CardSet``, the
  notation of cards, hands, deals and strains (RULES §9): one parser and printer of each;
* :mod:`.rules` - :class:`~whist_sim.core.rules.Rules`, every rule option of RULES.md, validated;
* :mod:`.rng` - the counter-based random stream (docs/ENGINE.md §2);
* :mod:`.scoring` - the score of a contract (RULES §6);
* :mod:`.stats` - every statistic: means and intervals, paired tests, SPRT;
* :mod:`.registry` - the one registry of policies, for both engines: names, ids, descriptions,
  parameters, where each one's compiled decision functions are and its reference twin;
* :mod:`.spec` - the one spec parser: ``name`` or ``name:key=value[:key=value...]``;
* :mod:`.version` - the installed version (``whist_sim.__version__``).

Nothing here imports numba, pandas or any other part of the package.
"""
