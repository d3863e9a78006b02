#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Write the stores of tests/golden/make.sh that tests/data lacks, as
schedperf-results/1 JSON with fixed values (nothing measured, no clock):

  profiles.json  runs p1 and p2 with CPU profiles of timed iterations, and a
                 run "extra" whose profiles are of extra iterations
  fleet.json     runs x and y on two machines ("here" and "other"), a run
                 of two batches on one, an incomplete batch, a metric of
                 several repetitions with warm-ups

usage: data.py OUTDIR
"""
import json
import os
import sys


def metric(name, samples, unit="usec", better="lower", warmup=None, reps=None,
           source="workload"):
    m = {"name": name, "unit": unit, "better": better, "source": source,
         "samples": samples}
    if warmup:
        m["warmup"] = warmup
    if reps:
        m["repetitions"] = reps
    return m


def profile(seq, symbols, extra=False, total=1000000, lost=0):
    return {"seq": seq, "extra": extra, "event": "cpu-clock", "scope": "tasks",
            "frequency": 100, "samples": total // 10000, "lost": lost, "total": total,
            "symbols": [{"name": n, "dso": d, "self": s, "children": c}
                        for n, d, s, c in symbols]}


def run(name, started, benchmarks, env=None, complete=True):
    return {"name": name, "started": started, "complete": complete,
            "environment": env or {"kernel.release": name}, "benchmarks": benchmarks}


def profiles():
    def symbols(shift):
        return [("main", "pipe", 0, 1000000),
                ("pipe_write", "[kernel.kallsyms]", 300000 + shift, 450000 + shift),
                ("pipe_read", "[kernel.kallsyms]", 250000 - shift, 400000 - shift),
                ("schedule", "[kernel.kallsyms]", 150000, 350000),
                ("[unknown]", "[unknown]", 100000, 100000),
                ("memcpy", "libc.so.6", 200000 - shift // 2, 200000 - shift // 2)]

    def bench(values, shift, extra=False):
        return {"workload": "pipe", "params": {"loops": "1000"},
                "metrics": [metric("usec_per_op", values)],
                "profiles": [profile(i, symbols(shift + 1000 * i), extra=extra,
                                     lost=i) for i in range(3)]}

    return [run("p1", "2026-04-01T00:00:00Z", [bench([5.0, 5.1, 5.2], 0)]),
            run("p2", "2026-04-02T00:00:00Z", [bench([5.5, 5.6, 5.4], 40000)]),
            run("extra", "2026-04-03T00:00:00Z", [bench([5.3, 5.2], 20000, extra=True)])]


def fleet():
    here = {"machine.hostname": "here", "machine.id": "4e7e" + "0" * 28}
    other = {"machine.hostname": "other", "machine.id": "0the" + "0" * 28}

    def env(machine, release):
        return dict(machine, **{"kernel.release": release, "cpufreq.governor": "performance"})

    def bench(level):
        return [{"workload": "messaging", "params": {"groups": "2", "mode": "process"},
                 "metrics": [metric("seconds", [level, level * 1.01, level * 0.99], unit="s",
                                    warmup=[level * 1.5]),
                             metric("wall", [level * 1.1, level * 1.12, level * 1.09],
                                    unit="s", source="rusage")]},
                {"workload": "futex-wake", "params": {"threads": "4"},
                 "metrics": [metric("usec", [1.0, 1.5, 2.0, 2.5, 3.0, 3.5], reps=3)]}]

    return [run("x", "2026-05-01T00:00:00Z", bench(1.0), env(here, "6.1")),
            run("x", "2026-05-01T01:00:00Z", bench(1.02), env(here, "6.1")),
            run("x", "2026-05-02T00:00:00Z", bench(1.3), env(other, "6.1")),
            run("y", "2026-05-03T00:00:00Z", bench(1.1), env(here, "6.2")),
            run("y", "2026-05-04T00:00:00Z", bench(1.2), env(other, "6.2")),
            run("z", "2026-05-05T00:00:00Z", bench(1.1)[:1], env(here, "6.3"),
                complete=False)]


def main():
    for name, runs in (("profiles", profiles()), ("fleet", fleet())):
        with open(os.path.join(sys.argv[1], name + ".json"), "w") as f:
            json.dump({"schema": "schedperf-results/1", "runs": runs}, f, indent=1)


if __name__ == "__main__":
    main()
