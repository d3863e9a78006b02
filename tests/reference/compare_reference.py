#!/usr/bin/python3
"""Reference values for tests/unit/test_compare.c, from SciPy.

Run with the system Python that has SciPy: /usr/bin/python3
tests/reference/compare_reference.py. The order-statistic interval of the
median from scipy.stats.binom. The comparison model's tests, shifts and
adjusted p-values come from R instead: tests/reference/r_reference.R.
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
