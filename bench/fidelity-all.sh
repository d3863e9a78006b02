#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-all.sh: every comparison of a schedperf workload with its
# reference tool, in one bounded run with one table at the end: workload,
# reference, median cost ratio ours/reference with its 95 % bootstrap
# interval, and a verdict ("within" 1 +- BAND, "outside", or "wide" when
# the pairs could not narrow the interval to +-TARGET).
#
# It runs bench/fidelity.sh (perf bench sched), bench/fidelity-sync.sh
# (perf bench futex, sysbench), bench/fidelity-proc.sh (hackbench),
# bench/fidelity-cyclictest.sh (rt-tests), bench/fidelity-net.sh (tbench,
# iperf3), bench/fidelity-fairness.sh (stress-ng in cgroups and at nice
# levels) and, given SCHBENCH, bench/fidelity-schbench.sh, with a budget per case: at
# least PAIRS pairs, then more until the interval is narrow, MAX_PAIRS, or
# CASE_SECONDS spent. Each case takes at most CASE_SECONDS plus one pair:
# with the defaults below the 15 cases before cyclictest, tcp-rr and
# fairness took 15 to 25 minutes on a 2-CPU machine; their 9 cases add at
# most 9 x (60 s + a pair of 3 to 6 s runs).
#
# usage: SCHBENCH=/path/to/schbench bench/fidelity-all.sh [SCHEDPERF]
#   SCHBENCH   a schbench binary built from its sources (there is no
#              package: git clone https://github.com/masoncl/schbench &&
#              make -C schbench CFLAGS='-Wall -O2 -g -W -falign-loops=64', as
#              bench/fidelity-schbench.sh says why); without it the schbench
#              cases are skipped
# Environment (defaults for this script): PAIRS=6, MAX_PAIRS=30,
# CASE_SECONDS=60, RUNTIME=3 (seconds per run of the sync and schbench
# cases); TARGET, BAND, CPUS, RUN_OPTS as bench/lib.sh says.
# Needs linux-perf, sysbench, rt-tests, dbench, iperf3 and stress-ng
# (scripts/install-deps.sh installs them); the cgroup case of
# fidelity-fairness.sh needs root and the cpu controller. Exit: 0 every script ran, 1 one of them failed (its output says
# why), 2 usage, 3 schedperf missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sp=${1:-./build/schedperf}
if [[ ! -x $sp ]]; then
	echo "fidelity-all: schedperf binary '$sp' not found or not executable (run make, or pass its path)" >&2
	exit 3
fi
sp=$(cd "$(dirname "$sp")" && pwd)/$(basename "$sp")
export PAIRS=${PAIRS:-6} MAX_PAIRS=${MAX_PAIRS:-30} CASE_SECONDS=${CASE_SECONDS:-60}
export RUNTIME=${RUNTIME:-3}
SUMMARY=$(mktemp "${TMPDIR:-/tmp}/fidelity-all.XXXXXX")
export SUMMARY
trap 'rm -f "$SUMMARY"' EXIT

failed=()
run() {
	local rc

	echo "=== $*"
	"$@"
	rc=$?
	((rc == 0)) || failed+=("$(basename "$1") (exit $rc)")
	echo
}

began=$SECONDS
run "$here/fidelity.sh" "$sp"
run "$here/fidelity-sync.sh" "$sp"
run "$here/fidelity-proc.sh" "$sp"
run "$here/fidelity-cyclictest.sh" "$sp"
run "$here/fidelity-net.sh" "$sp"
run "$here/fidelity-fairness.sh" "$sp"
if [[ -n ${SCHBENCH:-} ]]; then
	run "$here/fidelity-schbench.sh" "$SCHBENCH" "$sp"
else
	echo "=== schbench: not compared (give SCHBENCH=path of a schbench binary built from its sources)"
	echo
fi

# shellcheck source=bench/lib.sh
. "$here/lib.sh"
CPUS=${CPUS:-$(taskset -pc $$ | sed 's/.*: //')}
echo "=== every case, $(((SECONDS - began) / 60)) min $(((SECONDS - began) % 60)) s;" \
	"PAIRS=$PAIRS MAX_PAIRS=$MAX_PAIRS CASE_SECONDS=$CASE_SECONDS RUNTIME=$RUNTIME;" \
	"load average $(cut -d' ' -f1-3 /proc/loadavg)"
bench_summary=$SUMMARY
bench_report
if ((${#failed[@]})); then
	echo "fidelity-all: these scripts failed, their cases are missing above: ${failed[*]}" >&2
	exit 1
fi
