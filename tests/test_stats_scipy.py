"""whist_sim.core.stats cross-checked against scipy's own implementations of the same statistics:
binomial intervals (``binomtest(...).proportion_ci``), t intervals and one-sample t tests
(``ttest_1samp``), the distributions (``t``, ``beta``, ``norm``) and sample moments, on random
inputs (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from whist_sim.core.stats import (
    Moments,
    beta_cdf,
    beta_quantile,
    diff_interval,
    mean_interval,
    mean_interval_from_sums,
    normal_interval,
    paired_test,
    proportion_interval,
    t_cdf,
    t_quantile,
    weighted_quantile,
    wilson_interval,
    z_value,
)

CONF = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99])
# a count of successes out of n, 1 <= n <= 2000
COUNTS = st.integers(1, 2000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))
SAMPLES = st.lists(st.integers(-200, 200), min_size=2, max_size=300).filter(
    lambda xs: len(set(xs)) > 1)  # integer points, as scores are; not all equal


def close(a, b, rel=1e-9, abs_=1e-12):
    return math.isclose(a, b, rel_tol=rel, abs_tol=abs_)


@settings(max_examples=200, deadline=None)
@given(COUNTS, CONF)
def test_wilson_interval_is_scipys_wilson(kn, conf):
    k, n = kn
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilson")
    low, high = wilson_interval(k, n, conf)
    assert close(low, ci.low, abs_=1e-12) and close(high, ci.high, abs_=1e-12)


@settings(max_examples=200, deadline=None)
@given(COUNTS, CONF)
def test_wilson_with_continuity_correction_is_scipys_wilsoncc(kn, conf):
    k, n = kn
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=conf, method="wilsoncc")
    low, high = proportion_interval(k, n, conf, method="wilson_cc")
    assert close(low, ci.low, abs_=1e-12) and close(high, ci.high, abs_=1e-12)


@settings(max_examples=100, deadline=None)
@given(COUNTS, CONF)
def test_clopper_pearson_is_scipys_exact_interval(kn, conf):
    k, n = kn
    ci = sps.binomtest(k, n).proportion_ci(confidence_level=conf, method="exact")
    low, high = proportion_interval(k, n, conf, method="clopper_pearson")
    assert close(low, ci.low, rel=1e-8, abs_=1e-12) and close(high, ci.high, rel=1e-8,
                                                                abs_=1e-12)


@settings(max_examples=100, deadline=None)
@given(COUNTS, CONF)
def test_jeffreys_is_the_equal_tailed_beta_interval(kn, conf):
    k, n = kn
    a = 1 - conf
    low, high = proportion_interval(k, n, conf, method="jeffreys")
    want_low = 0.0 if k == 0 else sps.beta.ppf(a / 2, k + 0.5, n - k + 0.5)
    want_high = 1.0 if k == n else sps.beta.ppf(1 - a / 2, k + 0.5, n - k + 0.5)
    assert close(low, want_low, rel=1e-8) and close(high, want_high, rel=1e-8)


@settings(max_examples=100, deadline=None)
@given(SAMPLES, CONF)
def test_mean_interval_is_scipys_one_sample_t_interval(xs, conf):
    x = np.array(xs, dtype=float)
    mean, sd, low, high = mean_interval(x, conf)
    res = sps.ttest_1samp(x, 0.0)
    ci = res.confidence_interval(confidence_level=conf)
    assert close(mean, float(np.mean(x))) and close(sd, float(np.std(x, ddof=1)))
    assert close(low, ci.low, rel=1e-9, abs_=1e-9) and close(high, ci.high, rel=1e-9, abs_=1e-9)
    # the streamed form: from n, sum x and sum x**2
    m2, sd2, low2, high2 = mean_interval_from_sums(len(xs), sum(xs), sum(v * v for v in xs), conf)
    assert close(m2, mean) and close(sd2, sd, rel=1e-9)
    assert close(low2, ci.low, rel=1e-9, abs_=1e-9) and close(high2, ci.high, rel=1e-9,
                                                               abs_=1e-9)


@settings(max_examples=100, deadline=None)
@given(SAMPLES, CONF)
def test_paired_test_is_scipys_one_sample_t_test_of_the_differences(xs, conf):
    d = np.array(xs, dtype=float)
    mean, low, high, p = paired_test(Moments.of(d), conf)
    res = sps.ttest_1samp(d, 0.0)
    ci = res.confidence_interval(confidence_level=conf)
    assert close(mean, float(d.mean()))
    assert close(low, ci.low, rel=1e-9, abs_=1e-9) and close(high, ci.high, rel=1e-9, abs_=1e-9)
    assert close(p, float(res.pvalue), rel=1e-7, abs_=1e-14)


@settings(max_examples=100, deadline=None)
@given(st.lists(SAMPLES, min_size=1, max_size=5))
def test_merged_moments_are_numpys_moments_of_the_whole_sample(parts):
    m = Moments()
    for p in parts:
        m = m + Moments.of(p)
    whole = np.concatenate([np.array(p, dtype=float) for p in parts])
    assert m.n == whole.size and close(m.mean, float(whole.mean()), abs_=1e-9)
    assert close(m.var, float(np.var(whole, ddof=1)), rel=1e-9, abs_=1e-9)
    assert close(m.se, float(sps.sem(whole)), rel=1e-9, abs_=1e-9)


@pytest.mark.parametrize("df", [1, 2, 5, 29, 300, 10**6])
@pytest.mark.parametrize("p", [0.001, 0.025, 0.3, 0.5, 0.9, 0.975])
def test_t_distribution_is_scipys(df, p):
    q = t_quantile(p, df)
    assert close(q, float(sps.t.ppf(p, df)), rel=1e-12, abs_=1e-12)
    assert close(t_cdf(q, df), float(sps.t.cdf(q, df)), rel=1e-12)


@pytest.mark.parametrize("a, b", [(0.5, 0.5), (1, 1), (2.5, 7), (40, 3), (1000.5, 20.5)])
@pytest.mark.parametrize("x", [0.0, 0.01, 0.3, 0.5, 0.97, 1.0])
def test_beta_distribution_is_scipys(a, b, x):
    assert close(beta_cdf(x, a, b), float(sps.beta.cdf(x, a, b)), rel=1e-12, abs_=1e-300)
    if 0 < x < 1:
        assert close(beta_quantile(x, a, b), float(sps.beta.ppf(x, a, b)), rel=1e-10)


@given(CONF, st.floats(-100, 100), st.floats(0.001, 50), st.floats(-100, 100),
       st.floats(0.001, 50))
def test_normal_and_difference_intervals_are_scipys_normal_intervals(conf, ma, sa, mb, sb):
    assert close(z_value(conf), float(sps.norm.ppf(0.5 + conf / 2)), rel=1e-12)
    low, high = normal_interval(ma, sa, conf)
    want = sps.norm.interval(conf, loc=ma, scale=sa)
    assert close(low, want[0], abs_=1e-9) and close(high, want[1], abs_=1e-9)
    d, dl, dh = diff_interval(ma, sa, mb, sb, conf)
    want = sps.norm.interval(conf, loc=ma - mb, scale=math.hypot(sa, sb))
    assert close(d, ma - mb, abs_=1e-12)
    assert close(dl, want[0], abs_=1e-9) and close(dh, want[1], abs_=1e-9)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(1, 20)), min_size=1, max_size=40,
                unique_by=lambda t: t[0]),
       st.floats(0, 1))
def test_weighted_quantile_is_numpys_inverted_cdf_of_the_expanded_sample(pairs, q):
    values = [v for v, _ in pairs]
    weights = [w for _, w in pairs]
    expanded = np.repeat(np.array(values, dtype=float), weights)
    assert weighted_quantile(values, weights, q) == float(
        np.quantile(expanded, q, method="inverted_cdf"))
