#!/usr/bin/env bash
# How long does `schedperf report` take, and how big is the page? Imports
# two generated runs of BENCHMARKS benchmarks (default 100, in sweeps of 5
# values) with SAMPLES samples each (default 30) into a scratch store and
# writes `report A B -o FILE`: the median of 3 of wall and CPU time (user +
# system, gnuplot's included), and the page's size.
# usage: bench/report-speed.sh [SCHEDPERF] [BENCHMARKS] [SAMPLES]
set -euo pipefail
sp=${1:-./schedperf}
benchmarks=${2:-100}
samples=${3:-30}
sp=$(cd "$(dirname "$sp")" && pwd)/$(basename "$sp")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export SCHEDPERF_DB="$dir/store.db"
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

"$PYTHON" - "$benchmarks" "$samples" > "$dir/results.json" <<'PY'
import json, random, sys
benchmarks, samples = map(int, sys.argv[1:3])
rng = random.Random(42)
out = {"schema": "schedperf-results/1", "runs": []}
for r, name in enumerate(("A", "B")):
    bench = []
    for b in range(benchmarks):
        mean = (1 + b % 5) * (1.05 if r and b % 10 == 0 else 1.0)
        bench.append({"workload": "w%d" % (b // 5), "params": {"groups": str(1 << (b % 5))},
                      "metrics": [{"name": "seconds", "unit": "s", "better": "lower",
                                   "samples": [rng.gauss(mean, mean * 0.02)
                                               for _ in range(samples)]}]})
    out["runs"].append({"name": name, "started": "2026-01-01T00:00:0%dZ" % r,
                        "complete": True, "environment": {"kernel.release": name},
                        "benchmarks": bench})
json.dump(out, sys.stdout)
PY
"$sp" import "$dir/results.json" >/dev/null
wall=() cpu=()
for _ in 1 2 3; do
	/usr/bin/time -f '%e %U %S' -o "$dir/time" "$sp" report A B -o "$dir/report.html"
	read -r e u s < "$dir/time"
	wall+=("$e")
	cpu+=("$(echo "$u + $s" | bc)")
done
# /usr/bin/time counts the children waited for: gnuplot's time is in cpu
echo "report A B: $benchmarks benchmarks x $samples samples x 2 runs:" \
     "median of 3: wall $(printf '%s\n' "${wall[@]}" | sort -n | sed -n 2p) s," \
     "cpu $(printf '%s\n' "${cpu[@]}" | sort -n | sed -n 2p) s;" \
     "page $(stat -c %s "$dir/report.html") bytes," \
     "$(grep -o '<svg' "$dir/report.html" | wc -l) charts"
