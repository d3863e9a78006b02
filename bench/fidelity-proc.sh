#!/usr/bin/env bash
# Fidelity of schedperf's process workloads against their reference tools,
# run interleaved on this machine (doc/design.md): for each pair, one
# reference run and one schedperf run with the same parameters; prints
# every pair and the median ratio ours/reference (1.00 = same; the target
# is 0.9-1.1).
#
#   messaging  vs  hackbench (rt-tests): `hackbench -g G -l L` prints "Time: X"
#   schbench   no Debian package: said so below, nothing compared
#   aim9, spawn, forkspread: no installable reference (AIM9 is not packaged,
#              spawn and forkspread have none); their unit tests check them
#
# usage: bench/fidelity-proc.sh [SCHEDPERF] [GROUPS] [LOOPS] [PAIRS]
set -eu
sp=${1:-./build/schedperf}
groups=${2:-4}
loops=${3:-200}
pairs=${4:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -x "$sp" ] || { echo "fidelity-proc: $sp not found (run make)" >&2; exit 3; }

# The last sample of `metric` in the newest benchmark of run "fid".
ours_last() {
	"$sp" export fid --db "$tmp/db" | python3 -c '
import json, sys
# Runs and benchmarks are exported oldest first; a repeated run name may
# come back as one run or as one run per invocation: take the newest.
benches = [b for r in json.load(sys.stdin)["runs"] for b in r["benchmarks"]]
print([m for m in benches[-1]["metrics"] if m["name"] == sys.argv[1]][0]["samples"][-1])
' "$1"
}

median() {
	python3 -c 'import statistics, sys; print("%.3f" % statistics.median(float(x) for x in sys.argv[1:]))' "$@"
}

if command -v hackbench >/dev/null; then
	ratios=()
	echo "messaging vs hackbench -g $groups -l $loops (process, socket), $pairs pairs:"
	for i in $(seq "$pairs"); do
		ref=$(hackbench -g "$groups" -l "$loops" | awk '/^Time:/ { print $2 }')
		"$sp" run messaging -p groups="$groups" -p loops="$loops" -i 1 \
			--name fid --db "$tmp/db" --quiet
		ours=$(ours_last seconds)
		ratio=$(python3 -c "print('%.3f' % ($ours / $ref))")
		ratios+=("$ratio")
		printf '  pair %2d: hackbench %8.3f s  schedperf %8.3f s  ratio %s\n' \
			"$i" "$ref" "$ours" "$ratio"
	done
	echo "messaging/hackbench median ratio: $(median "${ratios[@]}")"
else
	echo "messaging: hackbench not installed (apt-get install rt-tests): not compared"
fi

echo "schbench: no Debian package of schbench exists (build it from"
echo "  Chris Mason's schbench sources to compare): not compared"
echo "aim9, spawn, forkspread: no installable reference: not compared"
