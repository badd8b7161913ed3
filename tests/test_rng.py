"""The counter-based random stream of docs/ENGINE.md §2."""

import pytest

from whist_sim.core.rng import DealRng, mix64, stream_start


def test_splitmix64_known_values():
    # SplitMix64 seeded with 0 yields these first outputs (the published reference sequence).
    state, out = 0, []
    for _ in range(3):
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        out.append(mix64(state))
    assert out == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_streams_depend_only_on_seed_and_deal():
    a = DealRng(7, 123)
    b = DealRng(7, 123)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    assert DealRng(7, 124).next64() != DealRng(7, 123).next64()
    assert DealRng(8, 123).next64() != DealRng(7, 123).next64()
    assert DealRng(7, 5).state == stream_start(7, 5)


def test_below_is_in_range_and_roughly_uniform():
    rng = DealRng(1, 0)
    counts = [0] * 6
    for _ in range(60_000):
        counts[rng.below(6)] += 1
    assert all(9_400 < c < 10_600 for c in counts)  # about ±6 standard deviations
    assert rng.draws == 60_000


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "3", True])
def test_bad_seed_is_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        DealRng(seed, 0)
