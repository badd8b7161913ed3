"""Random double-dummy positions, for tests and benchmarks."""

from __future__ import annotations

import numpy as np


def random_positions(rng: np.random.Generator, n: int, cards: int, suits: int = 4) -> np.ndarray:
    """``n`` random positions (``uint64[n, 4]`` hand masks by seat) of ``cards`` cards per hand,
    drawn from ``suits`` randomly chosen suits (fewer suits: more following and ruffing)."""
    if not 1 <= suits <= 4 or not 0 <= 4 * cards <= 13 * suits:
        raise ValueError(f"cannot deal {cards} cards to four hands from {suits} suits")
    out = np.zeros((n, 4), np.uint64)
    for i in range(n):
        chosen = rng.permutation(4)[:suits]
        deck = np.concatenate([np.arange(13) + 13 * s for s in chosen])
        perm = rng.permutation(deck)[: 4 * cards]
        for s in range(4):
            m = 0
            for c in perm[s * cards : (s + 1) * cards]:
                m |= 1 << int(c)
            out[i, s] = m
    return out
