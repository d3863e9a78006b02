#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The generated samples bench/scale.sh, compare-speed.sh and
detect-speed.sh time, written once for both tools.

  scale_data.py compare DIR BENCHMARKS RUNS SAMPLES
      DIR/compare.json   schedperf-results/1: RUNS runs (run0, run1, ...) of
                         BENCHMARKS benchmarks, one metric of SAMPLES samples
      DIR/run0.txt ...   the same samples as benchstat reads them, one line
                         "BenchmarkWORKLOAD/n=K 1 VALUE seconds" per sample
                         (the mapping of `compare --style benchstat`)
  scale_data.py series DIR SERIES POINTS
      DIR/series.json    POINTS runs (k0, k1, ...) of SERIES benchmarks, three
                         samples a point, steps of 5 % every 1,000 points
                         (series b starts 37 b points into that cycle)

A tenth of the compared rows move by 5 %, the rest only by noise (2 %), so
that the verdicts are a mix, as in a real comparison. The values are
printed with repr(), so both tools read the same doubles.
"""
import json
import random
import sys


def compare(path, benchmarks, runs, samples):
    rng = random.Random(42)
    out = {"schema": "schedperf-results/1", "runs": []}
    texts = [[] for _ in range(runs)]
    for r in range(runs):
        bench = []
        for b in range(benchmarks):
            mean = 1 + b % 97
            shift = 1.05 if r and b % 10 == 0 else 1.0
            values = [rng.gauss(mean * shift, mean * 0.02) for _ in range(samples)]
            workload, n = "w%d" % (b // 10), str(b % 10)
            bench.append({"workload": workload, "params": {"n": n},
                          "metrics": [{"name": "seconds", "unit": "s", "better": "lower",
                                       "samples": values}]})
            texts[r].extend("Benchmark%s/n=%s 1 %r seconds\n" % (workload, n, v)
                            for v in values)
        out["runs"].append({"name": "run%d" % r, "started": "2026-01-01T00:00:%02dZ" % r,
                            "complete": True, "environment": {"kernel.release": "k%d" % r},
                            "benchmarks": bench})
    with open(path + "/compare.json", "w") as f:
        json.dump(out, f)
    for r in range(runs):
        with open("%s/run%d.txt" % (path, r), "w") as f:
            f.writelines(texts[r])


def series(path, nr_series, points):
    rng = random.Random(15)
    out = {"schema": "schedperf-results/1", "runs": []}
    for r in range(points):
        bench = []
        for b in range(nr_series):
            level = (1 + b % 7) * 1.05 ** ((r + 37 * b) // 1000 % 3)
            bench.append({"workload": "w%d" % (b // 10), "params": {"n": str(b % 10)},
                          "metrics": [{"name": "seconds", "unit": "s", "better": "lower",
                                       "samples": [rng.gauss(level, level * 0.01)
                                                   for _ in range(3)]}]})
        out["runs"].append({"name": "k%d" % r, "complete": True,
                            "started": "2026-01-01T00:00:00.%06dZ" % r,
                            "environment": {}, "benchmarks": bench})
    with open(path + "/series.json", "w") as f:
        json.dump(out, f)


def main():
    if len(sys.argv) == 6 and sys.argv[1] == "compare":
        compare(sys.argv[2], *map(int, sys.argv[3:6]))
    elif len(sys.argv) == 5 and sys.argv[1] == "series":
        series(sys.argv[2], *map(int, sys.argv[3:5]))
    else:
        sys.exit(__doc__)


main()
