# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# bench/lib.sh: what the fidelity scripts share, sourced by them.
#
# A comparison is a series of pairs: one run of schedperf's workload and
# one of its reference tool, the order alternating so that neither side
# always runs second on a warmer or busier machine, both sides pinned the
# same way with taskset. After PAIRS pairs it asks bench/ratio_ci.py for
# the median cost ratio and its 95 % bootstrap interval and keeps adding
# pairs until the interval is within +-TARGET of the median or MAX_PAIRS is
# reached; then it prints the ratio and says "wide" when the machine did
# not allow the target, else "within" or "outside" as the median ratio is
# within 1 +- BAND or not.
#
# Environment (all scripts):
#   PAIRS      pairs before the first look at the interval (default 10)
#   MAX_PAIRS  most pairs per case (default 3 x PAIRS)
#   CASE_SECONDS  no pair is added past PAIRS once a case has run this long
#              (default 0: no limit); what bounds bench/fidelity-all.sh
#   TARGET     wanted half-width of the interval, relative (default 0.05)
#   BAND       a median ratio within 1 +- BAND is "within" (default 0.05)
#   SUMMARY    a file every case's line is also appended to (default none):
#              how bench/fidelity-all.sh gathers one table from several scripts
#   CPUS       CPU list both sides run on, taskset -c syntax (default: every
#              CPU this shell may use)
#   RUN_OPTS   extra options for 'schedperf run', e.g. --no-monitors

PAIRS=${PAIRS:-10}
MAX_PAIRS=${MAX_PAIRS:-$((3 * PAIRS))}
TARGET=${TARGET:-0.05}
BAND=${BAND:-0.05}
CASE_SECONDS=${CASE_SECONDS:-0}
bench_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
read -r -a bench_run_opts <<<"${RUN_OPTS:-}"

# bench_setup NAME SCHEDPERF: check the tools, make a scratch directory.
bench_setup() {
	bench_name=$1
	bench_sp=$2
	if [[ ! -x $bench_sp ]]; then
		echo "$bench_name: schedperf binary '$bench_sp' not found or not executable (run make, or pass its path)" >&2
		exit 3
	fi
	for tool in python3 taskset; do
		command -v "$tool" >/dev/null ||
			{ echo "$bench_name: $tool not found (apt-get install python3 util-linux)" >&2; exit 3; }
	done
	if ! [[ $PAIRS =~ ^[0-9]+$ && $MAX_PAIRS =~ ^[0-9]+$ ]] || ((PAIRS < 2 || MAX_PAIRS < PAIRS)); then
		echo "$bench_name: PAIRS=$PAIRS MAX_PAIRS=$MAX_PAIRS: give whole numbers, 2 <= PAIRS <= MAX_PAIRS" >&2
		exit 2
	fi
	if ! [[ $CASE_SECONDS =~ ^[0-9]+$ ]]; then
		echo "$bench_name: CASE_SECONDS=$CASE_SECONDS: give a whole number of seconds (0: no limit)" >&2
		exit 2
	fi
	CPUS=${CPUS:-$(taskset -pc $$ | sed 's/.*: //')}
	bench_tmp=$(mktemp -d "${TMPDIR:-/tmp}/$bench_name.XXXXXX")
	trap 'rm -rf "$bench_tmp"' EXIT
	bench_runs=0
	bench_summary=$bench_tmp/summary
	: >"$bench_summary"
}

# pinned CMD...: run CMD on $CPUS.
pinned() {
	taskset -c "$CPUS" "$@"
}

# ours WORKLOAD "METRIC..." K=V...: one iteration of WORKLOAD, pinned; prints
# the median of each metric's samples (a workload that repeats inside an
# iteration, futex-wake, stores one sample per repetition), space separated.
ours() {
	local workload=$1 metrics=$2 params=() kv name
	shift 2
	for kv in "$@"; do params+=(-p "$kv"); done
	bench_runs=$((bench_runs + 1))
	name=pair-$bench_runs
	pinned "$bench_sp" run "$workload" "${params[@]}" ${bench_run_opts[@]+"${bench_run_opts[@]}"} \
		-i 1 --db "$bench_tmp/db" --name "$name" --quiet >/dev/null
	"$bench_sp" export "$name" --db "$bench_tmp/db" | python3 -c '
import json, statistics, sys
bench = json.load(sys.stdin)["runs"][-1]["benchmarks"][-1]
samples = {m["name"]: m["samples"] for m in bench["metrics"]}
print(" ".join(repr(statistics.median(samples[name])) for name in sys.argv[1].split()))
' "$metrics"
}

# pairs LABEL REF_FUNCTION OURS_FUNCTION [--ref TEXT] METRIC:lower|higher...
#       [--gate LIST]
# LABEL names our side (workload and parameters), --ref the reference tool
# and its flags. The functions print one value per metric, in order. Pairs
# are printed as they come; the case's ratios are added to the summary.
pairs() {
	local label=$1 ref_fn=$2 ours_fn=$3 ref="" out i o r specs=() gate="" began=$SECONDS
	shift 3
	while (($#)); do
		case $1 in
		--gate) gate=$2; shift 2; continue ;;
		--ref) ref=$2; shift 2; continue ;;
		esac
		specs+=(--metric "$1")
		shift
	done
	[[ -n $gate ]] && specs+=(--gate "$gate")
	out=$bench_tmp/pairs.$((++bench_cases))
	: >"$out"
	echo "$label vs ${ref:-reference}: pinned to CPUs $CPUS, $PAIRS to $MAX_PAIRS pairs"
	for ((i = 1; i <= MAX_PAIRS; i++)); do
		if ((i % 2)); then
			r=$($ref_fn)
			o=$($ours_fn)
		else
			o=$($ours_fn)
			r=$($ref_fn)
		fi
		if [[ -z $o || -z $r ]]; then
			echo "$bench_name: $label: a run gave no number (ours '$o', reference '$r')" >&2
			exit 4
		fi
		echo "$o $r" >>"$out"
		printf '  pair %2d: ours %s  reference %s\n' "$i" "$o" "$r"
		((i >= PAIRS)) || continue
		if python3 "$bench_dir/ratio_ci.py" "$out" --check --target "$TARGET" "${specs[@]}"; then
			break
		fi
		if ((i < MAX_PAIRS && CASE_SECONDS > 0 && SECONDS - began >= CASE_SECONDS)); then
			echo "  $CASE_SECONDS s spent on this case: no more pairs"
			break
		fi
	done
	python3 "$bench_dir/ratio_ci.py" "$out" --label "$label" --ref "$ref" --target "$TARGET" \
		--band "$BAND" "${specs[@]}" | tee -a "$bench_summary" ${SUMMARY:+"$SUMMARY"}
	echo
}

# bench_report: every case's lines under one header.
bench_report() {
	echo "# $(uname -r), $(nproc) CPUs, both sides on CPUs $CPUS; cost ratio ours/reference"
	echo "# (1.00 = same cost), median of the pairs with its 95 % bootstrap interval;"
	echo "# verdict \"wide\": the interval is beyond +-$TARGET of the median (or there are"
	echo "# fewer than 5 pairs) after the pairs the machine allowed (raise MAX_PAIRS or"
	echo "# CASE_SECONDS, or run on a quieter machine); else"
	echo "# \"within\" or \"outside\" as the median is within 1 +- $BAND or not"
	python3 "$bench_dir/ratio_ci.py" --header
	cat "$bench_summary"
}
bench_cases=0
