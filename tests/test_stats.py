"""Tests of whist_sim.core.stats: intervals checked against closed forms and published values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from whist_sim.core.stats import (
    Moments,
    Sprt,
    beta_cdf,
    beta_quantile,
    diff_interval,
    half_width_ratio,
    mean_interval,
    mean_interval_from_sums,
    normal_interval,
    paired_test,
    proportion_interval,
    rate,
    regularized_beta,
    t_cdf,
    t_quantile,
    variance_from_sums,
    weighted_quantile,
    wilson_interval,
    z_value,
)


def test_z_value():
    assert z_value(0.95) == pytest.approx(1.959963984540054, abs=1e-12)
    assert z_value(0.99) == pytest.approx(2.5758293035489, abs=1e-9)
    with pytest.raises(ValueError, match="confidence"):
        z_value(95)


def test_wilson_known_values():
    # Wilson (1927) / Newcombe (1998) table 1: 8 of 10 -> 0.4902..0.9433
    lo, hi = wilson_interval(8, 10)
    assert (lo, hi) == pytest.approx((0.4902, 0.9433), abs=5e-5)
    # continuity-corrected, Newcombe method 4: 0.4422..0.9646
    lo, hi = wilson_interval(8, 10, correction=True)
    assert (lo, hi) == pytest.approx((0.4422, 0.9646), abs=5e-5)
    # closed form at k = 0: upper bound z^2 / (n + z^2)
    z = z_value()
    assert wilson_interval(0, 20) == (0.0, pytest.approx(z * z / (20 + z * z)))
    assert wilson_interval(20, 20)[1] == 1.0


def test_wilson_vectorised_and_empty_groups():
    lo, hi = wilson_interval([0, 5, 3], [0, 10, 3])
    assert isinstance(lo, np.ndarray) and lo.shape == (3,)
    assert math.isnan(lo[0]) and math.isnan(hi[0])
    assert lo[1] < 0.5 < hi[1]
    assert hi[2] == 1.0
    assert isinstance(wilson_interval(1, 2)[0], float)


@pytest.mark.parametrize("k,n", [(-1, 5), (6, 5), (1, -2)])
def test_wilson_rejects_impossible_counts(k, n):
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(k, n)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from([0.8, 0.9, 0.95, 0.99]))
def test_wilson_contains_estimate_and_narrows_with_confidence(a, b, conf):
    n, k = max(a, b), min(a, b)
    if n == 0:
        return
    lo, hi = wilson_interval(k, n, conf)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    lo2, hi2 = wilson_interval(k, n, min(conf + 0.009, 0.999))
    assert lo2 <= lo + 1e-12 and hi2 >= hi - 1e-12
    clo, chi = wilson_interval(k, n, conf, correction=True)
    assert clo <= lo + 1e-12 and chi >= hi - 1e-12


def test_clopper_pearson_and_jeffreys():
    # exact closed forms at the boundary: k = 0 -> upper = 1 - (alpha/2)^(1/n)
    assert proportion_interval(0, 10, method="clopper_pearson") == (
        0.0,
        pytest.approx(1 - 0.025 ** (1 / 10), abs=1e-10),
    )
    # published: 3 of 10 -> 0.0667..0.6525 (exact), Jeffreys 0.0927..0.6058
    assert proportion_interval(3, 10, method="clopper_pearson") == pytest.approx(
        (0.0667, 0.6525), abs=5e-5
    )
    assert proportion_interval(3, 10, method="jeffreys") == pytest.approx(
        (0.0927, 0.6058), abs=5e-5
    )
    lo, hi = proportion_interval([0, 2], [0, 4], method="clopper_pearson")
    assert math.isnan(lo[0]) and hi[1] == pytest.approx(1 - lo[1])  # symmetric at p = 1/2
    with pytest.raises(ValueError, match="unknown interval method"):
        proportion_interval(1, 2, method="wald")


def test_regularized_beta_closed_forms():
    for x in (0.0, 0.1, 0.5, 0.93, 1.0):
        assert regularized_beta(x, 1, 1) == pytest.approx(x)  # uniform
        assert regularized_beta(x, 2, 1) == pytest.approx(x * x)  # I_x(a, 1) = x^a
        assert regularized_beta(x, 1, 3) == pytest.approx(1 - (1 - x) ** 3)
    assert regularized_beta(0.3, 4.5, 2.5) + regularized_beta(0.7, 2.5, 4.5) == pytest.approx(1)
    assert beta_cdf(1.5, 2, 2) == 1.0
    assert beta_quantile(0.25, 2, 1) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="positive"):
        regularized_beta(0.5, 0, 1)


def test_t_distribution_known_values():
    assert t_quantile(0.975, 1) == pytest.approx(12.7062047, abs=1e-6)  # Cauchy: tan(0.475 pi)
    assert t_quantile(0.975, 2) == pytest.approx(4.3026527, abs=1e-6)
    assert t_quantile(0.975, 10) == pytest.approx(2.2281389, abs=1e-6)
    assert t_quantile(0.995, 30) == pytest.approx(2.7499957, abs=1e-6)
    assert t_quantile(0.025, 10) == pytest.approx(-2.2281389, abs=1e-6)
    assert t_quantile(0.5, 7) == 0.0
    assert t_quantile(0.975, math.inf) == pytest.approx(z_value())
    assert t_cdf(0.0, 5) == pytest.approx(0.5)
    assert t_cdf(t_quantile(0.9, 4), 4) == pytest.approx(0.9, abs=1e-10)
    assert t_cdf(1.0, 1) == pytest.approx(0.75)  # Cauchy: 1/2 + atan(1)/pi


def test_mean_interval_from_sums_matches_direct():
    x = np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0])
    mean, sd, lo, hi = mean_interval_from_sums(x.size, x.sum(), (x * x).sum())
    assert mean == pytest.approx(x.mean())
    assert sd == pytest.approx(x.std(ddof=1))
    half = t_quantile(0.975, 5) * x.std(ddof=1) / math.sqrt(6)
    assert (lo, hi) == pytest.approx((x.mean() - half, x.mean() + half))
    assert mean_interval(x) == pytest.approx((mean, sd, lo, hi))
    # vectorised, with empty and singleton groups
    m, s, l_, h = mean_interval_from_sums([0, 1, 2], [0, 5, 2], [0, 25, 2])
    assert math.isnan(m[0]) and m[1] == 5 and math.isnan(s[1]) and math.isnan(l_[1])
    assert m[2] == 1 and s[2] == 0.0  # two equal values


def test_mean_interval_large_n_uses_t_close_to_normal():
    n = 10_000
    mean, sd, lo, hi = mean_interval_from_sums(n, 0.0, float(n))
    assert sd == pytest.approx(math.sqrt(n / (n - 1)))
    assert hi == pytest.approx(t_quantile(0.975, n - 1) * sd / math.sqrt(n), rel=1e-6)


def test_diff_interval():
    d, lo, hi = diff_interval(5.0, 0.3, 2.0, 0.4)
    assert d == 3.0
    assert hi - d == pytest.approx(z_value() * 0.5)
    assert lo == pytest.approx(2 * d - hi)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(-200, 200), min_size=0, max_size=40),
    st.lists(st.integers(-200, 200), min_size=0, max_size=40),
)
def test_moments_merge_equals_whole(a, b):
    whole = Moments.of(a + b)
    merged = Moments.of(a) + Moments.of(b)
    assert merged.n == whole.n
    if whole.n:
        assert merged.mean == pytest.approx(whole.mean, abs=1e-9)
        assert merged.m2 == pytest.approx(whole.m2, rel=1e-9, abs=1e-6)
    if whole.n > 1:
        assert merged.sd == pytest.approx(np.std(a + b, ddof=1), rel=1e-9, abs=1e-9)
        lo, hi = merged.interval()
        assert lo <= merged.mean <= hi
    else:
        assert math.isnan(merged.var)


def test_weighted_quantile():
    v, w = [10, 20, 30], [1, 1, 2]
    assert weighted_quantile(v, w, 0.5) == 20
    assert weighted_quantile(v, w, 0.51) == 30
    assert list(weighted_quantile(v, w, [0, 0.25, 1])) == [10, 10, 30]
    assert weighted_quantile([5, 1], [3, 0], 0.0) == 5  # zero weights ignored, order irrelevant
    assert math.isnan(weighted_quantile([], [], 0.5))
    # agrees with the sample quantile of the expanded data (inverted-CDF definition)
    rng = np.random.default_rng(1)
    x = rng.integers(0, 30, size=500)
    vals, counts = np.unique(x, return_counts=True)
    for q in (0.05, 0.25, 0.5, 0.9):
        assert weighted_quantile(vals, counts, q) == np.quantile(x, q, method="inverted_cdf")
    with pytest.raises(ValueError, match="weights"):
        weighted_quantile([1], [-1], 0.5)


# --------------------------------------------------------------------------- paired tests, SPRT


def test_paired_test_matches_the_t_distribution():
    rng = np.random.default_rng(1)
    d = rng.normal(0.3, 1.0, 80)
    m = Moments.of(d)
    mean, lo, hi, p = paired_test(m)
    t = m.mean / m.se
    assert mean == pytest.approx(d.mean())
    assert p == pytest.approx(2 * (1 - t_cdf(abs(t), 79)), rel=1e-6)
    assert lo < mean < hi
    assert paired_test(Moments.of(np.zeros(10)))[1:] == (0.0, 0.0, 1.0)
    assert paired_test(Moments.of(np.full(10, 2.0)))[3] == 0.0


def test_sprt_log_likelihood_ratio_and_decisions():
    rng = np.random.default_rng(7)
    d = rng.normal(1.0, 4.0, 40)
    t = Sprt(0.0, 5.0, min_deals=1000)  # never decides: check the LLR itself
    t.feed(d[:13])
    t.feed(d[13:])
    v = d.var(ddof=1)
    want = (5.0 - 0.0) / v * (d.sum() - d.size * 2.5)
    assert t.llr == pytest.approx(want, rel=1e-9)
    assert t.decision is None and t.moments.n == 40
    # a clear effect decides for H1, a clear null for H0, each at the first crossing
    h1 = Sprt(0.0, 5.0)
    stop = h1.feed(rng.normal(5.0, 4.0, 500))
    assert h1.decision == "H1" and h1.decided_at == stop + 1 and h1.llr >= h1.upper
    h0 = Sprt(0.0, 5.0)
    h0.feed(rng.normal(0.0, 4.0, 500))
    assert h0.decision == "H0" and h0.llr <= h0.lower
    assert math.isclose(h0.upper, math.log(19)) and math.isclose(h0.lower, -math.log(19))


def test_sprt_refuses_impossible_bounds_and_error_rates():
    for args in ((1.0, 1.0), (0.0, math.inf), (math.nan, 1.0)):
        with pytest.raises(ValueError, match="two different numbers"):
            Sprt(*args)
    with pytest.raises(ValueError, match="alpha"):
        Sprt(0.0, 1.0, alpha=0.5)
    with pytest.raises(ValueError, match="beta"):
        Sprt(0.0, 1.0, beta=0.0)


def test_rate_variance_normal_interval_and_width_ratio():
    assert rate(3, 4) == 0.75 and rate(0, 0) is None
    x = np.array([1.0, 2.0, 4.0, 7.0])
    assert variance_from_sums(x.size, x.sum(), (x * x).sum()) == pytest.approx(x.var(ddof=1))
    assert math.isnan(variance_from_sums(1, 2.0, 4.0))
    assert variance_from_sums(3, 3.0, 3.0 - 1e-15) == 0.0  # floored, never negative
    lo, hi = normal_interval(2.0, 0.5)
    assert (lo, hi) == pytest.approx((2.0 - 1.959964 * 0.5, 2.0 + 1.959964 * 0.5), rel=1e-6)
    assert half_width_ratio(3.0, 1.5) == 2.0
    assert half_width_ratio(1.0, 0.0) is None and half_width_ratio(math.nan, 1.0) is None

