#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity.sh: compare schedperf's messaging and pipe workloads with the
# tools they reimplement, `perf bench sched messaging` and `perf bench sched
# pipe`, on this machine. For each case it runs PAIRS interleaved pairs (one
# of ours, one of perf's, the order alternating so that neither side always
# runs second on a warmer or busier machine) and prints both medians and the
# median of the per-pair ratios ours/perf. A ratio near 1 means our numbers
# can be read like perf's.
#
# Then, unless ONLY_PERF_SCHED=1, the other workloads that have a reference
# installable from Debian: futex-wake and futex-hash against perf bench
# futex, threads and mutex against sysbench (bench/fidelity-sync.sh), and
# messaging against rt-tests' hackbench (bench/fidelity-proc.sh).
#
# Usage: bench/fidelity.sh [SCHEDPERF]   (default ./build/schedperf)
# Environment: PAIRS (default 10); RUN_OPTS, extra options for 'schedperf
# run' (e.g. RUN_OPTS=--no-monitors to leave out the runner's perf counters,
# which cost something on every context switch of the pipe workload).
# Builds nothing. Exit: 0 done, 2 usage, 3 perf bench or schedperf missing.

set -euo pipefail

SP=${1:-./build/schedperf}
PAIRS=${PAIRS:-10}
read -r -a run_opts <<<"${RUN_OPTS:-}"

if [[ ! -x $SP ]]; then
	echo "fidelity: schedperf binary '$SP' not found or not executable (build it or pass its path)" >&2
	exit 3
fi
if ! command -v python3 >/dev/null; then
	echo "fidelity: python3 is needed to read schedperf's JSON export" >&2
	exit 3
fi
if ! perf bench sched pipe -l 1 >/dev/null 2>&1; then
	echo "fidelity: 'perf bench' is not available (install linux-perf, or check perf_event_paranoid is not the problem)" >&2
	exit 3
fi

tmpdir=$(mktemp -d "${TMPDIR:-/tmp}/fidelity.XXXXXX")
trap 'rm -rf "$tmpdir"' EXIT
db=$tmpdir/results.db
runs=0

# perf prints " Total time: 1.234 [sec]".
perf_seconds() {
	perf bench sched "$@" | awk '/Total time:/ { print $3 }'
}

# ours_seconds WORKLOAD K=V...: one iteration, as total seconds like perf's.
ours_seconds() {
	local workload=$1 name params=() kv loops=1
	shift
	runs=$((runs + 1))
	name=fid-$$-$runs
	for kv in "$@"; do
		params+=(-p "$kv")
		[[ $kv == loops=* ]] && loops=${kv#loops=}
	done
	"$SP" run "$workload" "${params[@]}" ${run_opts[@]+"${run_opts[@]}"} \
		-i 1 --db "$db" --name "$name" --quiet >/dev/null
	"$SP" export "$name" --db "$db" | python3 -c '
import json, sys
workload, loops = sys.argv[1], int(sys.argv[2])
doc = json.load(sys.stdin)
metrics = {m["name"]: m["samples"][0] for m in doc["runs"][-1]["benchmarks"][0]["metrics"]}
if workload == "pipe":
    print(metrics["usec_per_op"] * loops / 1e6)
else:
    print(metrics["seconds"])
' "$workload" "$loops"
}

# summarize LABEL FILE: FILE holds "ours perf" per line.
summarize() {
	python3 - "$1" "$2" <<'EOF'
import statistics, sys
label, path = sys.argv[1], sys.argv[2]
pairs = [tuple(map(float, line.split())) for line in open(path) if line.strip()]
ours = [o for o, _ in pairs]
perf = [p for _, p in pairs]
ratios = [o / p for o, p in pairs if p > 0]
print(f"{label:<34} n={len(pairs):<3} ours {statistics.median(ours):9.4f} s   "
      f"perf {statistics.median(perf):9.4f} s   ours/perf {statistics.median(ratios):6.3f} "
      f"(min {min(ratios):.3f} max {max(ratios):.3f})")
EOF
}

# compare LABEL "OURS ARGS" "PERF ARGS": PAIRS interleaved pairs.
compare() {
	local label=$1 ours_args=$2 perf_args=$3 out=$tmpdir/pairs i o p
	: >"$out"
	for ((i = 0; i < PAIRS; i++)); do
		# shellcheck disable=SC2086 # the argument lists are split on purpose
		if ((i % 2 == 0)); then
			o=$(ours_seconds $ours_args)
			p=$(perf_seconds $perf_args)
		else
			p=$(perf_seconds $perf_args)
			o=$(ours_seconds $ours_args)
		fi
		if [[ -z $o || -z $p ]]; then
			echo "fidelity: $label: a run gave no number (ours '$o', perf '$p')" >&2
			exit 4
		fi
		echo "$o $p" >>"$out"
	done
	summarize "$label" "$out"
}

echo "# $(uname -r), $(nproc) CPUs, $PAIRS interleaved pairs per case; times are totals in seconds"
echo "# schedperf run options: ${RUN_OPTS:-(default)}"
compare "pipe loops=200000 process" \
	"pipe loops=200000 mode=process" \
	"pipe -l 200000"
compare "messaging g=10 l=100 socket process" \
	"messaging groups=10 loops=100 ipc=socket mode=process" \
	"messaging -g 10 -l 100"
compare "messaging g=10 l=100 pipe thread" \
	"messaging groups=10 loops=100 ipc=pipe mode=thread" \
	"messaging -g 10 -l 100 -p -t"

if [[ ${ONLY_PERF_SCHED:-0} != 1 ]]; then
	here=$(dirname "$0")
	echo
	"$here/fidelity-sync.sh" "$SP" "$(nproc)" "$PAIRS"
	echo
	"$here/fidelity-proc.sh" "$SP" 10 100 "$PAIRS"
fi
