#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Reference values for the confidence sequence of src/stats/sequential.c,
and for the bisection step's two bettors of src/stats/level_choice.c.

Run with the system Python (python3-scipy): /usr/bin/python3 sequential_reference.py
The numbers it prints are pasted into tests/unit/test_sequential.c and
tests/unit/test_level_choice.c. Written
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


def prepare(x, huber, alpha=ALPHA):
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
        bet = min(LAMBDA_MAX, math.sqrt(2 * math.log(2 / alpha) / (v * i * math.log(1 + i))))
        scales.append(k)
        bets.append(bet)
        zs.append(psi(xi - centre, k))
    return scales, bets


def log_wealth(x, scales, bets, theta, side):
    return sum(math.log(1 + side * b * psi(xi - theta, k)) for xi, k, b in zip(x, scales, bets))


def interval(x, scales, bets, alpha=ALPHA):
    level = math.log(2 / alpha)
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


# The bisection step (level_choice.h): at alpha each bettor is a sequence at
# 2 alpha looked at in 0; BAD when M+ of (build - good) reaches 1/alpha,
# GOOD when M- of (build - bad) does; both at once: the richer, and with
# equal wealths the difference whose estimate (where the two wealths of its
# sequence balance) is nearer 0.
STEP_ALPHA = 0.05
FROM_GOOD = [v + 0.1 for v in DATA[:12]]
FROM_BAD = [v - 0.08 for v in DATA[:12]]


def level_choice(from_good, from_bad, alpha, huber):
    level = math.log(1 / alpha)
    print(f"/* level choice: alpha {alpha}, huber {huber} */")
    for n in range(1, len(from_good) + 1):
        g, b = from_good[:n], from_bad[:n]
        sg, bg = prepare(g, huber, 2 * alpha)
        sb, bb = prepare(b, huber, 2 * alpha)
        on_bad = log_wealth(g, sg, bg, 0.0, 1)
        on_good = log_wealth(b, sb, bb, 0.0, -1)
        verdict = "undecided"
        if on_bad >= level and on_good >= level:
            if on_bad != on_good:
                verdict = "bad" if on_bad > on_good else "good"
            else:
                eg = interval(g, sg, bg, 2 * alpha)[2]
                eb = interval(b, sb, bb, 2 * alpha)[2]
                verdict = "good" if abs(eg) <= abs(eb) else "bad"
        elif on_bad >= level:
            verdict = "bad"
        elif on_good >= level:
            verdict = "good"
        print(f"{n}: on_bad {on_bad:.17g} on_good {on_good:.17g} {verdict}")
        if verdict != "undecided":
            break


level_choice(FROM_GOOD, FROM_BAD, STEP_ALPHA, HUBER)
level_choice(FROM_GOOD, FROM_BAD, STEP_ALPHA, 0.0)
