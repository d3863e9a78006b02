#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-cyclictest.sh: compare schedperf's cyclictest workload with
# rt-tests' cyclictest on this machine, interleaved pairs, both pinned
# alike (bench/lib.sh), on the wake-up latency's mean, median, 99th
# percentile and maximum (every wake-up of every thread).
#
# Cases (cyclictest -S: a thread per CPU allowed, pinned; -d 0: one
# interval for all, as our default; -N: nanoseconds, as we keep them;
# --default-system: it leaves power management alone, as we do):
#   1  idle machine, SCHED_FIFO 95     cyclictest -S -p 95 -i 1000 -d 0 -l LOOPS
#   2  the same beside hackbench       ... while `hackbench -g 2 -l 1000` runs
#                                      over and over (rt-tests' hackbench; ours:
#                                      load=messaging, the same groups and loops)
#   3  as 2, SCHED_OTHER               cyclictest --policy=other ...: the wake-ups
#                                      the fair class gives a task among others
# LOOPS wake-ups per thread (default 3000: 3 s). The interval must be narrow
# on the mean and the median; the tail (p99, max) of a shared virtual machine
# moves far more than 5 % between runs of either tool, and is reported.
#
# usage: bench/fidelity-cyclictest.sh [SCHEDPERF]
# Environment: LOOPS; CASES="1 2" (a subset, by number); and PAIRS,
# MAX_PAIRS, CASE_SECONDS, TARGET, BAND, SUMMARY, CPUS, RUN_OPTS as
# bench/lib.sh says. Needs rt-tests (cyclictest, hackbench); SCHED_FIFO
# needs root. Exit: 0 done, 2 usage, 3 a tool missing, 4 a run gave no number.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity-cyclictest "${1:-./build/schedperf}"
for tool in cyclictest hackbench; do
	command -v "$tool" >/dev/null ||
		{ echo "fidelity-cyclictest: $tool not found (apt-get install rt-tests)" >&2; exit 3; }
done
loops=${LOOPS:-3000}
metrics="latency_avg latency_p50 latency_p99 latency_max"
load_pid=

# The load beside the reference: hackbench again and again, in a process
# group of its own so that stopping it stops its children too, but in this
# session: with sched_autogroup_enabled, a task's autogroup is its session,
# and our load shares the measuring threads' session as well.
start_hackbench() {
	set -m
	taskset -c "$CPUS" bash -c 'while :; do hackbench -g 2 -l 1000 >/dev/null 2>&1; done' &
	load_pid=$!
	set +m
	# the loop is running once its first hackbench is
	until pgrep -P "$load_pid" hackbench >/dev/null; do sleep 0.01; done
}
stop_hackbench() {
	kill -- "-$load_pid" 2>/dev/null || true
	wait "$load_pid" 2>/dev/null || true
	load_pid=
}
trap 'rm -rf "$bench_tmp"; [[ -z $load_pid ]] || kill -- "-$load_pid" 2>/dev/null' EXIT

# cyclictest -v prints "thread: cycle: latency" per wake-up, in ns with -N.
ref_cyclictest() {
	pinned cyclictest -S -d 0 -i 1000 -l "$loops" -N -v -q --default-system "$@" 2>/dev/null |
		python3 -c '
import math, statistics, sys
v = sorted(int(line.split(":")[2]) for line in sys.stdin if line.count(":") == 2)
def pct(p):
    return v[max(1, math.ceil(p / 100 * len(v) - 1e-9)) - 1]
print(statistics.mean(v) / 1000, pct(50) / 1000, pct(99) / 1000, v[-1] / 1000)'
}

ref_case1() { ref_cyclictest -p 95; }
ours_case1() { ours cyclictest "$metrics" policy=fifo priority=95 interval=1000 loops="$loops"; }
ref_case2() {
	start_hackbench
	ref_cyclictest -p 95
	stop_hackbench
}
ours_case2() {
	ours cyclictest "$metrics" policy=fifo priority=95 interval=1000 loops="$loops" \
		load=messaging "load_params=groups=2 loops=1000"
}
ref_case3() {
	start_hackbench
	ref_cyclictest --policy=other
	stop_hackbench
}
ours_case3() {
	ours cyclictest "$metrics" policy=other interval=1000 loops="$loops" \
		load=messaging "load_params=groups=2 loops=1000"
}

labels=("" "policy=fifo priority=95" "policy=fifo priority=95 load=messaging"
	"policy=other load=messaging")
refs=("" "-p 95" "-p 95, hackbench -g 2 -l 1000 beside" "--policy=other, hackbench beside")
for c in ${CASES:-1 2 3}; do
	if ! [[ $c =~ ^[1-3]$ ]]; then
		echo "fidelity-cyclictest: CASES: no case '$c' (give numbers from 1 to 3)" >&2
		exit 2
	fi
	pairs "cyclictest ${labels[c]}" "ref_case$c" "ours_case$c" \
		--ref "cyclictest -S ${refs[c]}" latency_avg:lower latency_p50:lower \
		latency_p99:lower latency_max:lower --gate latency_avg,latency_p50
done
bench_report
