#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# How fast are the commands that read a test grid's store? Builds a store
# of RUNS runs (default 30,000: some 430 MB), each one batch of 40
# environment entries and 4 benchmarks of 22 metrics of 3 samples
# (bench/grid_data.py), by `schedperf import` of generated exports of 5,000
# runs at a time, under TMPDIR (removed at the end); then times, REPS times
# (default 3), each of WORKS (default all of them):
#
#   report   `report` of the first REPORT_RUNS runs (default 2,000) on one
#            metric of one benchmark (two charts of REPORT_RUNS runs each),
#            gnuplot's time included
#   export   `export` of the first EXPORT_RUNS runs (default 5,000)
#   history  `history --format json` over the whole store
#   show     `show --samples --env` of the middle run
#
# Output goes to /dev/null (the report's page to the scratch directory).
# Each measurement is CPU seconds (user + system of schedperf and its
# children: the steadier figure on a shared machine) beside wall seconds;
# the table gives their medians. With several SCHEDPERF binaries (an older
# build first), each work is timed with each, interleaved in an order that
# rotates from one repetition to the next, on the same store (the first
# builds it), and each one's median CPU time against the first's.
#
# usage: [RUNS=30000] [REPS=3] [WORKS="report export history show"]
#        [REPORT_RUNS=2000] [EXPORT_RUNS=5000] bench/grid-speed.sh [SCHEDPERF...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
sps=("$@")
((${#sps[@]})) || sps=(build/schedperf)
runs=${RUNS:-30000}
reps=${REPS:-3}
report_runs=${REPORT_RUNS:-2000}
export_runs=${EXPORT_RUNS:-5000}
read -r -a works <<<"${WORKS:-report export history show}"
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

for i in "${!sps[@]}"; do
	if [[ ! -x ${sps[i]} ]]; then
		echo "grid-speed.sh: schedperf binary '${sps[i]}' not found (run make, or pass its path)" >&2
		exit 3
	fi
	sps[i]=$(cd "$(dirname "${sps[i]}")" && pwd)/$(basename "${sps[i]}")
done
for v in "$runs" "$reps" "$report_runs" "$export_runs"; do
	if ! [[ $v =~ ^[0-9]+$ ]] || ((v < 1)); then
		echo "grid-speed.sh: RUNS=$runs REPS=$reps REPORT_RUNS=$report_runs" \
		     "EXPORT_RUNS=$export_runs: give whole numbers of at least 1" >&2
		exit 2
	fi
done
((report_runs <= runs)) || report_runs=$runs
((export_runs <= runs)) || export_runs=$runs
for w in "${works[@]}"; do
	case $w in
	report | export | history | show) ;;
	*) echo "grid-speed.sh: WORKS: '$w' is none of report export history show" >&2
	   exit 2 ;;
	esac
done
dir=$(mktemp -d "${TMPDIR:-/tmp}/grid-speed.XXXXXX")
trap 'rm -rf "$dir"' EXIT
db=$dir/grid.db

echo "# $(uname -r), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ);" \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
for i in "${!sps[@]}"; do
	echo "# schedperf$((i + 1)): ${sps[i]}"
done
echo "# building a store of $runs runs" >&2
for ((first = 0; first < runs; first += 5000)); do
	n=$((runs - first < 5000 ? runs - first : 5000))
	"$PYTHON" "$here/grid_data.py" "$dir/part.json" $first $n
	"${sps[0]}" --db "$db" import "$dir/part.json" >/dev/null
	rm "$dir/part.json"
done
echo "# store: $(du -m "$db" | cut -f1) MB"
names() {	# names N: the first N runs' names
	"$PYTHON" -c 'import sys; print(" ".join("g%06d" % r for r in range(int(sys.argv[1]))))' "$1"
}
read -r -a report_names <<<"$(names "$report_runs")"
read -r -a export_names <<<"$(names "$export_runs")"
middle=$(printf 'g%06d' $((runs / 2)))

: >"$dir/times"
# timed WORK K COMMAND...: one measurement of binary K, to the
# microsecond (/usr/bin/time prints hundredths: show takes a few of them)
timed() {
	local work=$1 k=$2
	shift 2
	if ! "$PYTHON" -c '
import resource, subprocess, sys, time
start = time.monotonic()
with open(sys.argv[1], "w") as err:
    code = subprocess.call(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=err)
wall = time.monotonic() - start
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f\t%.6f" % (r.ru_utime + r.ru_stime, wall))
sys.exit(code)' "$dir/err" "$@" >"$dir/time"; then
		echo "grid-speed.sh: $work failed: $(tail -1 "$dir/err")" >&2
		exit 4
	fi
	printf '%s\t%s\t%s\n' "$work" "$k" "$(cat "$dir/time")" >>"$dir/times"
}
work() {	# work WORK K
	local x=${sps[$2 - 1]}
	case $1 in
	report) timed "$1" "$2" "$x" --db "$db" report "${report_names[@]}" --workload grid0 \
			--metric metric00 -o "$dir/page.html" ;;
	export) timed "$1" "$2" "$x" --db "$db" export "${export_names[@]}" ;;
	history) timed "$1" "$2" "$x" --db "$db" history --format json ;;
	show) timed "$1" "$2" "$x" --db "$db" show "$middle" --samples --env ;;
	esac
}
for ((rep = 1; rep <= reps; rep++)); do
	echo "# repetition $rep of $reps" >&2
	for ((i = 0; i < ${#works[@]}; i++)); do
		w=${works[(i + rep) % ${#works[@]}]}
		for ((k = 0; k < ${#sps[@]}; k++)); do
			work "$w" $(((k + rep) % ${#sps[@]} + 1))
		done
	done
done
"$PYTHON" - "$dir/times" "${works[@]}" <<'PY'
import collections, statistics, sys
cpu, wall = collections.defaultdict(list), collections.defaultdict(list)
for line in open(sys.argv[1]):
    work, k, c, w = line.split("\t")
    cpu[work, int(k)].append(float(c))
    wall[work, int(k)].append(float(w))
print("%-8s %-11s %10s %10s %12s" % ("work", "schedperf", "cpu s", "wall s", "cpu vs 1st"))
for work in sys.argv[2:]:
    for (w, k) in sorted(cpu):
        if w != work:
            continue
        c = statistics.median(cpu[w, k])
        ratio = c / statistics.median(cpu[w, 1]) if statistics.median(cpu[w, 1]) else 0
        print("%-8s %-11s %10.4f %10.3f %12s" % (w, "schedperf%d" % k, c,
              statistics.median(wall[w, k]), "%.3f" % ratio if k > 1 else ""))
PY
