#!/usr/bin/env bash
# Does the runner add to what it times? Runs pipe and messaging with the
# default monitors and with --no-monitors, interleaved, and prints the median
# ratio of the workload's own metric (monitors / no monitors); doc/design.md
# wants it at most 1.02.
# usage: bench/overhead.sh [SCHEDPERF] [PAIRS]
set -euo pipefail
sp=${1:-./build/schedperf}
pairs=${2:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHEDPERF_DB="$tmp/overhead.db"

last_sample() {	# last_sample RUN METRIC: the newest value of METRIC in RUN
	sqlite3 "$SCHEDPERF_DB" "SELECT s.value FROM samples s JOIN metrics m ON m.id = s.metric_id
		JOIN benchmarks b ON b.id = m.benchmark_id JOIN batches t ON t.id = b.batch_id
		JOIN runs r ON r.id = t.run_id JOIN iterations i ON i.id = s.iteration_id
		WHERE r.name = '$1' AND m.name = '$2' ORDER BY i.id DESC LIMIT 1"
}

measure() {	# measure LABEL METRIC WORKLOAD PARAMS...
	local label=$1 metric=$2 ratios=()
	shift 2
	for i in $(seq "$pairs"); do
		# alternate which side goes first, so neither always runs warmer
		if (( i % 2 )); then
			"$sp" run "$@" -i 1 --name "$label-on" --quiet
			"$sp" run "$@" -i 1 --name "$label-off" --no-monitors --quiet
		else
			"$sp" run "$@" -i 1 --name "$label-off" --no-monitors --quiet
			"$sp" run "$@" -i 1 --name "$label-on" --quiet
		fi
		on=$(last_sample "$label-on" "$metric")
		off=$(last_sample "$label-off" "$metric")
		ratios+=("$(python3 -c "print($on / $off)")")
	done
	python3 - "$label" "${ratios[@]}" <<'PY'
import statistics, sys
r = [float(x) for x in sys.argv[2:]]
print(f"{sys.argv[1]:<22} median ratio with/without monitors {statistics.median(r):.4f}"
      f"  (pairs {len(r)}, min {min(r):.4f}, max {max(r):.4f})")
PY
}

measure pipe usec_per_op pipe -p loops=200000
measure messaging seconds messaging -p groups=10 -p loops=100
