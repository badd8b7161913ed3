"""The compiled random stream is the twin of whist_sim/core/rng.py (docs/ENGINE.md §2).

Deal ``i`` of a run depends only on ``(seed, i)``: both generators must give identical draws.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.compiled.ground.rng import draws_below, draws_raw, stream_start
from whist_sim.core.rng import DealRng
from whist_sim.core.rng import stream_start as py_stream_start

SEEDS = st.integers(0, 2**64 - 1)
DEALS = st.integers(0, 2**63 - 1)


@settings(max_examples=60, deadline=None)
@given(SEEDS, DEALS)
def test_raw_draws_identical(seed, deal):
    py = DealRng(seed, deal)
    got = draws_raw(np.uint64(seed), np.uint64(deal), 20)
    assert [int(x) for x in got] == [py.next64() for _ in range(20)]


@settings(max_examples=60, deadline=None)
@given(SEEDS, DEALS, st.lists(st.integers(1, 60), min_size=1, max_size=60))
def test_below_identical(seed, deal, ns):
    py = DealRng(seed, deal)
    got = draws_below(np.uint64(seed), np.uint64(deal), np.array(ns, dtype=np.int64))
    assert [int(x) for x in got] == [py.below(n) for n in ns]


def test_stream_start_identical_at_edges():
    for seed in (0, 1, 2**63 - 1, 2**63, 2**64 - 1):
        for deal in (0, 1, 7, 2**32, 2**63 - 1):
            got = stream_start(np.uint64(seed), np.uint64(deal))
            assert int(got) == py_stream_start(seed, deal)


def test_below_range_and_one_draw_each():
    # below(1) is always 0 and still consumes a draw (ENGINE.md §4: one draw per decision)
    ns = np.array([1, 52, 1, 2], dtype=np.int64)
    got = draws_below(np.uint64(5), np.uint64(3), ns)
    py = DealRng(5, 3)
    assert [int(x) for x in got] == [py.below(int(n)) for n in ns]
    assert got[0] == 0 and got[2] == 0 and 0 <= got[1] < 52


def test_streams_differ_between_deals():
    a = draws_raw(np.uint64(1), np.uint64(0), 4)
    b = draws_raw(np.uint64(1), np.uint64(1), 4)
    assert not np.array_equal(a, b)
