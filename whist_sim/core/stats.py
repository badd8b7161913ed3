"""Small statistics helpers: confidence intervals for rates and means, mergeable moments.

Shared by the reports, the tournaments and the advisor, so everything here is general: no Whist in
it (a tournament's per-deal differences are just paired observations here). Conventions:

* ``confidence`` is the two-sided coverage, a fraction in ``(0, 1)`` (``0.95`` = 95 %).
* Interval functions accept scalars or array-likes and broadcast like numpy; they return floats for
  scalar input and ``numpy.ndarray`` otherwise. A group with no observations (``n == 0``) gets
  ``nan`` bounds, never an error, so a table can hold empty groups.
* Means and variances can be computed from *sums* (``n``, ``sum x``, ``sum x**2``), which add up
  across chunks of data; that is how reports stream datasets larger than memory.
* Distributions (normal, Student's t, beta) come from :mod:`scipy.special` (the functions
  :mod:`scipy.stats` calls for them; importing it alone takes a fraction of the time).
* Paired comparisons work on the differences ``a - b`` of paired observations (:func:`paired_test`);
  :class:`Sprt` tests such a stream sequentially, in the order the observations arrive.
* Functions of possibly undefined quantities return ``None`` (:func:`rate`,
  :func:`half_width_ratio`) where a JSON summary needs a missing value, ``nan`` elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special

__all__ = [
    "SPRT_ALPHA",
    "SPRT_BETA",
    "SPRT_MIN_N",
    "Moments",
    "Sprt",
    "beta_cdf",
    "beta_quantile",
    "diff_interval",
    "half_width_ratio",
    "mean_interval",
    "mean_interval_from_sums",
    "normal_interval",
    "paired_test",
    "proportion_interval",
    "rate",
    "regularized_beta",
    "t_cdf",
    "t_quantile",
    "variance_from_sums",
    "weighted_quantile",
    "wilson_interval",
    "z_value",
]

PROPORTION_METHODS = ("wilson", "wilson_cc", "clopper_pearson", "jeffreys")


def _check_confidence(confidence: float) -> float:
    c = float(confidence)
    if not 0.0 < c < 1.0:
        raise ValueError(
            f"confidence must be a fraction between 0 and 1 (e.g. 0.95), got {confidence!r}"
        )
    return c


def _out(x: np.ndarray, scalar: bool):
    return float(x) if scalar else x


def z_value(confidence: float = 0.95) -> float:
    """The standard-normal quantile for a two-sided interval: ``z_value(0.95) = 1.95996...``."""
    c = _check_confidence(confidence)
    return float(special.ndtri(0.5 + c / 2.0))


# --------------------------------------------------------------------------- proportions


def _counts(successes, n) -> tuple[np.ndarray, np.ndarray, bool]:
    scalar = np.ndim(successes) == 0 and np.ndim(n) == 0
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    k, m = np.broadcast_arrays(k, m)
    bad = (k < 0) | (m < 0) | (k > m) | ~np.isfinite(k) | ~np.isfinite(m)
    if np.any(bad):
        i = np.flatnonzero(bad.ravel())[0]
        raise ValueError(
            f"need 0 <= successes <= n, got successes={k.ravel()[i]:g}, n={m.ravel()[i]:g}"
        )
    return k, m, scalar


def wilson_interval(successes, n, confidence: float = 0.95, correction: bool = False):
    """Wilson score interval for a binomial rate ``successes / n``.

    ``correction=True`` applies the continuity correction (Newcombe 1998, method 4), which is a bit
    wider and never undercovers badly for small ``n``. Returns ``(low, high)`` as fractions in
    ``[0, 1]``; ``nan`` where ``n == 0``.

    >>> [round(x, 4) for x in wilson_interval(8, 10)]
    [0.4902, 0.9433]
    """
    k, m, scalar = _counts(successes, n)
    z = z_value(confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / m
        if not correction:
            denom = 1.0 + z * z / m
            centre = (p + z * z / (2 * m)) / denom
            half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / denom
            low, high = centre - half, centre + half
            low = np.where(k == 0, 0.0, low)  # exact at the boundaries (no rounding residue)
            high = np.where(k == m, 1.0, high)
        else:
            q = 1.0 - p
            a = 2 * m * p + z * z
            b = 2 * (m + z * z)
            low = (a - 1 - z * np.sqrt(np.maximum(z * z - 2 - 1 / m + 4 * p * (m * q + 1), 0))) / b
            high = (a + 1 + z * np.sqrt(np.maximum(z * z + 2 - 1 / m + 4 * p * (m * q - 1), 0))) / b
            low = np.where(k == 0, 0.0, low)
            high = np.where(k == m, 1.0, high)
    low = np.where(m > 0, np.clip(low, 0.0, 1.0), np.nan)
    high = np.where(m > 0, np.clip(high, 0.0, 1.0), np.nan)
    return _out(low, scalar), _out(high, scalar)


def proportion_interval(successes, n, confidence: float = 0.95, method: str = "wilson"):
    """Confidence interval for a binomial rate by ``method``.

    ``"wilson"`` (default; good coverage, closed form, vectorised), ``"wilson_cc"`` (with
    continuity correction), ``"clopper_pearson"`` (exact: guaranteed coverage, conservative) or
    ``"jeffreys"`` (equal-tailed Beta(k + 1/2, n - k + 1/2) interval). Returns ``(low, high)``.
    """
    if method == "wilson":
        return wilson_interval(successes, n, confidence)
    if method == "wilson_cc":
        return wilson_interval(successes, n, confidence, correction=True)
    if method not in PROPORTION_METHODS:
        raise ValueError(
            f"unknown interval method {method!r} (use one of {', '.join(PROPORTION_METHODS)})"
        )
    k, m, scalar = _counts(successes, n)
    alpha = 1.0 - _check_confidence(confidence)
    low = np.full(k.shape, np.nan)
    high = np.full(k.shape, np.nan)
    for idx in np.ndindex(k.shape):
        kk, mm = k[idx], m[idx]
        if mm == 0:
            continue
        if method == "clopper_pearson":
            low[idx] = 0.0 if kk == 0 else beta_quantile(alpha / 2, kk, mm - kk + 1)
            high[idx] = 1.0 if kk == mm else beta_quantile(1 - alpha / 2, kk + 1, mm - kk)
        else:  # jeffreys, with the usual convention at the boundaries
            low[idx] = 0.0 if kk == 0 else beta_quantile(alpha / 2, kk + 0.5, mm - kk + 0.5)
            high[idx] = 1.0 if kk == mm else beta_quantile(1 - alpha / 2, kk + 0.5, mm - kk + 0.5)
    return _out(low, scalar), _out(high, scalar)


# --------------------------------------------------------------------------- beta and t
# Thin, validated wrappers over scipy's special functions (accurate to double precision).


def regularized_beta(x: float, a: float, b: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)`` for ``a, b > 0``, ``0 <= x <= 1``."""
    if a <= 0 or b <= 0:
        raise ValueError(f"beta parameters must be positive, got a={a}, b={b}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be in [0, 1], got {x}")
    return float(special.betainc(a, b, x))


