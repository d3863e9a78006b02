#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The table bench/scale.sh prints, from its measurements.

  scale_report.py FILE

FILE holds one measurement a line, tab-separated: "WORK SCALE REP TOOL
SAMPLES CPU WALL RSS_KB". CPU is user + system seconds; TOOL is
"benchstat" (WORK "compare"), or "schedperf", or "schedperf1",
"schedperf2"... when several builds were timed; SAMPLES is how many samples
the work reads or writes. Per work, scale and tool: the median CPU seconds
over the repetitions; the cost against benchstat's (compare-json and
compare-text against benchstat at the same scale and repetition, paired)
and, with several builds, against the first build's (paired likewise), as
the median ratio with its 95 % bootstrap interval over the repetitions;
samples a second at the median; and the growth from the smallest scale
measured, the ratio of the medians with a 95 % bootstrap interval (each
scale's repetitions resampled on their own), beside the growth of the
samples: linear cost grows as they do.
"""
import collections
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ratio_ci import RESAMPLES, SEED, bootstrap_ci  # noqa: E402

ORDER = ["compare-json", "compare-text", "compare", "import", "export", "detect", "history"]


def growth_ci(small, large, level=0.95):
    rng = random.Random(SEED)
    ratios = sorted(statistics.median(rng.choices(large, k=len(large))) /
                    statistics.median(rng.choices(small, k=len(small)))
                    for _ in range(RESAMPLES))
    return (ratios[int((1 - level) / 2 * RESAMPLES)],
            ratios[int((1 + level) / 2 * RESAMPLES) - 1])


def paired(mine, theirs):
    """Median of the per-repetition ratios and its interval, as text."""
    ratios = [mine[r] / theirs[r] for r in mine if r in theirs and theirs[r] > 0]
    if not ratios:
        return ""
    lo, hi = bootstrap_ci(ratios)
    return f"{statistics.median(ratios):.3f} [{lo:.3f}, {hi:.3f}]"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cpu = collections.defaultdict(dict)	# (work, tool, scale) -> rep -> seconds
    rss = collections.defaultdict(list)
    samples = {}
    with open(sys.argv[1]) as f:
        for line in f:
            work, scale, rep, tool, n, c, _wall, kb = line.rstrip("\n").split("\t")
            key = (work, tool, int(scale))
            cpu[key][int(rep)] = float(c)
            rss[key].append(int(kb))
            samples[key] = int(n)
    scales = sorted({s for _, _, s in cpu})
    tools = sorted({t for _, t, _ in cpu if t != "benchstat"})
    keys = sorted({(w, t) for w, t, _ in cpu},
                  key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else len(ORDER), k[1]))
    print(f"{'work':<13} {'tool':<11} {'scale':>5} {'samples':>9} {'reps':>4} {'CPU s':>8}"
          f" {'max MB':>7} {'samples/s':>10}  {'vs benchstat [95 % CI]':<23}"
          f" {'vs ' + tools[0] + ' [95 % CI]' if len(tools) > 1 else '':<23} growth [95 % CI]")
    for work, tool in keys:
        for scale in scales:
            mine = cpu.get((work, tool, scale))
            if not mine:
                continue
            med = statistics.median(mine.values())
            rate = samples[(work, tool, scale)] / med if med > 0 else float("inf")
            ref = cpu.get(("compare", "benchstat", scale))
            versus = paired(mine, ref) if ref and work.startswith("compare-") else ""
            first = cpu.get((work, tools[0], scale))
            before = paired(mine, first) if len(tools) > 1 and tool != tools[0] and first else ""
            growth = ""
            base = cpu.get((work, tool, scales[0]))
            if scale != scales[0] and base:
                g = med / statistics.median(base.values())
                lo, hi = growth_ci(list(base.values()), list(mine.values()))
                more = samples[(work, tool, scale)] / samples[(work, tool, scales[0])]
                growth = f"x{g:.2f} [{lo:.2f}, {hi:.2f}] for x{more:g} samples"
            print(f"{work:<13} {tool:<11} {scale:>4}x {samples[(work, tool, scale)]:>9}"
                  f" {len(mine):>4} {med:>8.3f} {max(rss[(work, tool, scale)]) / 1024:>7.1f}"
                  f" {rate:>10.3g}  {versus:<23} {before:<23} {growth}")


main()
