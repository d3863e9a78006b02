#!/usr/bin/env bash
# Fidelity of schedperf's synchronisation workloads against their reference
# tools, run interleaved on this machine (doc/design.md). Each pair is one
# reference run and one schedperf run with the same parameters, the order
# alternating from pair to pair so that neither side always runs on a
# warmer machine. Prints every pair and, per workload, the median ratio of
# costs ours/reference: 1.00 = same, above 1 = schedperf measures more cost
# (more time, or less throughput). The target is 0.9-1.1.
#
#   futex-wake  vs  perf bench futex wake -t N -w 1     ms to wake all (median of
#                   the 10 repetitions on both sides: perf's first repetition is
#                   cold, 2-3x the others, and would decide a mean by itself)
#   futex-hash  vs  perf bench futex hash -t N -r 5     per-thread ops/s (inverted)
#   threads     vs  sysbench threads --threads=N --time=5   events/s (inverted)
#   mutex       vs  sysbench mutex --threads=N          total time, s
#   poundtime   MMTests' pound_* programs are not packaged: not compared here
#
# usage: bench/fidelity-sync.sh [SCHEDPERF] [THREADS] [PAIRS]
#        WORKLOADS="futex-wake mutex" bench/fidelity-sync.sh ...   (a subset)
set -eu
sp=${1:-${SP:-./build/schedperf}}
threads=${2:-$(nproc)}
pairs=${3:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$sp" ] || { echo "fidelity-sync: $sp not found (run make)" >&2; exit 3; }
for tool in perf sysbench python3; do
	command -v "$tool" >/dev/null ||
		{ echo "fidelity-sync: $tool not found (apt-get install linux-perf sysbench)" >&2; exit 3; }
done

# Run one schedperf iteration and print metric $2: the median of its samples,
# which for futex-wake are its repetitions (one sample for the others).
ours() {
	local workload=$1 metric=$2 run
	shift 2
	run=fid-$RANDOM$RANDOM
	local params=()
	for kv in "$@"; do params+=(-p "$kv"); done
	"$sp" run "$workload" "${params[@]}" -i 1 --name "$run" --db "$tmp/db" --quiet
	"$sp" export "$run" --db "$tmp/db" | python3 -c '
import json, sys
bench = json.load(sys.stdin)["runs"][0]["benchmarks"][-1]
import statistics
samples = [m for m in bench["metrics"] if m["name"] == sys.argv[1]][0]["samples"]
print(statistics.median(samples))
' "$metric"
}

ref_futex_wake() {
	perf bench futex wake -t "$threads" -w 1 |
		awk '/^\[Run [0-9]+\]: Wokeup/ { for (i = 1; i <= NF; i++) if ($i == "ms") print $(i - 1) }' |
		python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.stdin))'
}

ref_futex_hash() {
	perf bench futex hash -t "$threads" -r 5 | awk '/^Averaged/ { print $2 }'
}

# sysbench's events/s: total events over total time.
ref_threads() {
	sysbench threads --threads="$threads" --time=5 run | awk '
		/total time:/ { t = $3; sub("s", "", t) }
		/total number of events:/ { e = $5 }
		END { printf "%.6f\n", e / t }'
}

ref_mutex() {
	sysbench mutex --threads="$threads" run |
		awk '/total time:/ { t = $3; sub("s", "", t); print t }'
}

median() {
	python3 -c 'import statistics, sys; print("%.3f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"
}

# compare NAME UNIT HIGHER_IS_BETTER REF_FUNCTION OURS_ARGS...
compare() {
	local name=$1 unit=$2 higher=$3 ref_fn=$4 ref ours_v ratio
	local ratios=()
	shift 4
	case " ${WORKLOADS:-$name} " in *" $name "*) ;; *) return 0 ;; esac
	echo "$name ($unit), threads=$threads, $pairs pairs:"
	for i in $(seq "$pairs"); do
		if [ $((i % 2)) = 1 ]; then
			ref=$($ref_fn)
			ours_v=$(ours "$@")
		else
			ours_v=$(ours "$@")
			ref=$($ref_fn)
		fi
		[ -n "$ref" ] && [ -n "$ours_v" ] ||
			{ echo "fidelity-sync: $name: no number from a run" >&2; exit 4; }
		if [ "$higher" = 1 ]; then
			ratio=$(python3 -c "print('%.3f' % ($ref / $ours_v))")
		else
			ratio=$(python3 -c "print('%.3f' % ($ours_v / $ref))")
		fi
		ratios+=("$ratio")
		printf '  pair %2d: reference %12.4f  schedperf %12.4f  cost ratio %s\n' \
			"$i" "$ref" "$ours_v" "$ratio"
	done
	printf '%-11s median cost ratio ours/reference: %s\n\n' "$name" "$(median "${ratios[@]}")"
	summary+=("$(printf '%-11s %s' "$name" "$(median "${ratios[@]}")")")
}

summary=()
compare futex-wake ms 0 ref_futex_wake \
	futex-wake wake_ms threads="$threads" nwakes=1 repeat=10
compare futex-hash ops/s 1 ref_futex_hash \
	futex-hash ops_per_sec threads="$threads" runtime=5
compare threads events/s 1 ref_threads \
	threads events_per_sec threads="$threads" runtime=5
compare mutex s 0 ref_mutex \
	mutex seconds threads="$threads"

echo "median cost ratio ours/reference (1.00 = same):"
printf '  %s\n' "${summary[@]+"${summary[@]}"}"
