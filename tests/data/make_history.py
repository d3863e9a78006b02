#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write a synthetic history as schedperf-results/1 JSON, for history.bats.

usage: make_history.py OUT.json [RUNS]

RUNS runs named 6.1 .. 6.RUNS (so that name order differs from version
order), started a day apart, 5 samples each (Gaussian noise, 1 % of the
level, seeded: the same file every time). The series:

  messaging groups=2  seconds, lower is better: +10 % at run index 20 (regression)
  pipe loops=1000     usec, lower is better: -5 % at 30 (improvement)
  threads             events/s, higher is better: no step
  futex-hash          ops/s, higher is better: +20 % at 12, -3 % at 28
                      (improvement, then regression)
  spawn               seconds, lower is better: no step, one outlier at 25 (x1.5)
"""
import json
import random
import sys


def level(series, i):
    if series == "messaging":
        return 1.0 * (1.10 if i >= 20 else 1.0)
    if series == "pipe":
        return 20.0 * (0.95 if i >= 30 else 1.0)
    if series == "threads":
        return 5000.0
    if series == "futex-hash":
        v = 1e6 * (1.20 if i >= 12 else 1.0)
        return v * (0.97 if i >= 28 else 1.0)
    return 2.0 * (1.5 if i == 25 else 1.0)


BENCHES = [
    ("messaging", {"groups": "2"}, "seconds", "s", "lower"),
    ("pipe", {"loops": "1000"}, "usec_per_op", "usec", "lower"),
    ("threads", {}, "events_per_sec", "events/s", "higher"),
    ("futex-hash", {}, "ops_per_sec", "ops/s", "higher"),
    ("spawn", {}, "seconds", "s", "lower"),
]


def main():
    out, nr_runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40
    rng = random.Random(15)
    runs = []
    for i in range(nr_runs):
        benches = []
        for workload, params, metric, unit, better in BENCHES:
            lv = level(workload, i)
            samples = [lv * (1 + rng.gauss(0, 0.01)) for _ in range(5)]
            benches.append({"workload": workload, "params": params, "metrics": [
                {"name": metric, "unit": unit, "better": better, "source": "workload",
                 "samples": samples}]})
        runs.append({"name": f"6.{i + 1}", "complete": True,
                     "started": f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}T10:00:00Z",
                     "environment": {"kernel.release": f"6.{i + 1}.0"},
                     "benchmarks": benches})
    with open(out, "w") as f:
        json.dump({"schema": "schedperf-results/1", "runs": runs}, f)


if __name__ == "__main__":
    main()
