#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference values for tests/unit/test_tests.c (src/stats/ tests).

Run with the system Python (python3-scipy 1.10): /usr/bin/python3 tests_reference.py
Every number printed here is pasted into test_tests.c; R is not available,
so the values come from SciPy or from definitions written here
independently of the C code:

  welch     scipy.stats.ttest_ind(new, base, equal_var=False)
  mwu       scipy.stats.mannwhitneyu(new, base, method='exact'|'asymptotic',
            use_continuity=True); SciPy's tie-corrected asymptotic p is the
            same formula as R's wilcox.test(correct=TRUE)
  hl        pairwise differences + an exact Mann-Whitney null distribution
            counted here (R's qwilcox definition) for the exact interval;
            a literal transcription of R's wdiff() solved with
            scipy.optimize.brentq (xtol 1e-13) for the approximate one
  adjust    Holm and Benjamini-Hochberg from their textbook definitions
            (max/min over ranks), not R's cummax/cummin code
  power     scipy.stats.nct.sf + scipy.optimize.brentq, R's power.t.test
            formula (two.sample, strict=FALSE, n = harmonic mean)
  rng       splitmix64 / xoshiro256** transcribed from prng.di.unimi.it
  bootstrap the same resampling algorithm in Python on that generator,
            indices drawn base then new per resample with Lemire's
            bounded draw, means added in bootstrap.c's four partial sums
            (scipy.stats.bootstrap uses another generator: printed only
            as a sanity comparison)
"""
import math

import numpy as np
from scipy import optimize, stats

# ---------------------------------------------------------------- data sets
# R's ?wilcox.test two-sample example (Hollander & Wolfe 1973, p. 69):
# x = permeability constants at term, y = at 12-26 weeks. R documents
# wilcox.test(x, y, alternative = "g"): W = 35, p-value = 0.1272.
RX = [0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46]
RY = [1.15, 0.88, 0.90, 0.74, 1.21]

SETS = {
    "small_base": [1.0, 2.0, 3.0, 4.0, 5.0],
    "small_new": [2.5, 3.1, 4.7, 5.2, 6.8, 7.0],
    "lat_base": [1012.3, 998.7, 1005.1, 1020.4, 1001.9, 995.2, 1010.0, 1003.3],
    "lat_new": [1030.1, 1025.4, 1018.9, 1041.2, 1022.7, 1035.5, 1028.0],
    "const_base": [5.0, 5.0, 5.0, 5.0],
    "var_new": [4.0, 6.0, 5.0, 7.0],
    "two_base": [1.0, 2.0],
    "two_new": [3.0, 5.0],
    "offset_base": [1e9 + 1.0, 1e9 + 2.0, 1e9 + 4.0, 1e9 + 3.0],
    "offset_new": [1e9 + 2.5, 1e9 + 3.5, 1e9 + 5.0, 1e9 + 6.0],
    "tie_base": [1.0, 2.0, 2.0, 3.0, 4.0],
    "tie_new": [2.0, 3.0, 3.0, 5.0, 6.0, 6.0],
    "three_base": [1.1, 2.2, 0.7],
    "two_new_b": [2.0, 3.3],
}
# n >= 50 without ties: integers against half-integers, both distinct
# (1009 and 1013 are prime). test_tests.c builds the same arrays.
SETS["big_base"] = [float((i * 7919) % 1009) for i in range(1, 61)]
SETS["big_new"] = [float((j * 7907) % 1013) + 0.5 + 40 for j in range(1, 56)]


def show(name, value):
    print(f"{name:40s} {value!r}")


# ---------------------------------------------------------------- welch
def welch():
    print("# welch: t, df, p  (ttest_ind(new, base, equal_var=False))")
    for base, new in [("small_base", "small_new"), ("lat_base", "lat_new"),
                      ("const_base", "var_new"), ("two_base", "two_new"),
                      ("offset_base", "offset_new"), ("tie_base", "tie_new")]:
        b, n = np.array(SETS[base]), np.array(SETS[new])
        if base == "offset_base":
            # the t-test is shift invariant; removing 1e9 exactly keeps
            # SciPy's variance from cancelling (the C code must not need it)
            b, n = b - 1e9, n - 1e9
        res = stats.ttest_ind(n, b, equal_var=False)
        vb, vn = b.var(ddof=1) / len(b), n.var(ddof=1) / len(n)
        df = (vb + vn) ** 2 / (vb ** 2 / (len(b) - 1) + vn ** 2 / (len(n) - 1))
        show(f"welch {base}/{new} t", float(res.statistic))
        show(f"welch {base}/{new} df", float(df))
        show(f"welch {base}/{new} p", float(res.pvalue))


# ---------------------------------------------------------------- mwu
def mwu():
    print("# mwu: U (= R's W of wilcox.test(new, base)), p")
    cases = [("RY", "RX", "exact"), ("small_base", "small_new", "exact"),
             ("two_base", "two_new", "exact"), ("three_base", "two_new_b", "exact"),
             ("tie_base", "tie_new", "asymptotic"),
             ("big_base", "big_new", "asymptotic")]
    data = dict(SETS, RX=RX, RY=RY)
    for base, new, method in cases:
        res = stats.mannwhitneyu(data[new], data[base], alternative="two-sided",
                                 method=method, use_continuity=True)
        show(f"mwu {base}/{new} {method} U", float(res.statistic))
        show(f"mwu {base}/{new} {method} p", float(res.pvalue))
    res = stats.mannwhitneyu(RX, RY, alternative="greater", method="exact")
    show("mwu R doc one-sided (R: 0.1272)", float(res.pvalue))
    res = stats.mannwhitneyu([1.0], [2.0], alternative="two-sided", method="exact")
    show("mwu n=1 [2] vs [1] U", float(res.statistic))
    show("mwu n=1 p", float(res.pvalue))


# ---------------------------------------------------------------- hl
def wilcox_counts(m, n):
    """Number of arrangements with U = u, u = 0..mn (exact null of U)."""
    # c[k][u]: subsets counted by recursion f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def f(mm, nn, u):
        if u < 0 or u > mm * nn:
            return 0
        if mm == 0 or nn == 0:
            return 1 if u == 0 else 0
        return f(mm - 1, nn, u - nn) + f(mm, nn - 1, u)
    return [f(m, n, u) for u in range(m * n + 1)]


def qwilcox(p, m, n):
    """R's definition: smallest q with P(U <= q) >= p."""
    counts = wilcox_counts(m, n)
    total = math.comb(m + n, n)
    cum = 0
    for q, c in enumerate(counts):
        cum += c
        if cum / total >= p * (1 - 64 * 2.2e-16):
            return q
    return m * n


def hl_exact(base, new, level=0.95):
    diffs = sorted(nv - bv for nv in new for bv in base)
    N = len(diffs)
    qu = qwilcox((1 - level) / 2, len(new), len(base))
    if qu == 0:
        qu = 1
    ql = N - qu
    return float(np.median(diffs)), diffs[qu - 1], diffs[ql]


def r_wdiff(x, y, d, zq):
    """Literal transcription of wdiff() in R's wilcox.test.default."""
    nx, ny = len(x), len(y)
    dr = stats.rankdata(np.concatenate([np.array(x) - d, np.array(y)]))
    _, nties = np.unique(dr, return_counts=True)
    dz = dr[:nx].sum() - nx * (nx + 1) / 2 - nx * ny / 2
    corr = np.sign(dz) * 0.5
    sigma = math.sqrt((nx * ny / 12) * ((nx + ny + 1) - (nties ** 3 - nties).sum()
                                        / ((nx + ny) * (nx + ny - 1))))
    return (dz - corr) / sigma - zq


def hl_approx(base, new, level=0.95):
    x, y = new, base
    alpha = 1 - level
    mumin, mumax = min(x) - max(y), max(x) - min(y)

    def root(zq):
        if r_wdiff(x, y, mumin, zq) <= 0:
            return mumin
        if r_wdiff(x, y, mumax, zq) >= 0:
            return mumax
        return optimize.brentq(lambda d: r_wdiff(x, y, d, zq), mumin, mumax,
                               xtol=1e-13, rtol=1e-15, maxiter=500)
    diffs = [nv - bv for nv in new for bv in base]

    def snap(d):
        # the root is a jump of a step function, i.e. a pairwise difference:
        # report that difference (the C code returns it) and the distance
        nearest = min(diffs, key=lambda v: abs(v - d))
        print(f"{'  brentq root':40s} {d!r} (distance to difference {abs(d - nearest):.1e})")
        return nearest
    return (float(np.median(diffs)), snap(root(stats.norm.isf(alpha / 2))),
            snap(root(stats.norm.ppf(alpha / 2))))


def hl():
    print("# hl: shift, low, high  (wilcox.test(new, base, conf.int=TRUE))")
    data = dict(SETS, RX=RX, RY=RY)
    for base, new in [("RY", "RX"), ("small_base", "small_new"),
                      ("two_base", "two_new"), ("lat_base", "lat_new")]:
        s, lo, hi = hl_exact(data[base], data[new])
        show(f"hl exact {base}/{new} shift", s)
        show(f"hl exact {base}/{new} low", lo)
        show(f"hl exact {base}/{new} high", hi)
    s, lo, hi = hl_exact(RY, RX, level=0.90)
    show("hl exact RY/RX 90% low", lo)
    show("hl exact RY/RX 90% high", hi)
    for base, new in [("tie_base", "tie_new"), ("big_base", "big_new")]:
        s, lo, hi = hl_approx(data[base], data[new])
        show(f"hl approx {base}/{new} shift", s)
        show(f"hl approx {base}/{new} low", lo)
        show(f"hl approx {base}/{new} high", hi)


# ---------------------------------------------------------------- adjust
P_FAMILY = [0.01, 0.04, 0.03, 0.005, 0.20, 0.04, 0.5, 0.012]
P_NAN = [0.02, float("nan"), 0.01, 0.04]


def holm_def(p):
    idx = [i for i in range(len(p)) if not math.isnan(p[i])]
    m = len(idx)
    order = sorted(idx, key=lambda i: p[i])
    out = list(p)
    for k, i in enumerate(order):
        out[i] = max(min(1.0, (m - j) * p[order[j]]) for j in range(k + 1))
    return out


def bh_def(p):
    idx = [i for i in range(len(p)) if not math.isnan(p[i])]
    m = len(idx)
    order = sorted(idx, key=lambda i: p[i])
    out = list(p)
    for k, i in enumerate(order):
        out[i] = min(min(1.0, m / (j + 1) * p[order[j]]) for j in range(k, m))
    return out


def adjust():
    print("# adjust")
    show("holm P_FAMILY", holm_def(P_FAMILY))
    show("bh P_FAMILY", bh_def(P_FAMILY))
    show("holm P_NAN", holm_def(P_NAN))
    show("bh P_NAN", bh_def(P_NAN))


# ---------------------------------------------------------------- power
def mde(n1, n2, sd, alpha=0.05, power=0.8):
    n = 2 * n1 * n2 / (n1 + n2)
    nu = 2 * (n - 1)
    tcrit = stats.t.isf(alpha / 2, nu)

    def f(d):
        return stats.nct.sf(tcrit, nu, math.sqrt(n / 2) * d) - power
    return sd * optimize.brentq(f, 1e-7, 50, xtol=1e-15, rtol=1e-15)


def power():
    print("# power: delta (MDE)")
    show("mde n=10,10 sd=1", mde(10, 10, 1.0))
    show("mde n=5,8 sd=2.5", mde(5, 8, 2.5))
    show("mde n=30,30 sd=4 alpha=0.01", mde(30, 30, 4.0, alpha=0.01))
    show("mde n=2,2 sd=1", mde(2, 2, 1.0))
    show("mde n=50,50 sd=3 power=0.9", mde(50, 50, 3.0, power=0.9))
    # R's ?power.t.test: power.t.test(n = 20, delta = 1) gives power = 0.8689528
    show("mde n=20 power=0.8689528 (R: delta 1)", mde(20, 20, 1.0, power=0.8689528))


# ---------------------------------------------------------------- rng, bootstrap
M64 = (1 << 64) - 1


class Xoshiro:
    def __init__(self, seed):
        self.s = []
        x = seed
        for _ in range(4):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            self.s.append(z ^ (z >> 31))

    @staticmethod
    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    def next(self):
        s = self.s
        result = (self.rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = self.rotl(s[3], 45)
        return result

    def below(self, bound):
        # Lemire's multiply-and-shift with rejection, as rng.c
        threshold = (1 << 64) % bound
        while True:
            product = self.next() * bound
            if (product & M64) >= threshold:
                return product >> 64


def quantile7(sorted_values, prob):
    h = (len(sorted_values) - 1) * prob
    lo = math.floor(h)
    if lo + 1 >= len(sorted_values):
        return sorted_values[-1]
    return sorted_values[lo] + (h - lo) * (sorted_values[lo + 1] - sorted_values[lo])


def mean4(values):
    # bootstrap.c adds in four interleaved partial sums; the same order here
    lanes = [0.0] * 4
    for i, v in enumerate(values):
        lanes[i % 4] += v
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) / len(values)


def boot(base, new, resamples, level, seed):
    rng = Xoshiro(seed)
    ratios = []
    for _ in range(resamples):
        mb = mean4([base[rng.below(len(base))] for _ in range(len(base))])
        mn = mean4([new[rng.below(len(new))] for _ in range(len(new))])
        ratios.append(mn / mb)
    ratios.sort()
    return quantile7(ratios, (1 - level) / 2), quantile7(ratios, (1 + level) / 2)


def rng_and_boot():
    print("# rng: first outputs")
    for seed in (0, 42):
        r = Xoshiro(seed)
        show(f"xoshiro seed {seed}", [hex(r.next()) for _ in range(4)])
    r = Xoshiro(7)
    show("below(10) seed 7", [r.below(10) for _ in range(10)])
    print("# bootstrap (same algorithm; B=10000, level 0.95, seed 1)")
    lo, hi = boot(SETS["lat_base"], SETS["lat_new"], 10000, 0.95, 1)
    show("boot lat low", lo)
    show("boot lat high", hi)
    lo, hi = boot(SETS["small_base"], SETS["small_new"], 2000, 0.90, 0x5C4EDBE7F)
    show("boot small B=2000 90% low", lo)
    show("boot small B=2000 90% high", hi)
    res = stats.bootstrap((np.array(SETS["lat_new"]), np.array(SETS["lat_base"])),
                          lambda a, b, axis=-1: a.mean(axis=axis) / b.mean(axis=axis),
                          n_resamples=10000, method="percentile", vectorized=True,
                          random_state=1)
    show("scipy.bootstrap lat (sanity only)",
         (res.confidence_interval.low, res.confidence_interval.high))


if __name__ == "__main__":
    welch()
    mwu()
    hl()
    adjust()
    power()
    rng_and_boot()
