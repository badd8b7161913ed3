"""Bit primitives of the compiled engine (LLVM ctpop / cttz / ctlz) against plain Python."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.compiled.ground.bits import (
    SUIT_MASK,
    SUIT_OF,
    clz,
    ctz,
    highest_bit,
    nth_bit,
    nth_bit_loop,
    popcount,
)

MASKS = st.integers(0, 2**64 - 1)


@settings(max_examples=200, deadline=None)
@given(MASKS)
def test_popcount_ctz_clz(m):
    x = np.uint64(m)
    assert popcount(x) == m.bit_count()
    if m:
        assert ctz(x) == (m & -m).bit_length() - 1
        assert clz(x) == 64 - m.bit_length()
        assert highest_bit(x) == m.bit_length() - 1
    else:
        assert ctz(x) == 64 and clz(x) == 64


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 2**52 - 1), st.data())
def test_nth_bit(m, data):
    bits = [i for i in range(64) if m >> i & 1]
    k = data.draw(st.integers(0, len(bits) - 1))
    assert nth_bit(np.uint64(m), k) == bits[k] == nth_bit_loop(np.uint64(m), k)


def test_suit_masks():
    # docs/ENGINE.md §1: card = 13 * suit + rank
    assert [int(m) for m in SUIT_MASK] == [0x1FFF << (13 * s) for s in range(4)]
    assert list(SUIT_OF) == [c // 13 for c in range(52)]
