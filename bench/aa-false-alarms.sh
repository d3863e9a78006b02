#!/usr/bin/env bash
# False alarms of compare on A/A pairs: the same kernel and settings run
# back to back twice, so every "better" or "worse" is false. For pipe
# (pinned to CPU 0) and messaging, PAIRS pairs each, once on a quiet
# machine and once while stress-ng --cpu 1 (on CPU 0) starts and stops at
# random moments; the false verdict rate of compare as it is, with
# --exclude-disturbed, and with run --rerun-disturbed 3 plus
# --exclude-disturbed; how many measured iterations were flagged; and, laid
# beside the background program's log by their start and end times, how
# many of the iterations that overlapped it by more than 5 % (and 20 %) of
# their wall time were flagged. The background program's window runs from
# its launch to its exit, its start-up and shutdown included, so overlaps
# are overstated rather than missed.
#
# A machine shared with other work is never quiet: its own load disturbs
# most iterations, rightly. With "rt" as the fourth argument (root), the
# runs and the background program are SCHED_RR priority 50, which ordinary
# tasks cannot preempt: the machine's other work steps aside and only the
# background program competes (in 100 ms round-robin slices on CPU 0).
# Mind that this starves the machine's other work while a run is going.
# WORKLOADS (default "pipe messaging") picks which of the two run; with
# "rt", messaging (unpinned) holds both CPUs.
# usage: bench/aa-false-alarms.sh [SCHEDPERF] [PAIRS] [ITERATIONS] [rt|-] [WORKLOADS]
set -euo pipefail
sp=${1:-./build/schedperf}
pairs=${2:-12}
iters=${3:-10}
rt=()
[ "${4:-}" != rt ] || rt=(chrt -r 50)
workloads=${5:-pipe messaging}
command -v stress-ng >/dev/null || { echo "needs stress-ng (scripts/install-deps.sh)" >&2; exit 3; }
tmp=$(mktemp -d)
noise_pid=
cleanup() { [ -z "$noise_pid" ] || kill "$noise_pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
export SCHEDPERF_DB="$tmp/aa.db"

random_seconds() { awk -v r=$RANDOM 'BEGIN{printf "%.1f", 0.2 + r % 19 / 10}'; }

# Background noise: stress-ng --cpu 1 on CPU 0 for 0.2-2 s, off for 0.2-2 s,
# each window logged as "start end" (epoch seconds) to $1. stress-ng's own
# --timeout takes whole seconds only (0.3 is 0: run forever), so timeout(1)
# ends it. SIGTERM ends the loop once its current step is over (bash runs
# the trap after its foreground child), the window it was in logged.
noise_loop() {
	local log=$1 on=
	trap '[ -z "$on" ] || echo "$on $(date +%s.%N)" >>"$log"; exit 0' TERM
	while :; do
		on=$(date +%s.%N)
		timeout -s INT "$(random_seconds)" "${rt[@]}" taskset -c 0 stress-ng --cpu 1 \
			>/dev/null 2>&1 || true
		echo "$on $(date +%s.%N)" >>"$log"
		on=
		sleep "$(random_seconds)"
	done
}

# Of the measured iterations of runs LABEL-*: those that overlapped a window
# of log FILE by more than 5 % and 20 % of their wall time, and how many of
# each were flagged; and how many that did not overlap were flagged.
overlap() {	# overlap LABEL FILE
	sqlite3 -separator ' ' "$SCHEDPERF_DB" "SELECT i.started, i.ended, i.disturbed
		FROM iterations i JOIN benchmarks b ON b.id = i.benchmark_id
		JOIN batches t ON t.id = b.batch_id JOIN runs r ON r.id = t.run_id
		WHERE r.name LIKE '$1-%' AND i.warmup = 0 AND i.failure IS NULL" |
	python3 -c '
import sys
windows = [tuple(map(float, l.split())) for l in open(sys.argv[1]) if l.strip()]
count = {k: [0, 0] for k in ("5", "20", "none")}
for line in sys.stdin:
    start, end, flagged = line.split()
    start, end, flagged = float(start), float(end), flagged == "1"
    share = sum(max(0.0, min(end, e) - max(start, s)) for s, e in windows) / (end - start)
    for key, above in (("5", share > 0.05), ("20", share > 0.20), ("none", share == 0)):
        if above:
            count[key][0] += flagged
            count[key][1] += 1
print("overlap >5 %%: %d/%d flagged, >20 %%: %d/%d, none: %d/%d" %
      tuple(x for k in ("5", "20", "none") for x in count[k]))' "$2"
}

verdicts() {	# verdicts A B [compare options]: the verdict of the workload's main row
	"$sp" compare "$1" "$2" --format json "${@:3}" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["rows"][0]["runs"][1]["verdict"])'
}

one_setting() {	# one_setting LABEL NOISE(0|1) WORKLOAD ARGS...
	local label=$1 noise=$2
	shift 2
	local plain=0 excl=0 rerun=0 n=0
	: >"$tmp/$label.noise"
	if [ "$noise" = 1 ]; then noise_loop "$tmp/$label.noise" & noise_pid=$!; fi
	for p in $(seq "$pairs"); do
		for side in a b; do
			"${rt[@]}" "$sp" run "$@" -i "$iters" --name "$label-$p-$side" --quiet 2>/dev/null
			"${rt[@]}" "$sp" run "$@" -i "$iters" --rerun-disturbed 3 \
				--name "$label-$p-$side-r" --quiet 2>/dev/null
		done
		v=$(verdicts "$label-$p-a" "$label-$p-b")
		[[ $v == better || $v == worse ]] && plain=$((plain + 1))
		v=$(verdicts "$label-$p-a" "$label-$p-b" --exclude-disturbed)
		[[ $v == better || $v == worse ]] && excl=$((excl + 1))
		v=$(verdicts "$label-$p-a-r" "$label-$p-b-r" --exclude-disturbed)
		[[ $v == better || $v == worse ]] && rerun=$((rerun + 1))
		n=$((n + 1))
	done
	if [ "$noise" = 1 ]; then kill "$noise_pid"; wait "$noise_pid" 2>/dev/null || true; noise_pid=; fi
	flagged=$(sqlite3 "$SCHEDPERF_DB" "SELECT sum(i.disturbed) || '/' || count(*) FROM iterations i
		JOIN benchmarks b ON b.id = i.benchmark_id JOIN batches t ON t.id = b.batch_id
		JOIN runs r ON r.id = t.run_id WHERE r.name LIKE '$label-%' AND i.warmup = 0")
	printf "%-16s pairs %3d  false verdicts: plain %2d (%3.0f %%)  --exclude-disturbed %2d (%3.0f %%)  rerun+exclude %2d (%3.0f %%)  flagged %s; %s\n" \
		"$label" "$n" "$plain" "$((100 * plain / n))" "$excl" "$((100 * excl / n))" \
		"$rerun" "$((100 * rerun / n))" "$flagged" "$(overlap "$label" "$tmp/$label.noise")"
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs, $pairs pairs of $iters iterations${rt:+, SCHED_RR 50}"
for w in $workloads; do
	case $w in
	pipe) args=(pipe -p loops=20000 --cpus 0) ;;
	messaging) args=(messaging -p groups=2 -p loops=20) ;;
	*) echo "unknown workload '$w' (pipe or messaging)" >&2; exit 2 ;;
	esac
	one_setting "$w-quiet" 0 "${args[@]}"
	one_setting "$w-noise" 1 "${args[@]}"
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
