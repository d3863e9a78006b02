#!/usr/bin/env bash
# How often does a bisection find the right commit, and at what cost? N
# bisections on this machine of a regression of SIZE percent planted at a
# random one of COMMITS commits, each commit a program of its own cost with
# noise of its own (bench/noisy_work.c: a loop whose length is set by the
# commit, times lognormal noise of SIGMA), timed by the command workload.
#
#   MODE=bisect   schedperf bisect --good FIRST --bad LAST --build ...
#   MODE=step     as a user of git bisect run: runs good and bad of 15
#                 iterations stored first (a minute apart, as a user would),
#                 then git bisect run with bisect-step --good good --bad bad
#   MODE=none     schedperf bisect on a range without a regression: how
#                 often it says "nothing to bisect"
#
# Prints one line per bisection (right or wrong, skips, seconds) and a
# summary: the share that found the right commit (or, MODE=none, said
# nothing to bisect), skips per bisection, median seconds.
#
# usage: bench/bisect-power.sh [SCHEDPERF]
# environment: N (10), SIZE (20), COMMITS (8), MODE (bisect), SIGMA (0.05),
#   MS (3: the good program's run time in ms, calibrated here), ALPHA
#   (bisect's default, or bisect-step's with MODE=step), MAX_SAMPLES
#   (the default; a small regression under this much noise needs more)
set -euo pipefail
sp=$(realpath "${1:-./build/schedperf}")
n=${N:-10}
size=${SIZE:-20}
commits=${COMMITS:-8}
mode=${MODE:-bisect}
sigma=${SIGMA:-0.05}
ms=${MS:-3}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
alpha=()
[ -z "${ALPHA:-}" ] || alpha=(--alpha "$ALPHA")
[ -z "${MAX_SAMPLES:-}" ] || alpha+=(--max-samples "$MAX_SAMPLES")

# median_ns PROGRAM: its median time over 21 runs as the command workload
# measures it (from spawn to reap), in nanoseconds.
median_ns() {
	local run=calib$RANDOM
	SCHEDPERF_DB=$tmp/calib.db "$sp" run command -p "cmd=$1" -i 21 --no-monitors -q \
		--name "$run"
	SCHEDPERF_DB=$tmp/calib.db "$sp" export "$run" | /usr/bin/python3 -c 'import json, sys
d = json.load(sys.stdin)
m = [m for m in d["runs"][0]["benchmarks"][0]["metrics"] if m["name"] == "seconds"][0]
v = sorted(m["samples"])
print(int(v[len(v) // 2] * 1e9))'
}

# The good program takes MS milliseconds a run as the command workload
# times it (start to reap), the bad one SIZE % more: the loop's cost per
# WORK unit from a long run, the rest (fork, exec, /dev/urandom) from an
# empty one.
cc -O1 -DWORK=20000 -DSIGMA=0 -o "$tmp/long" "$here/bench/noisy_work.c" -lm
cc -O1 -DWORK=0 -DSIGMA=0 -o "$tmp/empty" "$here/bench/noisy_work.c" -lm
unit_ns=$(awk -v t="$(median_ns "$tmp/long")" 'BEGIN { print t / 20000 }')
overhead_ns=$(median_ns "$tmp/empty")
work=$(awk -v ms="$ms" -v o="$overhead_ns" -v u="$unit_ns" \
	'BEGIN { w = (ms * 1e6 - o) / u; printf "%d", (w > 1 ? w : 1) }')
bad_work=$(awk -v w="$work" -v ms="$ms" -v s="$size" -v u="$unit_ns" \
	'BEGIN { printf "%d", w + s / 100 * ms * 1e6 / u }')
echo "# $mode: $n bisections, $size % in $commits commits, sigma $sigma of the loop," \
	"WORK $work and $bad_work (~$ms ms a run, $((overhead_ns / 1000)) us of it to start)"

# make_repo DIR CULPRIT: COMMITS commits, WORK from commit CULPRIT on SIZE % more.
make_repo() {
	git init -q "$1"
	git -C "$1" config user.email bench@example.com
	git -C "$1" config user.name bench
	for i in $(seq 1 "$commits"); do
		w=$work
		[ "$i" -lt "$2" ] || w=$bad_work
		sed -e "s/^#define WORK 1000$/#define WORK $w/" -e "s/^#define SIGMA 0.05$/#define SIGMA $sigma/" \
			"$here/bench/noisy_work.c" >"$1/prog.c"
		echo "/* change $i */" >>"$1/prog.c"
		git -C "$1" add prog.c
		git -C "$1" commit -q -m "change $i"
	done
}

right=0
skips=0
: >"$tmp/seconds"
for b in $(seq 1 "$n"); do
	repo=$tmp/repo-$b
	culprit=$((RANDOM % (commits - 1) + 2))
	[ "$mode" != none ] || culprit=$((commits + 1))
	make_repo "$repo" "$culprit"
	want=$(git -C "$repo" log --format=%H --grep="^change $culprit\$")
	export SCHEDPERF_DB=$tmp/store-$b.db
	start=$(date +%s.%N)
	case $mode in
	bisect | none)
		out=$("$sp" bisect command -p cmd=./prog --build 'cc -O1 -o prog prog.c -lm' \
			--repo "$repo" --good HEAD~$((commits - 1)) --bad HEAD "${alpha[@]}" \
			--format json 2>/dev/null) || true
		got=$(echo "$out" | /usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin)
print("|".join([d.get("result", ""), (d.get("culprit") or {}).get("commit", "-"),
      str(sum(s["verdict"] == "skip" for s in d.get("steps", [])))]))' 2>/dev/null) ||
			got="error|-|0"
		IFS='|' read -r result commit s <<<"$got"
		;;
	step)
		cd "$repo"
		git checkout -q HEAD~$((commits - 1))
		cc -O1 -o prog prog.c -lm
		"$sp" run command -p cmd=./prog -i 15 --name good --quiet
		git checkout -q -
		cc -O1 -o prog prog.c -lm
		"$sp" run command -p cmd=./prog -i 15 --name bad --quiet
		git bisect start HEAD HEAD~$((commits - 1)) >/dev/null
		log=$(git bisect run sh -c 'cc -O1 -o prog prog.c -lm || exit 125
			exec "$0" bisect-step command -p cmd=./prog --good good --bad bad "$@"' \
			"$sp" "${alpha[@]}" 2>&1) || true
		commit=$(echo "$log" | sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p')
		s=$(echo "$log" | grep -c ': skip (' || true)
		result=$([ -n "$commit" ] && echo found || echo "no culprit")
		git bisect reset -q 2>/dev/null || git bisect reset >/dev/null 2>&1
		cd "$here"
		;;
	esac
	secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
	echo "$secs" >>"$tmp/seconds"
	skips=$((skips + s))
	if [ "$mode" = none ]; then
		ok=$([ "$result" = "nothing to bisect" ] && echo right || echo wrong)
	else
		ok=$([ "$commit" = "$want" ] && echo right || echo wrong)
	fi
	[ "$ok" = wrong ] || right=$((right + 1))
	echo "bisection $b: culprit at change $culprit: $ok ($result), $s skips, $secs s"
done
median=$(sort -n "$tmp/seconds" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
echo "$mode: $right of $n right; $skips skips in all ($(awk -v s="$skips" -v n="$n" 'BEGIN { printf "%.2f", s / n }') per bisection); median $median s"
