#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-proc.sh: compare schedperf's messaging workload with rt-tests'
# hackbench on this machine: interleaved pairs, both sides pinned alike,
# the median cost ratio ours/hackbench with its 95 % bootstrap interval
# (bench/lib.sh; 1.00 = same cost).
#
#   messaging  hackbench -g G -l L         (processes, sockets) "Time: X"
#              hackbench -g G -l L -p -T   (threads, pipes)
#   hackbench prints its time truncated to the millisecond; we add half a
#   millisecond to it, the middle of what it can have been.
#   schbench   bench/fidelity-schbench.sh, with a schbench built from its
#              sources (there is no distribution package)
#   aim9, spawn, forkspread: no installable reference (AIM9 is not packaged,
#              spawn and forkspread have none); their unit tests check them
#
# usage: bench/fidelity-proc.sh [SCHEDPERF] [GROUPS] [LOOPS]
# Environment: PAIRS, MAX_PAIRS, CASE_SECONDS, TARGET, BAND, SUMMARY, CPUS,
# RUN_OPTS (bench/lib.sh).
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity-proc "${1:-./build/schedperf}"
groups=${2:-10}
loops=${3:-100}
if ! command -v hackbench >/dev/null; then
	echo "fidelity-proc: hackbench not installed (apt-get install rt-tests): nothing compared"
	exit 0
fi

hackbench_time() {
	pinned hackbench -g "$groups" -l "$loops" "$@" | awk '/^Time:/ { printf "%.4f\n", $2 + 0.0005 }'
}
ref_process() { hackbench_time; }
ours_process() { ours messaging seconds groups="$groups" loops="$loops" ipc=socket mode=process; }
ref_thread() { hackbench_time -p -T; }
ours_thread() { ours messaging seconds groups="$groups" loops="$loops" ipc=pipe mode=thread; }

pairs "messaging socket process" ref_process ours_process \
	--ref "hackbench -g $groups -l $loops" seconds:lower
pairs "messaging pipe thread" ref_thread ours_thread \
	--ref "hackbench -g $groups -l $loops -p -T" seconds:lower
bench_report
