#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The export bench/grid-speed.sh imports: a test grid's store.

  grid_data.py FILE FIRST RUNS [BENCHMARKS] [METRICS] [SAMPLES]

FILE gets schedperf-results/1 JSON of RUNS runs from the FIRST-th (from 0:
g000000, g000001, ...),
each one batch started a second after the one before, with 40 environment
entries (the kernel release and a few others change from run to run, the
rest do not, as on a grid of one machine type), BENCHMARKS benchmarks
(default 4) of METRICS metrics (default 22, as a run's workload and rusage
metrics) of SAMPLES samples (default 3). Each run's values are seeded by
its number, so that a grid made in parts (several FIRSTs, one import each)
is the same as one made whole. It is written a run at a time.
"""
import json
import random
import sys


def environment(r):
    env = {"kernel.release": "6.%d.%d-grid" % (r // 1000, r % 1000),
           "load.start": "%.2f" % (r % 17 / 10),
           "schedperf.version": "0.%d" % (r // 5000),
           "sysctl.kernel.sched_migration_cost_ns": str(500000 + 1000 * (r % 3))}
    for k in range(40 - len(env)):
        env["grid.key%02d" % k] = "value %d of a machine of the grid" % k
    return env


def benchmarks(rng, r, nr_benchmarks, nr_metrics, nr_samples):
    out = []
    for b in range(nr_benchmarks):
        metrics = []
        for m in range(nr_metrics):
            level = (1 + m) * (1 + b) * (1.05 if (r // 1000) % 2 else 1.0)
            metrics.append({"name": "metric%02d" % m, "unit": "s",
                            "better": "lower" if m % 3 else "higher",
                            "samples": [rng.gauss(level, level * 0.02)
                                        for _ in range(nr_samples)]})
        out.append({"workload": "grid%d" % b, "params": {"threads": str(1 << b)},
                    "metrics": metrics})
    return out


def main():
    if not 4 <= len(sys.argv) <= 7:
        sys.exit(__doc__)
    path, first, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    shape = list(map(int, sys.argv[4:7])) + [4, 22, 3][len(sys.argv) - 4:]
    with open(path, "w") as f:
        f.write('{"schema": "schedperf-results/1", "runs": [')
        for r in range(first, first + runs):
            rng = random.Random(r)
            run = {"name": "g%06d" % r, "complete": True,
                   "started": "2026-01-01T%02d:%02d:%02dZ" % divmod_hms(r),
                   "environment": environment(r),
                   "benchmarks": benchmarks(rng, r, *shape)}
            f.write((", " if r > first else "") + json.dumps(run))
        f.write("]}\n")


def divmod_hms(r):
    """A second apart from 00:00:00; 30,000 runs stay within a day."""
    return r // 3600, r // 60 % 60, r % 60


main()
