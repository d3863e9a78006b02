#!/usr/bin/env bash
# How fast is `schedperf detect`? Two stores, generated and imported into
# scratch files: one series of POINTS runs (default 10,000), and SERIES
# series of 100 runs (default 1,000 benchmarks in each of 100 runs), 3
# samples a point, steps of 5 % every 1,000 points. Times `detect --format
# json` (loading the store included) and `history --format json` (the
# loading alone): medians of 5 of wall and CPU (user + system) time; on a
# shared machine the CPU time is the steadier figure. The figure to hold:
# well under a second each.
#
# Beside it, Apache Otava's own compute_change_points() (Hunter's method in
# Python) on the same point means, when OTAVA_SRC names a checkout of
# https://github.com/apache/otava (its otava/ package needs only NumPy and
# SciPy: Debian's python3-numpy and python3-scipy); its time is the
# computation alone, median of 3.
# usage: [OTAVA_SRC=DIR] bench/detect-speed.sh [SCHEDPERF] [POINTS] [SERIES]
set -euo pipefail
sp=${1:-./schedperf}
points=${2:-10000}
series=${3:-1000}
sp=$(cd "$(dirname "$sp")" && pwd)/$(basename "$sp")
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

generate() {	# generate RUNS BENCHMARKS > JSON
	"$PYTHON" "$here/scale_data.py" series "$dir" "$2" "$1"
	cat "$dir/series.json"
	rm "$dir/series.json"
}

median_of() {	# median_of N COMMAND...: "wall s, cpu s", the median of each
	local wall=() cpu=()
	for _ in $(seq "$1"); do
		/usr/bin/time -f '%e %U %S' -o "$dir/time" "${@:2}" > /dev/null
		read -r e u s < "$dir/time"
		wall+=("$e")
		cpu+=("$(echo "$u + $s" | bc)")
	done
	echo "wall $(printf '%s\n' "${wall[@]}" | sort -n | sed -n "$((($1 + 1) / 2))p") s," \
	     "cpu $(printf '%s\n' "${cpu[@]}" | sort -n | sed -n "$((($1 + 1) / 2))p") s"
}

otava_time() {	# otava_time STORE: median of 3, seconds, on detect's point means
	SCHEDPERF_DB="$1" "$sp" history --format json > "$dir/history.json"
	PYTHONPATH="$OTAVA_SRC" "$PYTHON" - "$dir/history.json" <<'PY'
import json, statistics, sys, time
from otava.analysis import compute_change_points
series = [[p["mean"] for p in s["points"]] for s in json.load(open(sys.argv[1]))["series"]]
times = []
for _ in range(3):
    start = time.perf_counter()
    found = sum(len(compute_change_points(x, window_len=50, max_pvalue=0.001)[0])
                for x in series)
    times.append(time.perf_counter() - start)
print("%.3f s (%d change points)" % (statistics.median(times), found))
PY
}

measure() {	# measure NAME RUNS BENCHMARKS
	local db="$dir/$1.db" t
	generate "$2" "$3" > "$dir/$1.json"
	SCHEDPERF_DB="$db" "$sp" import "$dir/$1.json" > /dev/null
	echo "$1: $3 series x $2 points, history --format json (loading alone):" \
	     "median of 5: $(SCHEDPERF_DB="$db" median_of 5 "$sp" history --format json)"
	t=$(SCHEDPERF_DB="$db" median_of 5 "$sp" detect --format json)
	echo "$1: $3 series x $2 points, detect --format json: median of 5: $t" \
	     "($(SCHEDPERF_DB="$db" "$sp" detect --format json | "$PYTHON" -c \
	     'import json,sys; print(sum(len(s["change_points"]) for s in json.load(sys.stdin)))') change points)"
	if [ -n "${OTAVA_SRC:-}" ]; then
		echo "$1: Otava compute_change_points on the same means: $(otava_time "$db")"
	fi
}

measure long "$points" 1
measure many 100 "$series"
