#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference values for tests/unit/test_changepoint.c (src/stats/changepoint.c).

Run with Debian's python3 and python3-scipy (1.10):
    /usr/bin/python3 tests/reference/changepoint_reference.py
and paste what it prints into test_changepoint.c.

Written from the published descriptions, independently of the C code:

  qhat     E-divisive means (Matteson & James 2014, alpha = 1): for every
           split tau and end kappa of z[0:n], the scaled energy distance
           mn/(m+n) * (2/(mn) sum|X-Y| - C(n,2)^-1 sum|X-X| - C(m,2)^-1 sum|Y-Y|)
           of X = z[0:tau], Y = z[tau:kappa], each sum taken directly over
           every pair with numpy (O(n^3) per interval; the C code keeps
           running sums instead). The candidate is the tau of the largest
           value, the smallest tau on ties.
  test     Hunter's significance step (Fleming et al., ICPE 2023; Apache
           Otava): scipy.stats.ttest_ind_from_stats(mean, np.std(ddof=0),
           n, ...) with equal variances, two-sided; p = 1 with fewer than
           3 values, and when both sides are constant and equal.
  split    windows of `window` values, half a window apart, restarting at
           the last change point found, E-divisive in each at the relaxed
           p (10x below 0.05, 2x below 0.5), the union kept.
  merge    drop the change point with the largest p while it is >= the
           threshold, else the one of the smallest magnitude while it is
           <= min_magnitude; after each drop, both neighbours are tested
           again between their new neighbours.

