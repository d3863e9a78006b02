#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-fairness.sh: compare schedperf's fairness workload with the way
# LKP-style fairness jobs set the same question up by hand: stress-ng's cpu
# stressor (--cpu-method loop) in cgroups made by this script, or at nice
# levels, each group's share of the CPU time read by this script from the
# kernel's own accounting (the sum_exec_runtime of every stressor, in
# /proc/PID/schedstat) over the same window. Interleaved pairs, both
# pinned alike (bench/lib.sh); the figure compared is group 1's share (in
# percent of the CPU time both groups got), and the ratio is ref/ours.
#
# Cases (2 groups of N = CPUs busy tasks each, RUNTIME seconds of which
# the first WARMUP are not measured; defaults 6 and 1):
#   1  cgroups, weights 100:400 (v2 cpu.weight, v1 cpu.shares x 10.24)
#   2  nice levels 6 and 0 (ours: mode=nice weights=100:400 picks those)
# Case 1 needs root and the cpu controller (cgroup v2 handing it down from
# its root, or a cgroup v1 hierarchy with it), and is skipped with a line
# on stderr without them (exit 3 when CASES asks for it); the script makes
# its cgroups under the hierarchy's root and removes them on exit.
#
# usage: bench/fidelity-fairness.sh [SCHEDPERF]
# Environment: RUNTIME, WARMUP, CASES="2" (a subset); and PAIRS,
# MAX_PAIRS, CASE_SECONDS, TARGET, BAND, SUMMARY, CPUS, RUN_OPTS as
# bench/lib.sh says. Needs stress-ng. Exit: 0 done, 2 usage, 3 a tool or
# the cpu controller missing, 4 a run gave no number.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity-fairness "${1:-./build/schedperf}"
command -v stress-ng >/dev/null ||
	{ echo "fidelity-fairness: stress-ng not found (apt-get install stress-ng)" >&2; exit 3; }
runtime=${RUNTIME:-6}
warmup=${WARMUP:-1}
n=$(taskset -c "$CPUS" nproc)
cg_root='' cg_file='' cg_dirs=()
trap 'rm -rf "$bench_tmp"; for d in "${cg_dirs[@]}"; do rmdir "$d" 2>/dev/null; done' EXIT

# The cpu controller's hierarchy: v2 when its root hands cpu down, else v1.
find_cpu_controller() {
	local v2 v1
	v2=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
	if [[ -n $v2 ]] && grep -qw cpu "$v2/cgroup.subtree_control" 2>/dev/null; then
		cg_root=$v2 cg_file=cpu.weight
		return
	fi
	v1=$(awk '$9 == "cgroup" && $NF ~ /(^|,)cpu(,|$)/ { print $5; exit }' /proc/self/mountinfo)
	[[ -n $v1 ]] && cg_root=$v1 cg_file=cpu.shares
}

make_groups() {
	local parent=$cg_root/schedperf-bench-$$
	mkdir "$parent" "$parent/g1" "$parent/g2"
	cg_dirs=("$parent/g1" "$parent/g2" "$parent")
	if [[ $cg_file == cpu.weight ]]; then
		echo +cpu >"$parent/cgroup.subtree_control"
		echo 100 >"$parent/g1/cpu.weight"
		echo 400 >"$parent/g2/cpu.weight"
	else
		echo 1024 >"$parent/g1/cpu.shares"
		echo 4096 >"$parent/g2/cpu.shares"
	fi
}

# start_group I MODE: start stress-ng's group I (1 or 2) in its cgroup or
# at its nice level; prints its pid (that of stress-ng itself: each wrapper
# execs the next). Its output goes elsewhere, or $(start_group) would wait
# for it to end.
start_group() {
	local cmd=(taskset -c "$CPUS" stress-ng --cpu "$n" --cpu-method loop -t $((runtime + 5))s -q)
	if [[ $2 == cgroup ]]; then
		sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "${cg_dirs[$1 - 1]}" "${cmd[@]}" >/dev/null &
	elif (($1 == 1)); then
		nice -n 6 "${cmd[@]}" >/dev/null &
	else
		"${cmd[@]}" >/dev/null &
	fi
	echo $!
}

# ref_shares MODE: group 1's percent of the CPU time of two stress-ng
# instances (MODE cgroup or nice) over [WARMUP, RUNTIME].
ref_shares() {
	local p1 p2 b1 b2 a1 a2
	p1=$(start_group 1 "$1")
	p2=$(start_group 2 "$1")
	# every stressor started: n children of each instance
	until [[ $(pgrep -c -P "$p1" || true) -ge $n && $(pgrep -c -P "$p2" || true) -ge $n ]]; do
		sleep 0.01
	done
	sleep "$warmup"
	b1=$(cpu_of "$p1") b2=$(cpu_of "$p2")
	sleep $((runtime - warmup))
	a1=$(cpu_of "$p1") a2=$(cpu_of "$p2")
	kill "$p1" "$p2" 2>/dev/null || true
	while kill -0 "$p1" 2>/dev/null || kill -0 "$p2" 2>/dev/null; do sleep 0.01; done
	python3 -c 'import sys; a, b = (float(sys.argv[i + 1]) - float(sys.argv[i]) for i in (1, 3)); print(100 * a / (a + b))' \
		"$b1" "$a1" "$b2" "$a2"
}

# cpu_of PID: the CPU time of PID's children so far, ns.
cpu_of() {
	local sum=0 pid t
	for pid in $(pgrep -P "$1"); do
		read -r t _ <"/proc/$pid/schedstat" && sum=$((sum + t))
	done
	echo "$sum"
}

ref_case1() { ref_shares cgroup; }
ours_case1() {
	ours fairness share_1 mode=cgroup weights=100:400 runtime="$runtime" warmup="$warmup"
}
ref_case2() { ref_shares nice; }
ours_case2() {
	ours fairness share_1 mode=nice weights=100:400 runtime="$runtime" warmup="$warmup"
}

for c in ${CASES:-1 2}; do
	case $c in
	1)
		find_cpu_controller
		if [[ -z $cg_root || $(id -u) != 0 ]]; then
			echo "fidelity-fairness: case 1 needs root and the cpu controller (cgroup v2 handing it down from its root, or v1)" >&2
			# asked for alone, that is a missing resource; among others, a skip
			[[ -z ${CASES:-} ]] || exit 3
			continue
		fi
		make_groups
		pairs "fairness mode=cgroup weights=100:400" ref_case1 ours_case1 \
			--ref "stress-ng --cpu $n x 2 in cgroups ($cg_file)" share_1:higher
		;;
	2)
		pairs "fairness mode=nice weights=100:400" ref_case2 ours_case2 \
			--ref "stress-ng --cpu $n x 2 at nice 6 and 0" share_1:higher
		;;
	*)
		echo "fidelity-fairness: CASES: no case '$c' (give 1 or 2)" >&2
		exit 2
		;;
	esac
done
bench_report
