#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# How do compare, import, export, detect and history cost as a grid grows,
# and what does compare cost against benchstat on the same samples? At
# each scale S of SCALES (default "1 10"; "1 10 100" for the whole table,
# which takes an hour or more on two CPUs and some 3 GB of disk):
#
#   compare-json, compare-text  `compare run0 run1 run2` (--format json, and
#                  the default text) of 1,000 x S benchmarks x 3 runs x 50
#                  samples; benchstat on the same samples (bench/scale_data.py
#                  writes both tools' input from one draw)
#   import, export that file into a new store, and out of it
#   detect, history  `detect --format json` and `history --format json` over
#                  1,000 x S series of 100 points (3 samples a point)
#
# Each is timed REPS times (default 5) by /usr/bin/time, as CPU seconds (user
# + system: the steadier figure on a shared machine) beside wall time and
# peak memory; the works of a repetition run one after the other in an order
# that rotates from one repetition to the next, so that none is always first
# on a cold or busy machine. bench/scale_report.py prints the table: medians,
# compare's cost against benchstat's (paired by repetition) with a 95 %
# interval, samples a second, and each work's growth from the smallest scale
# with its interval beside the growth of its samples (linear cost grows as
# they do).
#
# benchstat: $BENCHSTAT, else `benchstat` on PATH, else compare runs alone and
# the table has no benchstat column. Nothing is fetched at run time:
# bench/build-benchstat.sh builds it from local checkouts with Debian's Go.
#
# WORKS (default all of them: "compare-json compare-text import export detect
# history") chooses what is timed: importing the series of detect and history
# at 10x is most of the default's time.
#
# With several SCHEDPERF binaries (an older build first, say), each work is
# timed with each, interleaved, on the same stores (the first builds them),
# and the table adds each one's cost against the first's.
#
# usage: [SCALES="1 10"] [REPS=5] [WORKS="..."] [BENCHSTAT=PATH] bench/scale.sh [SCHEDPERF...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sps=("$@")
((${#sps[@]})) || sps=(build/schedperf)
read -r -a scales <<<"${SCALES:-1 10}"
reps=${REPS:-5}
benchstat=${BENCHSTAT:-$(command -v benchstat || true)}
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

for i in "${!sps[@]}"; do
	if [[ ! -x ${sps[i]} ]]; then
		echo "scale.sh: schedperf binary '${sps[i]}' not found (run make, or pass its path)" >&2
		exit 3
	fi
	sps[i]=$(cd "$(dirname "${sps[i]}")" && pwd)/$(basename "${sps[i]}")
done
sp=${sps[0]}
if [[ ! -x /usr/bin/time ]]; then
	echo "scale.sh: /usr/bin/time not found (apt-get install time)" >&2
	exit 3
fi
if ! [[ $reps =~ ^[0-9]+$ ]] || ((reps < 2)); then
	echo "scale.sh: REPS=$reps: give a whole number of at least 2" >&2
	exit 2
fi
for s in "${scales[@]}"; do
	if ! [[ $s =~ ^[0-9]+$ ]] || ((s < 1)); then
		echo "scale.sh: SCALES=\"${scales[*]}\": give whole numbers of at least 1" >&2
		exit 2
	fi
done
if [[ -n $benchstat && ! -x $benchstat ]]; then
	echo "scale.sh: BENCHSTAT=$benchstat is not an executable" >&2
	exit 3
fi
dir=$(mktemp -d "${TMPDIR:-/tmp}/scale.XXXXXX")
trap 'rm -rf "$dir"' EXIT
: >"$dir/times"

# timed WORK SCALE REP TOOL SAMPLES COMMAND...: one measurement, its output
# thrown away, appended to $dir/times.
timed() {
	local work=$1 scale=$2 rep=$3 tool=$4 n=$5 u s e m
	shift 5
	if ! /usr/bin/time -f '%U %S %e %M' -o "$dir/time" "$@" >/dev/null 2>"$dir/err"; then
		echo "scale.sh: $work at ${scale}x failed: $(tail -1 "$dir/err")" >&2
		exit 4
	fi
	read -r u s e m <"$dir/time"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$work" "$scale" "$rep" "$tool" "$n" \
		"$(echo "$u + $s" | bc)" "$e" "$m" >>"$dir/times"
}

# work NAME SCALE REP [K]: one of the works above at one scale, with the
# K-th schedperf binary (from 1; its tool is "schedperf" when there is one).
work() {
	local s=$2 rep=$3 d=$dir/$2 k=${4:-1} x tool=schedperf
	local n_compare=$((1000 * s * 3 * 50)) n_series=$((1000 * s * 100 * 3))
	x=${sps[k - 1]}
	((${#sps[@]} == 1)) || tool=schedperf$k
	case $1 in
	compare-json) timed "$1" "$s" "$rep" "$tool" $n_compare \
		"$x" --db "$d/compare.db" compare run0 run1 run2 --format json ;;
	compare-text) timed "$1" "$s" "$rep" "$tool" $n_compare \
		"$x" --db "$d/compare.db" compare run0 run1 run2 ;;
	benchstat) timed compare "$s" "$rep" benchstat $n_compare \
		"$benchstat" run0="$d/run0.txt" run1="$d/run1.txt" run2="$d/run2.txt" ;;
	import) rm -f "$d/import.db"*
		timed "$1" "$s" "$rep" "$tool" $n_compare \
			"$x" --db "$d/import.db" import "$d/compare.json" ;;
	export) timed "$1" "$s" "$rep" "$tool" $n_compare \
		"$x" --db "$d/compare.db" export run0 run1 run2 ;;
	detect) timed "$1" "$s" "$rep" "$tool" $n_series \
		"$x" --db "$d/series.db" detect --format json ;;
	history) timed "$1" "$s" "$rep" "$tool" $n_series \
		"$x" --db "$d/series.db" history --format json ;;
	esac
}