The series are built from splitmix64 (prng.di.unimi.it), transcribed here
and in the test, so both sides see the same doubles.
"""
import numpy as np
from scipy import stats

MASK = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def series(seed, n, amp, levels):
    """levels: list of (from_index, level); noise uniform in [-amp/2, amp/2)."""
    state, out = seed, []
    for i in range(n):
        state, r = splitmix64(state)
        u = (r >> 11) * (2.0 ** -53) - 0.5
        level = [lv for start, lv in levels if start <= i][-1]
        out.append(level + amp * u)
    return out


def qhat(x, y):
    x, y = np.asarray(x), np.asarray(y)
    n, m = len(x), len(y)
    cross = np.abs(x[:, None] - y[None, :]).sum()
    xx = np.abs(x[:, None] - x[None, :])[np.triu_indices(n, 1)].sum()
    yy = np.abs(y[:, None] - y[None, :])[np.triu_indices(m, 1)].sum()
    e = 2.0 / (m * n) * cross
    if n > 1:
        e -= xx / (n * (n - 1) / 2)
    if m > 1:
        e -= yy / (m * (m - 1) / 2)
    return m * n / (m + n) * e


def candidate(z):
    best = None
    for tau in range(1, len(z)):
        for kappa in range(tau + 1, len(z) + 1):
            q = qhat(z[:tau], z[tau:kappa])
            if best is None or q > best[1]:
                best = (tau, q)
    return best


def sides(left, right):
    m1, m2 = float(np.mean(left)), float(np.mean(right))
    s1 = float(np.std(left)) if len(left) >= 2 else 0.0
    s2 = float(np.std(right)) if len(right) >= 2 else 0.0
    p = 1.0
    if len(left) + len(right) > 2:
        if s1 == 0 and s2 == 0:
            p = 1.0 if m1 == m2 else 0.0
        else:
            p = float(stats.ttest_ind_from_stats(m1, s1, len(left), m2, s2, len(right)).pvalue)
    return m1, m2, s1, s2, p


def edivisive(x, max_p):
    cps = []
    while True:
        bounds = [0] + cps + [len(x)]
        best = None
        for a, b in zip(bounds[:-1], bounds[1:]):
            if b - a < 2:
                continue
            tau, q = candidate(x[a:b])
            if best is None or q > best[1]:
                best = (a + tau, q, a, b)
        if best is None:
            return cps
        tau, _, a, b = best
        if not sides(x[a:tau], x[tau:b])[4] <= max_p:
            return cps
        cps = sorted(cps + [tau])


def magnitude(m1, m2):
    f = 0.0 if m1 == 0 else m2 / m1 - 1
    b = 0.0 if m2 == 0 else m1 / m2 - 1
    return max(abs(f), abs(b))


def stats_of(x, cps):
    out = []
    for i, c in enumerate(cps):
        a = cps[i - 1] if i else 0
        b = cps[i + 1] if i + 1 < len(cps) else len(x)
        s = sides(x[a:c], x[c:b])
        out.append((c, s, magnitude(s[0], s[1])))
    return out


def detect(x, max_p=0.001, min_mag=0.0, window=50):
    first = max_p * 10 if max_p < 0.05 else (max_p * 2 if max_p < 0.5 else max_p)
    start, step, found = 0, window // 2, set()
    while start < len(x):
        end = min(start + window, len(x))
        new = [c + start for c in edivisive(x[start:end], first)]
        found.update(new)
        start = max(max(new) if new else 0, start + step)
    cps = sorted(found)
    while cps:
        st = stats_of(x, cps)
        worst = max(range(len(st)), key=lambda i: (st[i][1][4], -i))
        if st[worst][1][4] < max_p:
            worst = min(range(len(st)), key=lambda i: (st[i][2], i))
            if st[worst][2] > min_mag:
                return st
        del cps[worst]
    return []


SERIES = {
    "step_up": (1, 60, 4.0, [(0, 100.0), (30, 110.0)]),
    "step_down": (2, 80, 2.0, [(0, 100.0), (45, 97.0)]),
    "two_steps": (3, 120, 6.0, [(0, 100.0), (40, 120.0), (85, 90.0)]),
    "flat": (4, 100, 10.0, [(0, 100.0)]),
    "outlier": (5, 60, 2.0, [(0, 50.0)]),
    "long": (6, 300, 4.0, [(0, 100.0), (70, 105.0), (150, 96.6), (220, 108.2)]),
}
OPTIONS = [  # (series, max_p, min_mag, window)
    ("step_up", 0.001, 0.0, 50),
    ("step_down", 0.001, 0.0, 50),
    ("two_steps", 0.001, 0.0, 50),
    ("two_steps", 0.001, 0.2, 50),
    ("two_steps", 0.05, 0.0, 30),
    ("flat", 0.001, 0.0, 50),
    ("flat", 0.3, 0.0, 50),
    ("outlier", 0.001, 0.0, 50),
    ("long", 0.001, 0.0, 50),
    ("long", 0.001, 0.0, 1000),
]


def main():
    data = {k: series(*v) for k, v in SERIES.items()}
    data["outlier"][30] = 80.0   # the test sets the same point
    print("/* candidate: series, n, tau, qhat */")
    for name, n in (("step_up", 60), ("two_steps", 120), ("outlier", 60), ("flat", 17)):
        tau, q = candidate(data[name][:n])
        print(f'{{ "{name}", {n}, {tau}, {q!r} }},')
    print("/* sides: p of small sets */")
    for left, right in (([1.0, 2.0, 3.0], [4.0, 6.0]), ([5.0], [5.0, 7.0]),
                        ([2.0, 2.0], [3.0, 3.0, 3.0]), ([1.5, 2.5, 2.0, 1.0], [2.2])):
        m1, m2, s1, s2, p = sides(left, right)
        print(f"{{ {left}, {right}: {m1!r}, {m2!r}, {s1!r}, {s2!r}, {p!r} }},")
    print("/* detect: series, max_p, min_mag, window -> index, means, sds, p */")
    for name, max_p, min_mag, window in OPTIONS:
        st = detect(data[name], max_p, min_mag, window)
        print(f'/* {name} p={max_p} mag={min_mag} window={window}: {len(st)} */')
        for c, s, mag in st:
            print(f"{{ {c}, {s[0]!r}, {s[1]!r}, {s[2]!r}, {s[3]!r}, {s[4]!r}, {mag!r} }},")


if __name__ == "__main__":
    main()