def beta_cdf(x: float, a: float, b: float) -> float:
    """Cumulative distribution function of Beta(a, b) at ``x`` (clipped to [0, 1])."""
    return regularized_beta(min(max(float(x), 0.0), 1.0), a, b)


def beta_quantile(p: float, a: float, b: float) -> float:
    """The ``p``-quantile of Beta(a, b): the ``x`` with ``I_x(a, b) = p``."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if a <= 0 or b <= 0:
        raise ValueError(f"beta parameters must be positive, got a={a}, b={b}")
    return float(special.betaincinv(a, b, p))


def t_cdf(t: float, df: float) -> float:
    """Cumulative distribution function of Student's t with ``df > 0`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(df):
        return float(special.ndtr(t))
    return float(special.stdtr(df, t))


def t_quantile(p: float, df: float) -> float:
    """The ``p``-quantile of Student's t: ``t_quantile(0.975, 10) = 2.228...``."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(df):
        return float(special.ndtri(p))
    return float(special.stdtrit(df, p))


def _t_multiplier(df: np.ndarray, confidence: float) -> np.ndarray:
    """Two-sided t quantile per degrees of freedom (``nan`` where ``df < 1``)."""
    c = _check_confidence(confidence)
    df = np.asarray(df, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(df >= 1, special.stdtrit(np.maximum(df, 1.0), 0.5 + c / 2.0), np.nan)


# --------------------------------------------------------------------------- means


def mean_interval_from_sums(n, total, total_sq, confidence: float = 0.95):
    """Mean, sample standard deviation and t interval from ``n``, ``sum x`` and ``sum x**2``.

    Sums add across chunks, so this is how a streamed mean gets its interval. Returns
    ``(mean, sd, low, high)`` in the units of ``x``; ``mean`` is ``nan`` for ``n == 0`` and
    ``sd``/bounds are ``nan`` for ``n < 2``. Exact for integer data summed as int64 (up to about
    9e15 for ``sum x**2``).
    """
    scalar = np.ndim(n) == 0 and np.ndim(total) == 0 and np.ndim(total_sq) == 0
    m, s, ss = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (n, total, total_sq)))
    if np.any(m < 0):
        raise ValueError("n must be >= 0")
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(m > 0, s / m, np.nan)
        var = np.where(m > 1, (ss - s * s / m) / (m - 1), np.nan)
        sd = np.sqrt(np.maximum(var, 0.0))
        half = _t_multiplier(m - 1, confidence) * sd / np.sqrt(m)
    return (
        _out(mean, scalar),
        _out(sd, scalar),
        _out(mean - half, scalar),
        _out(mean + half, scalar),
    )


def mean_interval(values: Sequence[float] | np.ndarray, confidence: float = 0.95):
    """Mean, sample sd and t interval ``(mean, sd, low, high)`` of a 1-d sample."""
    x = np.asarray(values, dtype=float).ravel()
    if np.any(~np.isfinite(x)):
        raise ValueError("values must be finite numbers")
    mo = Moments.of(x)
    return mo.mean, mo.sd, *mo.interval(confidence)


def diff_interval(mean_a, se_a, mean_b, se_b, confidence: float = 0.95):
    """Normal (Welch, large-sample) interval for ``mean_a - mean_b`` from the means and their
    standard errors. Returns ``(diff, low, high)``."""
    scalar = all(np.ndim(v) == 0 for v in (mean_a, se_a, mean_b, se_b))
    ma, sa, mb, sb = (np.asarray(v, dtype=float) for v in (mean_a, se_a, mean_b, se_b))
    z = z_value(confidence)
    d = ma - mb
    half = z * np.sqrt(sa * sa + sb * sb)
    return _out(d, scalar), _out(d - half, scalar), _out(d + half, scalar)


@dataclass(frozen=True)
class Moments:
    """Count, mean and sum of squared deviations of a sample, mergeable without loss (Chan et al.).

    ``a + b`` is the moments of the two samples together, so a sample can be summarised one chunk
    at a time in bounded memory. Numerically stable (no ``sum x**2`` cancellation).
    """

    n: int = 0
    mean: float = math.nan
    m2: float = 0.0  # sum of squared deviations from the mean

    @classmethod
    def of(cls, values: Sequence[float] | np.ndarray) -> Moments:
        x = np.asarray(values, dtype=float).ravel()
        if x.size == 0:
            return cls()
        mu = float(x.mean())
        return cls(int(x.size), mu, float(((x - mu) ** 2).sum()))

    def __add__(self, other: Moments) -> Moments:
        if not isinstance(other, Moments):
            return NotImplemented
        if other.n == 0:
            return self
        if self.n == 0:
            return other
        n = self.n + other.n
        delta = other.mean - self.mean
        mean = self.mean + delta * other.n / n
        m2 = self.m2 + other.m2 + delta * delta * self.n * other.n / n
        return Moments(n, mean, m2)

    @property
    def var(self) -> float:
        """Sample variance (``n - 1`` denominator); ``nan`` for ``n < 2``."""
        return self.m2 / (self.n - 1) if self.n > 1 else math.nan

    @property
    def sd(self) -> float:
        return math.sqrt(self.var) if self.n > 1 else math.nan

    @property
    def se(self) -> float:
        """Standard error of the mean."""
        return self.sd / math.sqrt(self.n) if self.n > 1 else math.nan

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Student-t interval for the mean, ``(low, high)``; ``nan`` for ``n < 2``."""
        _check_confidence(confidence)
        if self.n < 2:
            return math.nan, math.nan
        half = t_quantile(0.5 + confidence / 2.0, self.n - 1) * self.se
        return self.mean - half, self.mean + half


