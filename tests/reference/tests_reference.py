#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference values for tests/unit/test_tests.c (src/stats/ tests).

Run with the system Python (python3-scipy 1.10): /usr/bin/python3 tests_reference.py
Every number printed here is pasted into test_tests.c, from SciPy:

  welch     scipy.stats.ttest_ind(new, base, equal_var=False)
  mwu       scipy.stats.mannwhitneyu(new, base, method='exact'|'asymptotic',
            use_continuity=True); SciPy's tie-corrected asymptotic p is the
            same formula as R's wilcox.test(correct=TRUE)
  power     scipy.stats.nct.sf + scipy.optimize.brentq, R's power.t.test
            formula (two.sample, strict=FALSE, n = harmonic mean)
  bootstrap scipy.stats.bootstrap, percentile method: another generator
            than ours, so a sanity check within the resampling's scatter

R's own values (p.adjust, wilcox.test's Hodges-Lehmann interval, and the
tests above again) come from tests/reference/r_reference.R instead.
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


# ---------------------------------------------------------------- bootstrap
def bootstrap():
    res = stats.bootstrap((np.array(SETS["lat_new"]), np.array(SETS["lat_base"])),
                          lambda a, b, axis=-1: a.mean(axis=axis) / b.mean(axis=axis),
                          n_resamples=10000, method="percentile", vectorized=True,
                          random_state=1)
    show("scipy.bootstrap lat (sanity only)",
         (res.confidence_interval.low, res.confidence_interval.high))


if __name__ == "__main__":
    welch()
    mwu()
    power()
    bootstrap()
