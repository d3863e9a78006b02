#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-sync.sh: compare schedperf's synchronisation workloads with their
# reference tools on this machine: interleaved pairs, both sides pinned
# alike, the median cost ratio ours/reference with its 95 % bootstrap
# interval (bench/lib.sh; 1.00 = same cost, above 1 = schedperf measures
# more cost: more time, or less throughput).
#
#   futex-wake  perf bench futex wake -t N -w 1     ms to wake all, the median of
#               the 10 repetitions on both sides (perf's first repetition is
#               cold, 2-3x the others, and would decide a mean by itself)
#   futex-hash  perf bench futex hash -t N -r R     per-thread ops/s
#   threads     sysbench threads --threads=T --time=R   events/s, three ways:
#               T=1; T=2 with both sides on one CPU; T=N on every CPU. With
#               several threads on several CPUs the rate depends on whether
#               the kernel happens to place two yielding threads on one CPU
#               (each yield then switches) or not (a yield returns at once):
#               runs of either tool fall in two modes several times apart,
#               so that case's interval says how often each side landed in
#               which mode, and the one-CPU case measures the yield path
#   mutex       sysbench mutex --threads=N          total time, s
#   poundtime   MMTests' pound_* programs are not packaged: not compared here
#
# N is the number of CPUs, R is RUNTIME seconds (default 3).
#
# usage: bench/fidelity-sync.sh [SCHEDPERF]
#        WORKLOADS="futex-wake mutex" bench/fidelity-sync.sh ...   (a subset)
# Environment: RUNTIME, WORKLOADS, and PAIRS, MAX_PAIRS, CASE_SECONDS,
# TARGET, BAND, SUMMARY, CPUS, RUN_OPTS as bench/lib.sh says.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity-sync "${1:-./build/schedperf}"
for tool in perf sysbench; do
	command -v "$tool" >/dev/null ||
		{ echo "fidelity-sync: $tool not found (apt-get install linux-perf sysbench)" >&2; exit 3; }
done
n=$(nproc)
runtime=${RUNTIME:-3}
one_cpu=$(taskset -pc $$ | sed 's/.*: //; s/[,-].*//')

ref_futex_wake() {
	pinned perf bench futex wake -t "$n" -w 1 |
		awk '/^\[Run [0-9]+\]: Wokeup/ { for (i = 1; i <= NF; i++) if ($i == "ms") print $(i - 1) }' |
		python3 -c 'import statistics, sys; print(statistics.median(float(x) for x in sys.stdin))'
}
ours_futex_wake() { ours futex-wake wake_ms threads="$n" nwakes=1 repeat=10; }

ref_futex_hash() { pinned perf bench futex hash -t "$n" -r "$runtime" | awk '/^Averaged/ { print $2 }'; }
ours_futex_hash() { ours futex-hash ops_per_sec threads="$n" runtime="$runtime"; }

# sysbench's events/s: total events over total time.
sysbench_threads() {
	pinned sysbench threads --threads="$1" --time="$runtime" run | awk '
		/total time:/ { t = $3; sub("s", "", t) }
		/total number of events:/ { e = $5 }
		END { printf "%.6f\n", e / t }'
}
ref_threads_1() { sysbench_threads 1; }
ours_threads_1() { ours threads events_per_sec threads=1 runtime="$runtime"; }
ref_threads_2() { sysbench_threads 2; }
ours_threads_2() { ours threads events_per_sec threads=2 runtime="$runtime"; }
ref_threads_n() { sysbench_threads "$n"; }
ours_threads_n() { ours threads events_per_sec threads="$n" runtime="$runtime"; }

ref_mutex() {
	pinned sysbench mutex --threads="$n" run | awk '/total time:/ { t = $3; sub("s", "", t); print t }'
}
ours_mutex() { ours mutex seconds threads="$n"; }

wanted() {
	case " ${WORKLOADS:-$1} " in *" $1 "*) return 0 ;; esac
	return 1
}

if wanted futex-wake; then
	pairs "futex-wake threads=$n" ref_futex_wake ours_futex_wake \
		--ref "perf bench futex wake -t $n -w 1" wake_ms:lower
fi
if wanted futex-hash; then
	pairs "futex-hash threads=$n" ref_futex_hash ours_futex_hash \
		--ref "perf bench futex hash -t $n -r $runtime" ops_per_sec:higher
fi
if wanted threads; then
	pairs "threads threads=1" ref_threads_1 ours_threads_1 \
		--ref "sysbench threads --threads=1" events_per_sec:higher
	CPUS=$one_cpu pairs "threads threads=2, CPU $one_cpu" ref_threads_2 ours_threads_2 \
		--ref "sysbench threads --threads=2" events_per_sec:higher
	pairs "threads threads=$n, every CPU" ref_threads_n ours_threads_n \
		--ref "sysbench threads --threads=$n" events_per_sec:higher
fi
if wanted mutex; then
	pairs "mutex threads=$n" ref_mutex ours_mutex --ref "sysbench mutex --threads=$n" seconds:lower
fi
bench_report
