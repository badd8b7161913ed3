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

from __future__ import annotations

import os
from pathlib import Path


def _sync_source_stamps() -> None:
    """Give every kernel source file the newest modification time among them.

    numba's on-disk cache (``cache=True``) revalidates a compiled function only against the file
    that defines it, but the phase functions inline the policies and bit helpers of other files.
    After an edit of, say, ``heuristic.py``, a cached ``phases.play`` would still run the old code.
    Keeping all files at one timestamp makes any edit invalidate every cached kernel. Read-only
    installs are left alone (their sources do not change).
    """
    here = Path(__file__).parent
    files = sorted(here.glob("*.py"))
    watched = files + [here.parent / "policies.py", here.parent / "rng.py"]
    try:
        newest = max(f.stat().st_mtime_ns for f in watched if f.exists())
        for f in files:
            st = f.stat()
            if st.st_mtime_ns != newest:
                os.utime(f, ns=(st.st_atime_ns, newest))
    except OSError:
        pass


_sync_source_stamps()
