#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity.sh: compare schedperf's pipe and messaging workloads with the
# tools they reimplement, `perf bench sched pipe` and `perf bench sched
# messaging`, on this machine: interleaved pairs, both sides pinned alike,
# the median cost ratio ours/perf with its 95 % bootstrap interval, pairs
# added until the interval is within +-5 % (bench/lib.sh says how).
#
#   pipe -l 200000                usecs/op (perf's own figure)
#   messaging -g 10 -l 100        seconds, sockets, processes
#   messaging -g 10 -l 100 -p -t  seconds, pipes, threads
#
# perf prints the messaging time truncated to the millisecond; we add half
# a millisecond to it, the middle of what it can have been.
#
# Then, unless ONLY_PERF_SCHED=1, the other references installable from
# Debian: bench/fidelity-sync.sh (perf bench futex, sysbench) and
# bench/fidelity-proc.sh (rt-tests' hackbench); and with SCHBENCH=path, a
# schbench binary built from its sources, bench/fidelity-schbench.sh.
#
# usage: bench/fidelity.sh [SCHEDPERF]   (default ./build/schedperf)
# Environment: PAIRS, MAX_PAIRS, TARGET, CPUS, RUN_OPTS (bench/lib.sh).
# Builds nothing. Exit: 0 done, 2 usage, 3 perf bench or schedperf missing.
set -euo pipefail
here=$(dirname "$0")
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
bench_setup fidelity "${1:-./build/schedperf}"
if ! perf bench sched pipe -l 1 >/dev/null 2>&1; then
	echo "fidelity: 'perf bench' is not available (install linux-perf, or check perf_event_paranoid is not the problem)" >&2
	exit 3
fi

ref_pipe() { pinned perf bench sched pipe -l 200000 | awk '/usecs\/op/ { print $1 }'; }
ours_pipe() { ours pipe usec_per_op loops=200000 mode=process; }

perf_messaging() {
	pinned perf bench sched messaging "$@" | awk '/Total time:/ { printf "%.4f\n", $3 + 0.0005 }'
}
ref_msg_socket() { perf_messaging -g 10 -l 100; }
ours_msg_socket() { ours messaging seconds groups=10 loops=100 ipc=socket mode=process; }
ref_msg_pipe_thread() { perf_messaging -g 10 -l 100 -p -t; }
ours_msg_pipe_thread() { ours messaging seconds groups=10 loops=100 ipc=pipe mode=thread; }

pairs "pipe -l 200000" ref_pipe ours_pipe usec_per_op:lower
pairs "messaging -g 10 -l 100" ref_msg_socket ours_msg_socket seconds:lower
pairs "messaging -g 10 -l 100 -p -t" ref_msg_pipe_thread ours_msg_pipe_thread seconds:lower
bench_report

if [[ ${ONLY_PERF_SCHED:-0} != 1 ]]; then
	echo
	"$here/fidelity-sync.sh" "$bench_sp"
	echo
	"$here/fidelity-proc.sh" "$bench_sp"
	if [[ -n ${SCHBENCH:-} ]]; then
		echo
		"$here/fidelity-schbench.sh" "$SCHBENCH" "$bench_sp"
	fi
fi
