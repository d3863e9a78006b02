#!/usr/bin/python3
"""Reference values for tests/unit/test_compare.c, from SciPy.

Run with the system Python that has SciPy: /usr/bin/python3
tests/reference/compare_reference.py. Definitions are written here
independently of the C code: the order-statistic interval of the median from
scipy.stats.binom, Welch and Mann-Whitney from scipy.stats, the
Hodges-Lehmann shift as the median of all differences, and Benjamini-Hochberg
and Holm adjustment written out in NumPy.
"""
import numpy as np
from scipy import stats

print("median CI orders: n level lo hi")
for n, level in [(1, .95), (2, .95), (5, .95), (5, .9), (6, .95), (6, .99), (7, .95),
                 (10, .95), (10, .99), (11, .9), (30, .95), (31, .95), (50, .95),
                 (50, .9), (101, .95), (101, .99), (1000, .95), (1000, .9)]:
    k = int(stats.binom.ppf((1 - level) / 2, n, 0.5))
    print(n, level, k, n + 1 - k if k >= 1 else 0)

x = sorted([3.1, 1.2, 5.5, 2.2, 9.9, 4.4, 0.5, 7.7, 6.6, 8.8, 2.9])
k = int(stats.binom.ppf(0.025, len(x), 0.5))
print("median CI of 11 values:", x[k - 1], x[len(x) - k])

base_a = [10.1, 10.3, 9.9, 10.0, 10.2, 10.4, 9.8, 10.15]
new1_a = [11.0, 11.3, 10.9, 11.2, 11.1, 11.4, 10.8, 11.05]
new2_a = [10.05, 10.22, 10.12, 9.93, 10.31, 10.02, 10.18, 10.11]
base_b = [500, 510, 505, 495, 502, 498, 507, 503]
new1_b = [450, 455, 452, 449, 451, 447, 454, 450.5]
new2_b = [501, 509, 504, 497, 503, 499, 506, 502.5]


def mwu(base, new):
    # as R's wilcox.test: exact without ties under 50 values a side
    ties = len(set(base + new)) < len(base + new)
    method = "asymptotic" if ties or max(len(base), len(new)) >= 50 else "exact"
    return stats.mannwhitneyu(new, base, alternative="two-sided", method=method).pvalue


ps = []
for name, base, new in [("a1", base_a, new1_a), ("a2", base_a, new2_a),
                        ("b1", base_b, new1_b), ("b2", base_b, new2_b)]:
    w = stats.ttest_ind(new, base, equal_var=False).pvalue
    ps.append(w)
    print("%s welch %.17g mwu %.17g hl %.17g" % (name, w, mwu(base, new),
                                                np.median(np.subtract.outer(new, base))))
p = np.array(ps)
n = len(p)
order = np.argsort(p)[::-1]
bh = np.empty(n)
bh[order] = np.minimum(1, np.minimum.accumulate(p[order] * n / np.arange(n, 0, -1)))
order = np.argsort(p)
holm = np.empty(n)
holm[order] = np.minimum(1, np.maximum.accumulate(p[order] * (n - np.arange(n))))
print("bh  ", " ".join("%.17g" % v for v in bh))
print("holm", " ".join("%.17g" % v for v in holm))
