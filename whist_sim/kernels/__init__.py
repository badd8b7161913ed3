"""The compiled batch engine: numba kernels that play complete deals (docs/ENGINE.md).

Layout:

* :mod:`._numba` - the one place with the numba options (``jit``);
* :mod:`.bits` - popcount / trailing- and leading-zero counts as LLVM intrinsics, suit masks;
* :mod:`.rng` - the compiled twin of :mod:`whist_sim.rng`;
* :mod:`.layout` - the deal state: slot indices of the plain arrays every phase works on;
* :mod:`.random_policy`, :mod:`.heuristic` - the built-in compiled policies;
* :mod:`.policies` - one dispatcher per decision kind (call, Frisch, contract, card);
* :mod:`.phases` - the deal loop as phase functions (deal, auction + Frisch, contracts, play,
  score);
* :mod:`.batch` - ``play_batch`` / ``play_traces``, the Python entry points.
"""
