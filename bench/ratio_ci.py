#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Median cost ratio of paired measurements, with a bootstrap confidence
interval over the pairs: what every bench/ script reports.

FILE holds one pair per line: the k values of ours, then the k values of
the reference, for the k metrics named by --metric NAME:lower|higher (in
that order). Each pair gives a cost ratio per metric, ours/reference when
lower is better and reference/ours when higher is better, so 1.00 is the
same cost and above 1 is schedperf costing more. The report is the median
of the per-pair ratios and a 95 % percentile-bootstrap interval for it
(resampling whole pairs, 10000 times, a fixed seed so a rerun on the same
file prints the same interval).

  ratio_ci.py FILE --metric seconds:lower [--label L] [--ref R]
              [--target 0.05] [--band 0.05] [--gate NAME,...] [--check] [--header]
  ratio_ci.py --header          the header of the lines above, alone

--check prints nothing and exits 0 when every gated metric (default: all)
has its interval within median x (1 +- target), 1 when not: the scripts
keep adding pairs until it does or they reach their maximum. Without
--check, one line per metric, ending with its verdict: "wide" when the
interval is beyond the target or there are fewer than MIN_PAIRS pairs (the
pairs cannot tell), else "within" when the median ratio is within
1 +- band, else "outside".
"""
import argparse
import random
import statistics
import sys

RESAMPLES = 10000
# Below this a bootstrap of the median has too few distinct resamples to
# make an interval of it: such a case is "wide" whatever its spread.
MIN_PAIRS = 5
HEADER = (f"{'workload':<46} {'reference':<46} {'metric':<14} {'pairs':>5} {'ours':>10}"
          f" {'ref':>10} {'ratio':>6}  95 % CI{'':<17}verdict")
SEED = 20261130


def cost_ratio(ours, ref, higher):
    if higher:
        return ref / ours if ours > 0 else float("inf")
    return ours / ref if ref > 0 else float("inf")


def bootstrap_ci(ratios, level=0.95):
    rng = random.Random(SEED)
    n = len(ratios)
    medians = sorted(statistics.median(rng.choices(ratios, k=n)) for _ in range(RESAMPLES))
    lo = medians[int((1 - level) / 2 * RESAMPLES)]
    hi = medians[int((1 + level) / 2 * RESAMPLES) - 1]
    return lo, hi


def half_width(median, lo, hi):
    """The interval's larger distance from the median, relative to it."""
    if median <= 0 or median == float("inf"):
        return float("inf")
    return max(hi / median - 1, 1 - lo / median)


def verdict(median, h, n, target, band):
    if h > target or n < MIN_PAIRS:
        return "wide"
    return "within" if abs(median - 1) <= band else "outside"


def read_pairs(path, k):
    pairs = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2 * k:
                sys.exit(f"ratio_ci: {path}:{number}: {len(fields)} values, "
                         f"expected {2 * k} (ours then reference for each metric)")
            pairs.append([float(x) for x in fields])
    return pairs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", help="the pairs; without it, --header prints the header alone")
    ap.add_argument("--metric", action="append", default=[],
                    help="NAME:lower or NAME:higher, once per column pair")
    ap.add_argument("--label", default="", help="the case: workload and parameters")
    ap.add_argument("--ref", default="", help="the reference tool and its flags")
    ap.add_argument("--target", type=float, default=0.05)
    ap.add_argument("--band", type=float, default=0.05,
                    help="a median ratio within 1 +- band is 'within'")
    ap.add_argument("--gate", default="", help="metrics whose interval must be narrow")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--header", action="store_true")
    args = ap.parse_args()

    if args.file is None:
        if not args.header:
            ap.error("give FILE, or --header alone")
        print(HEADER)
        return 0
    if not args.metric:
        ap.error("give at least one --metric NAME:lower|higher")
    metrics = []
    for spec in args.metric:
        name, _, better = spec.partition(":")
        if better not in ("lower", "higher"):
            sys.exit(f"ratio_ci: --metric {spec}: give NAME:lower or NAME:higher")
        metrics.append((name, better == "higher"))
    gate = set(args.gate.split(",")) if args.gate else {name for name, _ in metrics}
    k = len(metrics)
    pairs = read_pairs(args.file, k)
    if len(pairs) < 2:
        if args.check:
            return 1
        sys.exit(f"ratio_ci: {args.file}: {len(pairs)} pairs, at least 2 are needed")

    narrow = True
    lines = []
    for col, (name, higher) in enumerate(metrics):
        ratios = [cost_ratio(p[col], p[k + col], higher) for p in pairs]
        median = statistics.median(ratios)
        lo, hi = bootstrap_ci(ratios)
        h = half_width(median, lo, hi)
        if name in gate and (h > args.target or len(pairs) < MIN_PAIRS):
            narrow = False
        ours = statistics.median(p[col] for p in pairs)
        ref = statistics.median(p[k + col] for p in pairs)
        lines.append(f"{args.label:<46} {args.ref:<46} {name:<14} {len(pairs):>5}"
                     f" {ours:>10.4g} {ref:>10.4g} {median:>6.3f}  [{lo:.3f}, {hi:.3f}]"
                     f" +-{100 * h:4.1f} %  {verdict(median, h, len(pairs), args.target, args.band)}")
    if args.check:
        return 0 if narrow else 1
    if args.header:
        print(HEADER)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
