#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""What an export of tests/data/store-v1.sql must hold, derived without schedperf.

tests/data/store-v1.sql is a schema version 1 store (an sqlite3 .dump of one
that schedperf 0.1.0 wrote before repetitions existed). This script reads its
rows with Python's sqlite3 module and writes, in the interchange format
(schedperf-results/1: runs -> benchmarks -> metrics with their samples; the
warm-up iterations' values apart; failed iterations counted), what
`schedperf export v1-pipe v1-fw` must print once the store is upgraded:

    /usr/bin/python3 tests/reference/store_v1_expected.py > tests/data/store-v1.json

tests/cli/interchange.bats compares the two as JSON values (numbers as the
doubles they denote), so the layout of this file does not matter.
"""
import json
import os
import sqlite3
import sys

RUNS = ("v1-pipe", "v1-fw")
HERE = os.path.dirname(os.path.abspath(__file__))


def values(db, metric_id, warmup):
    rows = db.execute("SELECT s.value FROM samples s JOIN iterations i ON i.id = s.iteration_id"
                      " WHERE s.metric_id = ? AND i.warmup = ? AND i.failure IS NULL"
                      " ORDER BY i.seq", (metric_id, warmup))
    return [float(v) for (v,) in rows]


def metric(db, m):
    metric_id, name, unit, better, source = m
    out = {"name": name, "unit": unit, "better": better, "source": source,
           "samples": values(db, metric_id, 0)}
    warmup = values(db, metric_id, 1)
    if warmup:
        out["warmup"] = warmup
    return out


def benchmark(db, bench_id, workload, params):
    out = {"workload": workload, "params": json.loads(params)}
    (failed,) = db.execute("SELECT count(*) FROM iterations WHERE benchmark_id = ?"
                           " AND failure IS NOT NULL", (bench_id,)).fetchone()
    if failed:
        out["failed_iterations"] = failed
    metrics = db.execute("SELECT id, name, unit, better, source FROM metrics"
                         " WHERE benchmark_id = ? ORDER BY position", (bench_id,))
    out["metrics"] = [m for m in (metric(db, row) for row in metrics.fetchall()) if m["samples"]]
    return out


def batch(db, name, batch_id, started, complete):
    env = dict(db.execute("SELECT key, value FROM environment WHERE batch_id = ?", (batch_id,)))
    benches = db.execute("SELECT id, workload, params FROM benchmarks WHERE batch_id = ?"
                         " ORDER BY position", (batch_id,)).fetchall()
    return {"name": name, "started": started, "complete": bool(complete),
            "environment": dict(sorted(env.items())),
            "benchmarks": [benchmark(db, *b) for b in benches]}


def main():
    db = sqlite3.connect(":memory:")
    with open(os.path.join(HERE, "..", "data", "store-v1.sql")) as f:
        db.executescript(f.read())
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    runs = []
    for name in RUNS:
        for b in db.execute("SELECT b.id, b.started, b.complete FROM batches b JOIN runs r"
                            " ON r.id = b.run_id WHERE r.name = ? ORDER BY b.started", (name,)):
            runs.append(batch(db, name, *b))
    json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
