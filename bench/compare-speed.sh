#!/usr/bin/env bash
# How fast is `schedperf compare` on a large comparison? Imports a generated
# schedperf-results/1 file of BENCHMARKS benchmarks x RUNS runs x SAMPLES
# samples (default 1000 x 3 x 50, the figure to hold: under a
# second) into a scratch store and times `compare --format json` of the
# baseline against the other runs: the median of 5 with hyperfine when it is
# installed, else of 5 runs timed by bash.
# usage: bench/compare-speed.sh [SCHEDPERF] [BENCHMARKS] [RUNS] [SAMPLES]
set -euo pipefail
sp=${1:-./schedperf}
benchmarks=${2:-1000}
runs=${3:-3}
samples=${4:-50}
sp=$(cd "$(dirname "$sp")" && pwd)/$(basename "$sp")
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export SCHEDPERF_DB="$dir/store.db"

python3 "$here/scale_data.py" compare "$dir" "$benchmarks" "$runs" "$samples"
"$sp" import "$dir/compare.json" >/dev/null
names=$(seq -f 'run%g' 0 $((runs - 1)) | tr '\n' ' ')
echo "compare --format json: $benchmarks benchmarks x $runs runs x $samples samples"
if command -v hyperfine >/dev/null; then
	hyperfine --warmup 1 --runs 5 --style basic --export-json "$dir/h.json" \
		"$sp compare $names --format json > /dev/null"
	python3 -c 'import json,sys,statistics; t=json.load(open(sys.argv[1]))["results"][0]["times"]; print("median of %d: %.3f s" % (len(t), statistics.median(t)))' "$dir/h.json"
else
	times=()
	for _ in 1 2 3 4 5; do
		start=$(date +%s.%N)
		"$sp" compare $names --format json > /dev/null
		times+=("$(echo "$(date +%s.%N) - $start" | bc)")
	done
	printf '%s\n' "${times[@]}" | sort -n | sed -n 3p | sed 's/^/median of 5: /; s/$/ s/'
fi
