#!/usr/bin/env bash
# Time and peak memory of `schedperf compare` of two runs of one benchmark
# with SAMPLES samples each, for each size given (default 20000 100000
# 1000000): every statistic must cost O(n log n) time and O(n) memory, so a
# million samples a side compare in seconds and a few hundred megabytes.
# The runs are built by `import` of generated schedperf-results/1 files
# (lognormal samples, the new run 2 % slower); each compare runs REPEATS
# times (default 3) under /usr/bin/time and the medians of wall and CPU
# (user + system) seconds and of the maximum resident set size are printed.
# Building the store of a million samples a side takes about a minute.
# usage: bench/compare-memory.sh [SCHEDPERF] [REPEATS] [SAMPLES...]
set -euo pipefail
sp=${1:-./build/schedperf}
repeats=${2:-3}
shift $(($# < 2 ? $# : 2))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(20000 100000 1000000)
sp=$(cd "$(dirname "$sp")" && pwd)/$(basename "$sp")
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (apt-get install time)" >&2; exit 3; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

printf '%-10s %10s %10s %12s\n' samples "wall s" "cpu s" "max RSS MB"
for n in "${sizes[@]}"; do
	python3 - "$n" > "$dir/runs.json" <<'PY'
import json, random, sys
n = int(sys.argv[1])
rng = random.Random(n)
runs = []
for r, scale in enumerate((1.0, 1.02)):
    samples = [scale * rng.lognormvariate(0, 0.3) for _ in range(n)]
    runs.append({"name": "r%d" % r, "started": "2026-01-01T00:00:0%dZ" % r,
                 "complete": True, "environment": {"kernel.release": "k"},
                 "benchmarks": [{"workload": "w", "params": {},
                                 "metrics": [{"name": "seconds", "unit": "s", "better": "lower",
                                              "samples": samples}]}]})
json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)
PY
	rm -f "$dir/store.db"*
	"$sp" --db "$dir/store.db" import "$dir/runs.json" >/dev/null
	: > "$dir/times"
	for _ in $(seq "$repeats"); do
		/usr/bin/time -a -o "$dir/times" -f '%e %U %S %M' \
			"$sp" --db "$dir/store.db" compare r0 r1 --format json >/dev/null
	done
	python3 - "$n" "$dir/times" <<'PY'
import statistics, sys
rows = [list(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()]
wall = statistics.median(r[0] for r in rows)
cpu = statistics.median(r[1] + r[2] for r in rows)
rss = statistics.median(r[3] for r in rows) / 1024
print(f"{int(sys.argv[1]):<10d} {wall:10.2f} {cpu:10.2f} {rss:12.1f}")
PY
done
