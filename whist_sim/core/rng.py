"""Counter-based random numbers: deal ``i`` of a run depends only on ``(seed, i)``.

Both engines use exactly this generator, so they draw the same numbers in the same order:

* ``stream_start(seed, deal) = mix64((mix64(seed) + deal * GOLDEN) mod 2**64)``;
* each draw advances ``state += GOLDEN`` and returns ``mix64(state)`` (SplitMix64);
* ``below(n)`` (an index in ``0..n-1``) is ``((draw >> 32) * n) >> 32``.

``mix64`` is the SplitMix64 finaliser. All arithmetic is modulo 2**64. The compiled twin of this
module lives in :mod:`whist_sim.compiled.ground.rng`.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
MAX_DEALS = 10**12  # most deals of one run (simulate, tournament): deal indices stay far below
#   2**63, where the compiled engine's int64 deal numbers end
GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    z &= MASK64
    z = ((z ^ (z >> 30)) * _M1) & MASK64
    z = ((z ^ (z >> 27)) * _M2) & MASK64
    return z ^ (z >> 31)


def stream_start(seed: int, deal: int) -> int:
    """Initial state of the random stream of deal ``deal`` in a run seeded with ``seed``."""
    return mix64((mix64(seed) + (deal & MASK64) * GOLDEN) & MASK64)


class DealRng:
    """The random stream of one deal (pure Python; the reference engine's generator)."""

    __slots__ = ("state", "draws")

    def __init__(self, seed: int, deal: int = 0):
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
            raise ValueError(f"seed must be a whole number in 0..2**64-1, got {seed!r}")
        if not isinstance(deal, int) or deal < 0:
            raise ValueError(f"deal index must be a whole number >= 0, got {deal!r}")
        self.state = stream_start(seed, deal)
        self.draws = 0

    def next64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        self.draws += 1
        return mix64(self.state)

    def below(self, n: int) -> int:
        """Uniform index in ``0..n-1`` (``n`` >= 1) from one draw."""
        return ((self.next64() >> 32) * n) >> 32