read -r -a works <<<"${WORKS:-compare-json compare-text import export detect history}"
for w in "${works[@]}"; do
	case $w in
	compare-json | compare-text | import | export | detect | history) ;;
	*) echo "scale.sh: WORKS: '$w' is none of compare-json compare-text import export" \
		"detect history" >&2
	   exit 2 ;;
	esac
done
wants() {	# wants WORK...: one of them is timed
	local w v
	for w in "${works[@]}"; do
		for v in "$@"; do [[ $w == "$v" ]] && return 0; done
	done
	return 1
}
[[ -n $benchstat ]] && wants compare-json compare-text && works+=(benchstat)
echo "# $(uname -r), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ); load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!sps[@]}"; do
	echo "# schedperf$( ((${#sps[@]} == 1)) || echo $((i + 1))): ${sps[i]}"
done
echo "# benchstat: ${benchstat:-not found: compare runs alone (BENCHSTAT=PATH, see \
bench/build-benchstat.sh)}"
for s in "${scales[@]}"; do
	mkdir -p "$dir/$s"
	echo "# ${s}x: generating and importing the samples" >&2
	"$PYTHON" "$here/scale_data.py" compare "$dir/$s" $((1000 * s)) 3 50
	if wants compare-json compare-text export; then
		"$sp" --db "$dir/$s/compare.db" import "$dir/$s/compare.json" >/dev/null
	fi
	if wants detect history; then
		"$PYTHON" "$here/scale_data.py" series "$dir/$s" $((1000 * s)) 100
		"$sp" --db "$dir/$s/series.db" import "$dir/$s/series.json" >/dev/null
		rm "$dir/$s/series.json"
	fi
done
for ((rep = 1; rep <= reps; rep++)); do
	echo "# repetition $rep of $reps" >&2
	for s in "${scales[@]}"; do
		for ((i = 0; i < ${#works[@]}; i++)); do
			w=${works[(i + rep + s) % ${#works[@]}]}
			if [[ $w == benchstat ]]; then
				work "$w" "$s" "$rep"
				continue
			fi
			for ((k = 0; k < ${#sps[@]}; k++)); do
				work "$w" "$s" "$rep" $(((k + rep) % ${#sps[@]} + 1))
			done
		done
	done
done
"$PYTHON" "$here/scale_report.py" "$dir/times"
