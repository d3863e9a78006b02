#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table bench/scale.sh prints, from its measurements.

  scale_report.py FILE

FILE holds one measurement a line, "WORK SCALE REP TOOL SAMPLES CPU WALL
RSS_KB": CPU is user + system seconds, TOOL "schedperf" or "benchstat",
SAMPLES how many samples the work reads or writes. Per work and scale: the
median CPU seconds of each tool over the repetitions; schedperf's cost
against benchstat's (the work "compare json" and "compare text" against
"benchstat" of the same scale and repetition, paired), as the median ratio
with its 95 % bootstrap interval over the repetitions; samples a second at
the median; and the growth from the smallest scale measured, the ratio of
the medians with a 95 % bootstrap interval (each scale's repetitions
resampled on their own), beside the growth of the samples: linear cost
grows as they do.
"""
import collections
import random
import statistics
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from ratio_ci import RESAMPLES, SEED, bootstrap_ci  # noqa: E402


def growth_ci(small, large, level=0.95):
    rng = random.Random(SEED)
    ratios = sorted(statistics.median(rng.choices(large, k=len(large))) /
                    statistics.median(rng.choices(small, k=len(small)))
                    for _ in range(RESAMPLES))
    return (ratios[int((1 - level) / 2 * RESAMPLES)],
            ratios[int((1 + level) / 2 * RESAMPLES) - 1])


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cpu = collections.defaultdict(dict)	# (work, scale) -> rep -> seconds
    rss = collections.defaultdict(list)
    samples = {}
    with open(sys.argv[1]) as f:
        for line in f:
            work, scale, rep, tool, n, c, _wall, kb = line.split("\t")
            key = (work if tool == "schedperf" else tool, int(scale))
            cpu[key][int(rep)] = float(c)
            rss[key].append(int(kb))
            samples[key] = int(n)
    scales = sorted({s for _, s in cpu})
    order = ["compare-json", "compare-text", "benchstat", "import", "export", "detect",
             "history"]
    works = sorted(dict.fromkeys(w for w, _ in cpu),
                   key=lambda w: order.index(w) if w in order else len(order))
    print(f"{'work':<14} {'scale':>5} {'samples':>10} {'reps':>4} {'CPU s':>8} {'max MB':>7}"
          f" {'samples/s':>11}  {'vs benchstat [95 % CI]':<24} growth [95 % CI]")
    for work in works:
        for scale in scales:
            mine = cpu.get((work, scale))
            if not mine:
                continue
            med = statistics.median(mine.values())
            rate = samples[(work, scale)] / med if med > 0 else float("inf")
            versus = ""
            ref = cpu.get(("benchstat", scale))
            if ref and work.startswith("compare"):
                ratios = [mine[r] / ref[r] for r in mine if r in ref and ref[r] > 0]
                if ratios:
                    lo, hi = bootstrap_ci(ratios)
                    versus = f"{statistics.median(ratios):.3f} [{lo:.3f}, {hi:.3f}]"
            growth = ""
            base = cpu.get((work, scales[0]))
            if scale != scales[0] and base:
                g = med / statistics.median(base.values())
                lo, hi = growth_ci(list(base.values()), list(mine.values()))
                more = samples[(work, scale)] / samples[(work, scales[0])]
                growth = f"x{g:.2f} [{lo:.2f}, {hi:.2f}] for x{more:g} samples"
            print(f"{work:<14} {scale:>4}x {samples[(work, scale)]:>10} {len(mine):>4}"
                  f" {med:>8.3f} {max(rss[(work, scale)]) / 1024:>7.1f} {rate:>11.3g}"
                  f"  {versus:<24} {growth}")


main()
