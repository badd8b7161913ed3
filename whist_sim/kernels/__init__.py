"""The compiled batch engine: numba kernels that play complete deals (docs/ENGINE.md).

Layers, from the ground up (each module imports only from the ones above it in this list):

* :mod:`._numba` - the one place with the numba options (``jit``);
* :mod:`.bits` - popcount / trailing- and leading-zero counts as LLVM intrinsics, suit masks;
* :mod:`.rng` - the compiled twin of :mod:`whist_sim.core.rng`;
* :mod:`.layout` - the deal state: slot indices of the plain arrays, the phases of a deal;
* :mod:`.random_policy`, :mod:`.heuristic`, :mod:`.strategies` - the strategies that do not
  search;
* :mod:`.dispatch` - the decision points (call, Frisch, contract, card) of the base loop;
* :mod:`.loop` - the one deal loop: legal choices, transitions, and the phase machine that
  resumes a deal from any point (``run_base``);
* :mod:`.strategy_montecarlo` - the searching bidding strategy (plays sampled deals with
  ``run_base``);
* :mod:`.deal` - ``run_full`` (the loop with every strategy) and ``play_deal``;
* :mod:`.conditional` - dealing around known cards and under constraints;
* :mod:`.batch`, :mod:`.advise_batch`, :mod:`.tournament_kernel` - the batch entry points.
"""
