"""The compiled batch engine: numba kernels that play complete deals (docs/ENGINE.md).

Its sub-folders are its floors, from the ground up; a module imports only from its own floor and
the floors below it (``tests/test_floors.py`` checks every import):

1. :mod:`.ground` - numba options and the cache (``_numba``, ``_cache``), calls by address
   (``addresses``), bit tricks (``bits``),
   the deal state's slots (``layout``), the kernel RNG (``rng``), the samplers of hidden hands
   (``sampler``, ``conditional``);
2. :mod:`.strategies` - the registry, the seat specs and ``Seating``, the strategies that do not
   search (bidding and play kernels) and the dispatch that asks them (``dispatch``);
3. :mod:`.loop` - the phase machine of one deal and its modes (``phases``: legal choices,
   transitions, ``run_base``);
4. :mod:`.search` - strategies that run the loop: ``montecarlo`` bidding, ``rollout`` play and the
   inference of hidden hands from the bids (``inference``);
5. :mod:`.entry` - the loop and the searching strategies compiled as C functions and their loop
   tables (``deal``), and
   the entry points: ``batch``, ``decide`` (one seat's decision for the table), ``advise``
   (the advisor's and the bid chart's kernels), ``tournament``.
"""
