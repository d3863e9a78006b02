#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity.sh: compare schedperf's pipe and messaging workloads with the
# tools they reimplement, `perf bench sched pipe` and `perf bench sched
# messaging`, on this machine: interleaved pairs, both sides pinned alike,
# the median cost ratio ours/perf with its 95 % bootstrap interval, pairs
# added until the interval is within +-5 % (bench/lib.sh says how).
#
#   pipe -l 200000                usecs/op (perf's own figure), on the CPUs and on one
#   messaging -g 10 -l 100        seconds, sockets, processes
#   messaging -g 10 -l 100 -p -t  seconds, pipes, threads
#
# perf prints the messaging time truncated to the millisecond; we add half
# a millisecond to it, the middle of what it can have been.
#
# The other references are compared by bench/fidelity-sync.sh (perf bench
# futex, sysbench), bench/fidelity-proc.sh (rt-tests' hackbench) and
# bench/fidelity-schbench.sh; bench/fidelity-all.sh runs all four scripts
# in a bounded time and prints one table.
#
# usage: bench/fidelity.sh [SCHEDPERF]   (default ./build/schedperf)
# Environment: PAIRS, MAX_PAIRS, CASE_SECONDS, TARGET, BAND, SUMMARY, CPUS,
# RUN_OPTS (bench/lib.sh).
# Builds nothing. Exit: 0 done, 2 usage, 3 perf bench or schedperf missing.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity "${1:-./build/schedperf}"
if ! perf bench sched pipe -l 1 >/dev/null 2>&1; then
	echo "fidelity: 'perf bench' is not available (install linux-perf, or check perf_event_paranoid is not the problem)" >&2
	exit 3
fi

ref_pipe() { pinned perf bench sched pipe -l 200000 | awk '/usecs\/op/ { print $1 }'; }
ours_pipe() { ours pipe usec_per_op loops=200000 mode=process; }
# Both tasks on one CPU: no cross-CPU wakeup, whose latency on a virtual
# machine's idle CPUs varies several times from run to run, so the ratio is
# the cost of the round trip itself.
ref_pipe_one() { local CPUS=${CPUS%%[,-]*}; ref_pipe; }
ours_pipe_one() { local CPUS=${CPUS%%[,-]*}; ours_pipe; }

perf_messaging() {
	pinned perf bench sched messaging "$@" | awk '/Total time:/ { printf "%.4f\n", $3 + 0.0005 }'
}
ref_msg_socket() { perf_messaging -g 10 -l 100; }
ours_msg_socket() { ours messaging seconds groups=10 loops=100 ipc=socket mode=process; }
ref_msg_pipe_thread() { perf_messaging -g 10 -l 100 -p -t; }
ours_msg_pipe_thread() { ours messaging seconds groups=10 loops=100 ipc=pipe mode=thread; }

pairs "pipe loops=200000" ref_pipe ours_pipe --ref "perf bench sched pipe -l 200000" \
	usec_per_op:lower
pairs "pipe loops=200000, one CPU" ref_pipe_one ours_pipe_one \
	--ref "perf bench sched pipe -l 200000 (taskset one CPU)" usec_per_op:lower
pairs "messaging socket process" ref_msg_socket ours_msg_socket \
	--ref "perf bench sched messaging -g 10 -l 100" seconds:lower
pairs "messaging pipe thread" ref_msg_pipe_thread ours_msg_pipe_thread \
	--ref "perf bench sched messaging -g 10 -l 100 -p -t" seconds:lower
bench_report

