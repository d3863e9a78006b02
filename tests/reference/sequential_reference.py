#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference values for the confidence sequence of src/stats/sequential.c.

Run with the system Python (python3-scipy): /usr/bin/python3 sequential_reference.py
The numbers it prints are pasted into tests/unit/test_sequential.c. Written
from the definitions in src/stats/sequential.h, not from the C code:
numpy's median for the running centre and MAD, scipy.stats.median_abs_deviation
(scale='normal') for the robust scale, and scipy.optimize.brentq (xtol 1e-14)
for the interval's ends and the estimate, where the C code bisects.
"""
import math

import numpy as np
from scipy import optimize, stats

ALPHA = 0.05
HUBER = 1.5
LAMBDA_MAX = 0.75

# Paired differences of log values: a 5 % shift, 2 % noise, one wild sample.
DATA = [0.061, 0.032, 0.047, 0.071, 0.018, 0.055, 0.049, 2.302585, 0.038, 0.066,
        0.044, 0.029, 0.058, 0.052, 0.041, 0.063, 0.036, 0.050, 0.047, 0.057]


def psi(u, k):
    if k > 0:
        return max(-1.0, min(1.0, u / k))
    return float(np.sign(u))


def prepare(x, huber):
    scales, bets, zs = [], [], []
    for i, xi in enumerate(x, start=1):
        past = np.array(x[:i - 1])
        centre = float(np.median(past)) if len(past) else 0.0
        k = 0.0
        if huber > 0 and len(past) >= 3:
            k = huber * stats.median_abs_deviation(past, scale='normal')
        # predictable plug-in from the z of the earlier observations
        sq, s = 1.0, 0.0
        for j, zj in enumerate(zs):
            s += zj
            sq += (zj - s / (j + 2)) ** 2
        v = sq / i
        bet = min(LAMBDA_MAX, math.sqrt(2 * math.log(2 / ALPHA) / (v * i * math.log(1 + i))))
        scales.append(k)
        bets.append(bet)
        zs.append(psi(xi - centre, k))
    return scales, bets


def log_wealth(x, scales, bets, theta, side):
    return sum(math.log(1 + side * b * psi(xi - theta, k)) for xi, k, b in zip(x, scales, bets))


def interval(x, scales, bets):
    level = math.log(2 / ALPHA)
    lo_x, hi_x = min(x) - max(scales) - 1e-9, max(x) + max(scales) + 1e-9
    up = lambda t: log_wealth(x, scales, bets, t, 1) - level
    down = lambda t: log_wealth(x, scales, bets, t, -1) - level
    bal = lambda t: sum(math.atanh(b * psi(xi - t, k)) for xi, k, b in zip(x, scales, bets))
    low = optimize.brentq(up, lo_x, hi_x, xtol=1e-14) if up(lo_x) >= 0 else -math.inf
    high = optimize.brentq(down, lo_x, hi_x, xtol=1e-14) if down(hi_x) >= 0 else math.inf
    est = optimize.brentq(bal, lo_x, hi_x, xtol=1e-14)
    return low, high, est


def show(name, x, huber):
    scales, bets = prepare(x, huber)
    low, high, est = interval(x, scales, bets)
    print(f"/* {name}: huber {huber} */")
    print("scale:", ", ".join(f"{v:.17g}" for v in scales))
    print("bet:", ", ".join(f"{v:.17g}" for v in bets))
    for theta in (0.0, 0.05, -0.02):
        print(f"log M+({theta}) = {log_wealth(x, scales, bets, theta, 1):.17g}, "
              f"log M-({theta}) = {log_wealth(x, scales, bets, theta, -1):.17g}")
    print(f"low {low:.17g} high {high:.17g} estimate {est:.17g}")


show("huber", DATA, HUBER)
show("sign", DATA, 0.0)
