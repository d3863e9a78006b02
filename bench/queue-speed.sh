#!/usr/bin/env bash
# The PostgreSQL store and its job queue, on a throwaway server
# (tests/pg-server.sh):
#  1. jobs claimed and completed per second by WORKERS workers (default 8),
#     each standing for a machine of its own, JOBS no-op jobs (default 200:
#     pipe, 1 loop, 1 iteration, no monitors); the median of 3 rounds;
#  2. `compare --format json` of 1,000 benchmarks x 3 runs x 50 samples on
#     PostgreSQL and on SQLite, interleaved, 5 rounds each: both medians
#     and their ratio (PostgreSQL / SQLite).
# usage: bench/queue-speed.sh [SCHEDPERF] [WORKERS] [JOBS]
set -euo pipefail
sp=${1:-./schedperf}
workers=${2:-8}
jobs=${3:-200}
sp=$(cd "$(dirname "$sp")" && pwd)/$(basename "$sp")
# shellcheck source=bench/pg.sh
. "$(dirname "$0")/pg.sh"

round=0
queue_round() {
	local db="q$round" start pids=()
	round=$((round + 1))
	sql postgres "CREATE DATABASE $db"
	SCHEDPERF_DB=$(url "$db") "$sp" submit pipe -p loops=1 -i 1 --no-monitors --name q \
		--repeat "$jobs" >/dev/null
	start=$(now)
	# one worker runs on a machine (it holds the machine's worker lock):
	# each stands for a machine of its own, as the tests' workers do
	for w in $(seq "$workers"); do
		mkdir -p "$dir/run$w"
		SCHEDPERF_TEST_RUNDIR=$dir/run$w SCHEDPERF_DB=$(url "$db") "$sp" -q worker \
			--idle-exit 1 &
		pids+=($!)
	done
	# the last job done is the end; the workers' idle second is not counted
	until [ "$(sql "$db" "SELECT count(*) FROM jobs WHERE state IN ('done', 'failed')")" -ge "$jobs" ]; do
		sleep 0.05
	done
	echo "$jobs / ($(now) - $start)" | bc -l
	wait "${pids[@]}"
	[ "$(sql "$db" "SELECT count(*) FROM jobs WHERE state = 'done'")" -eq "$jobs" ] ||
		echo "queue-speed: not every job is done" >&2
}

echo "queue: $workers workers, $jobs no-op jobs"
for _ in 1 2 3; do queue_round; done | tee "$dir/rates" | sed 's/^/  jobs per second: /'
printf '  median: %.1f jobs per second\n' "$(median < "$dir/rates")"

# compare: the data of bench/compare-speed.sh, imported into both stores
python3 - > "$dir/results.json" <<'PY'
import json, random, sys
rng = random.Random(42)
out = {"schema": "schedperf-results/1", "runs": []}
for r in range(3):
    bench = []
    for b in range(1000):
        mean = 1 + b % 97
        shift = 1.05 if r and b % 10 == 0 else 1.0
        bench.append({"workload": "w%d" % (b // 10), "params": {"n": str(b % 10)},
                      "metrics": [{"name": "seconds", "unit": "s", "better": "lower",
                                   "samples": [rng.gauss(mean * shift, mean * 0.02)
                                               for _ in range(50)]}]})
    out["runs"].append({"name": "run%d" % r, "started": "2026-01-01T00:00:%02dZ" % r,
                        "complete": True, "environment": {"kernel.release": "k%d" % r},
                        "benchmarks": bench})
json.dump(out, sys.stdout)
PY
sql postgres "CREATE DATABASE cmp"
"$sp" --db "$(url cmp)" import "$dir/results.json" >/dev/null
"$sp" --db "$dir/store.db" import "$dir/results.json" >/dev/null
time_compare() {
	local start
	start=$(now)
	"$sp" --db "$1" compare run0 run1 run2 --format json >/dev/null
	echo "$(now) - $start" | bc -l
}
for _ in 1 2 3 4 5; do
	time_compare "$(url cmp)" >> "$dir/pg"
	time_compare "$dir/store.db" >> "$dir/sqlite"
done
pg=$(median < "$dir/pg")
lite=$(median < "$dir/sqlite")
echo "compare --format json, 1000 benchmarks x 3 runs x 50 samples, median of 5:"
printf '  PostgreSQL %.3f s, SQLite %.3f s, ratio %.2f\n' "$pg" "$lite" "$(echo "$pg / $lite" | bc -l)"