def weighted_quantile(values, weights, q):
    """Quantiles of a distribution given as distinct ``values`` with counts ``weights``.

    Uses the inverted empirical CDF (the smallest value whose cumulative share reaches ``q``), so
    the result is always one of ``values``; ``q`` is a fraction or an array of fractions in [0, 1].
    Zero weights are ignored; an empty distribution gives ``nan``.
    """
    v = np.asarray(values, dtype=float).ravel()
    w = np.asarray(weights, dtype=float).ravel()
    if v.shape != w.shape:
        raise ValueError(f"values and weights differ in length ({v.size} vs {w.size})")
    if np.any(w < 0):
        raise ValueError("weights must be >= 0")
    qs = np.asarray(q, dtype=float)
    if np.any((qs < 0) | (qs > 1)):
        raise ValueError("quantile levels must be in [0, 1]")
    keep = w > 0
    v, w = v[keep], w[keep]
    if v.size == 0:
        res = np.full(qs.shape, np.nan)
        return float(res) if qs.ndim == 0 else res
    order = np.argsort(v, kind="stable")
    v, w = v[order], w[order]
    cum = np.cumsum(w) / w.sum()
    idx = np.searchsorted(cum, qs - 1e-12, side="left")
    res = v[np.minimum(idx, v.size - 1)]
    return float(res) if qs.ndim == 0 else res


