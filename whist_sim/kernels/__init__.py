"""The compiled batch engine: numba kernels that play complete deals (docs/ENGINE.md).

The compiled ground and the loop; the strategies' kernels live in :mod:`whist_sim.strategies`
(one layer between them: the loop asks them through :mod:`whist_sim.strategies.dispatch`).

* :mod:`._numba` - the one place with the numba options (``jit``) and the cache freshness stamp;
* :mod:`.bits` - popcount / trailing- and leading-zero counts as LLVM intrinsics, suit masks;
* :mod:`.rng` - the compiled twin of :mod:`whist_sim.core.rng`, and the decision streams of the
  strategies that search;
* :mod:`.layout` - the deal state: slot indices of the plain arrays, the phases of a deal;
* :mod:`.conditional` - dealing around known cards and under constraints;
* :mod:`.loop` - the one deal loop: legal choices, transitions, and the phase machine that
  resumes a deal from any point (``run_base``: the strategies that do not search);
* :mod:`.deal` - ``run_full`` (the loop with every strategy, the searching ones included), the
  loop of each mode compiled once and shared by address (``loop_address``), ``play_deal_in``;
* :mod:`.batch`, :mod:`.advise_batch`, :mod:`.tournament_kernel` - the batch entry points.
"""
