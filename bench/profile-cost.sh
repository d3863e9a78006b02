#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# profile-cost.sh: what a profile taken in the measured iterations costs the
# workload, by sampling rate, beside what perf record costs the same run.
# pipe with both tasks on one CPU (CPU-bound, so the cost shows as time),
# each case interleaved against the same run with --no-monitors; the median
# ratio of usec_per_op with its 95 % bootstrap interval (bench/lib.sh).
# The difference between two rates is the cost of the samples themselves;
# what is left at 10 Hz is the cost of the open events (doc/design.md,
# "What a profile costs").
#
# usage: bench/profile-cost.sh [SCHEDPERF]
# Environment: RATES, the --profile-frequency values to measure (default
# "10 100 1000"); PERF_RATES, the same for perf record -a -g around an
# unprofiled run (default "10 1000"; empty, or no perf, leaves them out);
# PAIRS, MAX_PAIRS, TARGET, CPUS as bench/lib.sh says.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup profile-cost "${1:-./build/schedperf}"
RATES=${RATES:-10 100 1000}
PERF_RATES=${PERF_RATES-10 1000}
for hz in $RATES $PERF_RATES; do
	if ! [[ $hz =~ ^[1-9][0-9]*$ ]]; then
		echo "profile-cost: rate '$hz': give whole numbers of samples a second" >&2
		exit 2
	fi
done
if [[ -n $PERF_RATES ]] && ! perf record -q -o /dev/null -a -- true 2>/dev/null; then
	echo "profile-cost: perf record cannot sample here: its cases are left out" >&2
	PERF_RATES=
fi

unprofiled() {
	local bench_run_opts=(--no-monitors)

	ours pipe usec_per_op loops=200000 cpus=same
}
profiled() {
	local bench_run_opts=(--monitors profile --profile-frequency "$hz")

	ours pipe usec_per_op loops=200000 cpus=same
}
# The same unprofiled run with perf record sampling every CPU around it.
under_perf() {
	local bench_run_opts=(--no-monitors) bench_sp=$bench_tmp/under-perf

	ours pipe usec_per_op loops=200000 cpus=same
}

for hz in $RATES; do
	pairs "pipe cpus=same, profile at $hz Hz" unprofiled profiled \
		--ref "the same, --no-monitors" usec_per_op:lower
done
real_sp=$bench_sp
for hz in $PERF_RATES; do
	# export reads the store, outside anything timed: only run is sampled
	cat >"$bench_tmp/under-perf" <<EOF
#!/bin/sh
[ "\$1" = run ] || exec "$real_sp" "\$@"
exec perf record -q -o "$bench_tmp/perf.data" -F $hz -g -a -- "$real_sp" "\$@"
EOF
	chmod +x "$bench_tmp/under-perf"
	pairs "pipe cpus=same, perf record -a -g -F $hz" unprofiled under_perf \
		--ref "the same, without perf" usec_per_op:lower
done
bench_report