# --------------------------------------------------------------------------- rates, variances


def rate(num: float, den: float) -> float | None:
    """``num / den``, or ``None`` when ``den`` is 0 (a rate of an empty group)."""
    return num / den if den else None


def variance_from_sums(n: float, total: float, total_sq: float) -> float:
    """Sample variance (``n - 1`` denominator, floored at 0) from ``n``, ``sum x``, ``sum x**2``;
    ``nan`` for ``n < 2``. The scalar companion of :func:`mean_interval_from_sums`."""
    if n < 2:
        return math.nan
    mean = total / n
    return max(0.0, (total_sq - n * mean * mean) / (n - 1))


def normal_interval(mean: float, se: float, confidence: float = 0.95) -> tuple[float, float]:
    """Normal interval ``mean +- z * se`` (``z`` = :func:`z_value`), ``(low, high)``."""
    half = z_value(confidence) * se
    return mean - half, mean + half


def half_width_ratio(half_a: float, half_b: float) -> float | None:
    """How many times wider interval ``a`` is than interval ``b`` (half-widths ``half_a`` /
    ``half_b``); ``None`` when either is not finite or ``half_b <= 0``."""
    if not (math.isfinite(half_a) and math.isfinite(half_b)):
        return None
    if half_b <= 0:
        return None
    return half_a / half_b


# --------------------------------------------------------------------------- paired differences


def paired_test(m: Moments, confidence: float = 0.95) -> tuple[float, float, float, float]:
    """Mean, t interval and two-sided p-value (H0: mean 0) of paired differences ``m``.

    Returns ``(mean, low, high, p)``. Differences that are all equal give a zero-width interval
    and ``p = 1`` if they are 0, else ``p = 0``; fewer than two give ``nan``.
    """
    if m.n < 2:
        return m.mean if m.n else math.nan, math.nan, math.nan, math.nan
    if m.m2 <= 0.0:
        return m.mean, m.mean, m.mean, 1.0 if m.mean == 0.0 else 0.0
    low, high = m.interval(confidence)
    df = m.n - 1
    t = m.mean / m.se
    p = regularized_beta(df / (df + t * t), df / 2.0, 0.5)
    return m.mean, low, high, min(1.0, max(0.0, p))


