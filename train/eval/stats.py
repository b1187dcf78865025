"""Confidence intervals of the evaluation: Wilson for proportions, the ratio estimator and the
percentile bootstrap for ratios over clusters (the duplicate pairs)."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion ``k / n`` (None when n = 0).

    Newcombe (1998, Statistics in Medicine 17:857, method 3). ``k`` may be fractional (ties
    counted as half a win). At ``k = 0`` the lower bound is exactly 0 and at ``k = n`` the upper
    bound exactly 1: the closed form gives them only up to rounding (+1e-17, 1 - 1e-16), which
    made an error bar ``rate - lower`` negative.
    """
    if n < 0 or not 0 <= k <= n:
        raise ValueError(f"wilson needs 0 <= k <= n, got k={k!r}, n={n!r}")
    if n == 0:
        return None
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    lo = 0.0 if k == 0 else max(0.0, mid - half)
    hi = 1.0 if k == n else min(1.0, mid + half)
    return (lo, hi)


def ratio_ci(num: np.ndarray, den: np.ndarray, z: float = Z95) -> tuple[float, tuple[float, float] | None]:
    """``sum(num) / sum(den)`` over clusters and its normal CI (ratio estimator, delta method)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    keep = den > 0
    num, den = num[keep], den[keep]
    if den.sum() == 0:
        return float("nan"), None
    r = num.sum() / den.sum()
    m = num.size
    if m < 2:
        return float(r), None
    resid = num - r * den
    se = math.sqrt((resid**2).sum() / (m * (m - 1))) / den.mean()
    return float(r), (float(r - z * se), float(r + z * se))


def bootstrap_ratio_ci(num: np.ndarray, den: np.ndarray, rng: np.random.Generator, reps: int = 2000,
                       level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap CI of ``sum(num) / sum(den)``, resampling clusters."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    keep = den > 0
    num, den = num[keep], den[keep]
    if num.size < 2 or reps < 1:
        return None
    idx = rng.integers(0, num.size, size=(reps, num.size))
    stats = num[idx].sum(axis=1) / den[idx].sum(axis=1)
    lo, hi = np.quantile(stats, [(1 - level) / 2, (1 + level) / 2])
    return (float(lo), float(hi))