SPRT_MIN_N = 30  # the SPRT decides only after this many observations (variance estimate)
SPRT_ALPHA = 0.05
SPRT_BETA = 0.05


@dataclass
class Sprt:
    """Wald's SPRT of a stream of differences: H0 mean = ``h0`` vs H1 mean = ``h1``.

    Normal model with the variance estimated as it goes: after ``n`` observations with sum ``S``
    and sample variance ``v``, ``LLR = (h1 - h0) / v * (S - n (h0 + h1) / 2)``. Decides once
    ``n >= min_deals`` (observations; a tournament's are deals): H1 when
    ``LLR >= log((1 - beta) / alpha)``, H0 when ``LLR <= log(beta / (1 - alpha))``. A zero
    variance is floored (exactly constant differences decide at once for the nearer hypothesis).
    Impossible bounds or error rates raise ``ValueError``.
    """

    h0: float
    h1: float
    alpha: float = SPRT_ALPHA
    beta: float = SPRT_BETA
    min_deals: int = SPRT_MIN_N
    moments: Moments = field(default_factory=Moments)
    llr: float = 0.0
    decision: str | None = None  # "H0", "H1" or None (undecided)
    decided_at: int | None = None  # observations seen when it decided
    trace: list[tuple[int, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not (math.isfinite(self.h0) and math.isfinite(self.h1)) or self.h0 == self.h1:
            raise ValueError(
                f"SPRT bounds must be two different numbers (H0 diff, H1 diff), got "
                f"{self.h0!r}, {self.h1!r}"
            )
        for name, v in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < v < 0.5:
                raise ValueError(f"SPRT {name} must be in (0, 0.5), got {v!r}")

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1.0 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1.0 - self.alpha))

    def feed(self, d: np.ndarray) -> int | None:
        """Add differences in order; return the index in ``d`` at which it decided, if so.

        After a decision nothing more is taken (the caller stops feeding it).
        """
        if self.decision is not None or d.size == 0:
            return None
        m0 = self.moments
        c = m0.mean if m0.n else float(d[0])
        dev = d.astype(np.float64) - c
        n = m0.n + np.arange(1, d.size + 1, dtype=np.float64)
        tsum = (m0.n * (m0.mean - c) if m0.n else 0.0) + np.cumsum(dev)
        qsum = (m0.m2 + m0.n * (m0.mean - c) ** 2 if m0.n else 0.0) + np.cumsum(dev * dev)
        with np.errstate(invalid="ignore", divide="ignore"):
            var = np.where(n > 1, (qsum - tsum * tsum / n) / (n - 1), np.nan)
        floor = 1e-12 * max(1.0, (self.h1 - self.h0) ** 2)
        var = np.maximum(np.nan_to_num(var, nan=floor), floor)
        total = c * n + tsum
        llr = (self.h1 - self.h0) / var * (total - n * (self.h0 + self.h1) / 2.0)
        ok = n >= self.min_deals
        hit = np.flatnonzero(ok & ((llr >= self.upper) | (llr <= self.lower)))
        stop = int(hit[0]) if hit.size else None
        used = d.size if stop is None else stop + 1
        self.moments = m0 + Moments.of(d[:used])
        self.llr = float(llr[used - 1])
        if stop is not None:
            self.decision = "H1" if self.llr >= self.upper else "H0"
            self.decided_at = self.moments.n
        self.trace.append((self.moments.n, self.llr))
        return stop

    def as_dict(self) -> dict[str, Any]:
        """``h0``, ``h1``, ``alpha``, ``beta``, ``bounds``, ``llr``, ``decision`` and ``deals``
        (observations when it decided, else so far)."""
        return {
            "h0": self.h0, "h1": self.h1, "alpha": self.alpha, "beta": self.beta,
            "bounds": [self.lower, self.upper], "llr": self.llr, "decision": self.decision,
            "deals": self.decided_at if self.decided_at is not None else self.moments.n,
        }
