#!/usr/bin/env bats
# compare --style against the tools it imitates: every case of
# tests/reference/styles/cases.txt, imported and compared, must print the
# table that the tool itself printed for the same samples
# (tests/reference/styles/expected/, made by make_fixtures.sh) cell for
# cell: numbers, marks, shown and hidden rows, `~`. schedperf's own lines
# (titles, "schedperf: ..." verdicts) are taken out first.

load helpers

STYLES_DIR="$BATS_TEST_DIRNAME/../reference/styles"

# The tool's part of schedperf's output: without its "schedperf:" lines
# and the title over each MMTests table ("WORKLOAD METRIC (UNIT, lower is
# better)" after a blank line).
tool_part() {
	awk 'BEGIN { first = 1 }
	     /^schedperf:/ { next }
	     first && / is better\)$/ { first = 0; next }
	     { first = ($0 == ""); print }'
}

# check_style STYLE: every case against its fixture.
check_style() {
	local style=$1 failed=0 json runs
	for json in "$STYLES_DIR"/cases/*.json; do
		local name
		name=$(basename "$json" .json)
		export SCHEDPERF_DB="$TMP/$name.db"
		sp import "$json" > /dev/null
		runs=$(json "' '.join(r['name'] for r in d['runs'])" "$json")
		# shellcheck disable=SC2086
		sp compare $runs --all-metrics --style "$style" | tool_part > "$TMP/$name.out"
		if ! diff -u "$STYLES_DIR/expected/$name.$style" "$TMP/$name.out"; then
			echo "case $name: --style $style differs from the tool"
			failed=1
		fi
	done
	return $failed
}

@test "--style mmtests: MMTests' compare-mmtests.pl, cell for cell" {
	check_style mmtests
}

@test "--style mmtests-classic: MMTests v0.27, cell for cell" {
	check_style mmtests-classic
}

@test "--style mmtests: schedperf's verdict is a line of its own, labelled" {
	check_style_fixture=$STYLES_DIR/cases/higher.json
	sp import "$check_style_fixture" > /dev/null
	run sp compare base new --style mmtests
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: threads=4: new better"* ]]
	[[ "$output" == *"schedperf: threads=8: new worse"* ]]
	[[ "$output" == *"Hmean     threads=8          97941.01 (   0.00%)          92974.97 *  -5.07%*"* ]]
}

@test "--style benchstat: golang.org/x/perf's benchstat, cell for cell" {
	check_style benchstat
}

@test "--style lkp: lkp-tests' compare, cell for cell" {
	check_style lkp
}

# A run without samples of a row: MMTests prints an operation a run lacks
# as 0 (its _generateComparisonTable() pushes 0 for the value and for the
# change of an operation absent from a run's summary; CoeffVar, computed as
# 0 there, shows pndiff's 100 %, and v0.27's t-test marks the mean). The
# tables below are what compare-mmtests.pl printed for these samples, with
# the operations left out of new's data, at 638401e and at v0.27 (as
# make_fixtures.sh runs it).
@test "--style mmtests: a run without samples of an operation is shown as MMTests shows one it lacks" {
	"$PYTHON" - > "$TMP/absent.json" <<'PY'
import json
def bench(workload, params, metric, unit, better, samples):
    return {"workload": workload, "params": params, "metrics": [] if samples is None else
            [{"name": metric, "unit": unit, "better": better, "source": "workload",
              "samples": samples}]}
def run(name, n2, t8):
    return {"name": name, "started": "2026-01-01T00:00:00Z", "complete": True,
            "environment": {"machine.hostname": "fixture"}, "benchmarks": [
        bench("wx", {"n": "1"}, "seconds", "s", "lower",
              [10.0, 10.2, 9.9] if name == "base" else [11.0, 11.2, 10.9]),
        bench("wx", {"n": "2"}, "seconds", "s", "lower", n2),
        bench("sb", {"threads": "4"}, "requests", "rps", "higher",
              [520.0, 530.0, 525.0, 522.0] if name == "base" else [551.0, 548.0, 555.0, 549.0]),
        bench("sb", {"threads": "8"}, "requests", "rps", "higher", t8)]}
print(json.dumps({"schema": "schedperf-results/1", "runs": [
    run("base", [20.0, 20.4, 19.8], [980.0, 990.0, 985.0, 970.0]), run("new", None, None)]}))
PY
	sp import "$TMP/absent.json"
	cat > "$TMP/mmtests" <<'TXT'
                                       bas                           ne
                                      base                          new
Min       n=1             9.900 (   0.00%)            10.900 ( -10.10%)
Min       n=2            19.800 (   0.00%)             0.000 (   0.00%)
Amean     n=1            10.033 (   0.00%)            11.033 *  -9.97%*
Amean     n=2            20.067 (   0.00%)             0.000 (   0.00%)
Stddev    n=1             0.153 (   0.00%)             0.153 (   0.00%)
Stddev    n=2             0.306 (   0.00%)             0.000 (   0.00%)
CoeffVar  n=1             1.522 (   0.00%)             1.384 (   9.06%)
CoeffVar  n=2             1.522 (   0.00%)             0.000 ( 100.00%)
Max       n=1            10.200 (   0.00%)            11.200 (  -9.80%)
Max       n=2            20.400 (   0.00%)             0.000 (   0.00%)
BAmean.95 n=1             9.950 (   0.00%)            10.950 ( -10.05%)
BAmean.95 n=2            19.900 (   0.00%)             0.000 (   0.00%)

                                             bas                           ne
                                            base                          new
Min       threads=4            520.00 (   0.00%)            548.00 (   5.38%)
Min       threads=8            970.00 (   0.00%)              0.00 (   0.00%)
Hmean     threads=4            524.22 (   0.00%)            550.74 *   5.06%*
Hmean     threads=8            981.19 (   0.00%)              0.00 (   0.00%)
HStddev   threads=4              3.75 (   0.00%)              2.67 (  28.81%)
HStddev   threads=8              7.42 (   0.00%)              0.00 (   0.00%)
HCoeffVar threads=4              0.72 (   0.00%)              0.49 (  32.23%)
HCoeffVar threads=8              0.76 (   0.00%)              0.00 ( 100.00%)
Max       threads=4            530.00 (   0.00%)            555.00 (   4.72%)
Max       threads=8            990.00 (   0.00%)              0.00 (   0.00%)
BHmean.95 threads=4            525.65 (   0.00%)            551.66 (   4.95%)
BHmean.95 threads=8            984.98 (   0.00%)              0.00 (   0.00%)
TXT
	cat > "$TMP/mmtests-classic" <<'TXT'
                                 bas                     ne
                                base                    new
Min       n=1       9.900 (   0.00%)      10.900 ( -10.10%)
Min       n=2      19.800 (   0.00%)       0.000 (   0.00%)
Amean     n=1      10.033 (   0.00%)      11.033 *  -9.97%*
Amean     n=2      20.067 (   0.00%)       0.000 *   0.00%*
Stddev    n=1       0.153 (   0.00%)       0.153 (   0.00%)
Stddev    n=2       0.306 (   0.00%)       0.000 (   0.00%)
CoeffVar  n=1       1.522 (   0.00%)       1.384 (   9.06%)
CoeffVar  n=2       1.522 (   0.00%)       0.000 ( 100.00%)
Max       n=1      10.200 (   0.00%)      11.200 (  -9.80%)
Max       n=2      20.400 (   0.00%)       0.000 (   0.00%)
BAmean-50 n=1       9.900 (   0.00%)      10.900 ( -10.10%)
BAmean-50 n=2      19.800 (   0.00%)       0.000 (   0.00%)
BAmean-95 n=1       9.950 (   0.00%)      10.950 ( -10.05%)
BAmean-95 n=2      19.900 (   0.00%)       0.000 (   0.00%)
BAmean-99 n=1       9.950 (   0.00%)      10.950 ( -10.05%)
BAmean-99 n=2      19.900 (   0.00%)       0.000 (   0.00%)

                                       bas                     ne
                                      base                    new
Min       threads=4      520.00 (   0.00%)      548.00 (   5.38%)
Min       threads=8      970.00 (   0.00%)        0.00 (   0.00%)
Hmean     threads=4      524.22 (   0.00%)      550.74 *   5.06%*
Hmean     threads=8      981.19 (   0.00%)        0.00 *   0.00%*
Stddev    threads=4        4.35 (   0.00%)        3.10 (  28.82%)
Stddev    threads=8        8.54 (   0.00%)        0.00 (   0.00%)
CoeffVar  threads=4        0.83 (   0.00%)        0.56 (  32.25%)
CoeffVar  threads=8        0.87 (   0.00%)        0.00 ( 100.00%)
Max       threads=4      530.00 (   0.00%)      555.00 (   4.72%)
Max       threads=8      990.00 (   0.00%)        0.00 (   0.00%)
BHmean-50 threads=4      527.49 (   0.00%)      552.99 (   4.84%)
BHmean-50 threads=8      987.49 (   0.00%)        0.00 (   0.00%)
BHmean-95 threads=4      525.65 (   0.00%)      551.66 (   4.95%)
BHmean-95 threads=8      984.98 (   0.00%)        0.00 (   0.00%)
BHmean-99 threads=4      525.65 (   0.00%)      551.66 (   4.95%)
BHmean-99 threads=8      984.98 (   0.00%)        0.00 (   0.00%)
TXT
	for style in mmtests mmtests-classic; do
		sp compare base new --style "$style" | tool_part > "$TMP/out"
		diff -u "$TMP/$style" "$TMP/out"
		# schedperf's own line says what the zeros are: no samples
		run sp compare base new --style "$style"
		[[ "$output" == *"schedperf: n=2: new unknown (no samples)"* ]]
		[[ "$output" == *"schedperf: threads=8: new unknown (no samples)"* ]]
	done
	# as JSON says: n 0
	sp compare base new --format json > "$TMP/c.json"
	[ "$(json "[c['n'] for r in d['rows'] for c in r['runs'][1:]]" "$TMP/c.json")" = "[3, 0, 4, 0]" ]
}

@test "--style: a space, % or the separator in a parameter value is percent-encoded, one parameter in every style" {
	"$PYTHON" - "$TMP/sp.json" <<-'PY'
	import json, sys
	def run(name, day, samples):
	    return {"name": name, "started": "2026-01-0%dT00:00:00Z" % day, "complete": True,
	            "environment": {"machine.hostname": "h"},
	            "benchmarks": [{"workload": "command", "params": {"cmd": "/bin/sleep 0.3", "x": "1%,2"},
	                            "metrics": [{"name": "m", "unit": "s", "better": "lower",
	                                         "samples": samples}]}]}
	runs = [run("a", 1, [1, 1.1, 1.2, 1.3, 1.1, 1.2]), run("b", 2, [2, 2.1, 2.2, 2.3, 2.1, 2.2])]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	PY
	sp import "$TMP/sp.json" >/dev/null
	for style in mmtests mmtests-classic; do
		run sp compare a b --style "$style"
		[ "$status" -eq 0 ]
		[ "$(awk '$1 == "Amean" { print $2 }' <<<"$output")" = "cmd=/bin/sleep%200.3,x=1%25%2C2" ] ||
			{ echo "$output"; false; }
	done
	run sp compare a b --style benchstat
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n''command/cmd=%2Fbin%2Fsleep%200.3/x=1%25,2   '* ]] || { echo "$output"; false; }
	run sp compare a b --style lkp
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n''cmd/testcase/x:'$'\n''  %2Fbin%2Fsleep%200.3/command/1%25,2'$'\n'* ]] ||
		{ echo "$output"; false; }
}

@test "lkp: a group with no stat shown names its axes on its verdict lines" {
	"$PYTHON" - "$TMP/l.json" <<'PY'
import json, random, sys
rng = random.Random(1)
runs = []
for name in ("base", "new"):
    runs.append({"name": name, "started": "2026-01-01T00:00:00Z", "complete": True,
                 "environment": {},
                 "benchmarks": [{"workload": "wx", "params": {"threads": t},
                                 "metrics": [{"name": "seconds", "unit": "s",
                                              "better": "lower",
                                              "samples": [rng.gauss(10, 0.1)
                                                          for _ in range(6)]}]}
                                for t in ("4", "8")]})
json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
PY
	sp import "$TMP/l.json" >/dev/null
	run sp compare base new --style lkp
	[ "$status" -eq 0 ]
	echo "$output"
	[ "$(grep -c '^schedperf: wx.seconds (threads=4): new ' <<<"$output")" -eq 1 ]
	[ "$(grep -c '^schedperf: wx.seconds (threads=8): new ' <<<"$output")" -eq 1 ]
}

@test "--style mmtests and markdown: a metric without unit is titled (lower is better), not (, lower is better)" {
	"$PYTHON" - "$TMP/nounit.json" <<-'PY'
	import json, sys
	def run(name, day, samples):
	    return {"name": name, "started": "2026-01-0%dT00:00:00Z" % day, "complete": True,
	            "environment": {"machine.hostname": "h"},
	            "benchmarks": [{"workload": "w", "params": {},
	                            "metrics": [{"name": "m", "unit": "", "better": "lower",
	                                         "samples": samples}]}]}
	runs = [run("a", 1, [1, 1.1, 1.2]), run("b", 2, [2, 2.1, 2.2])]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	PY
	sp import "$TMP/nounit.json" >/dev/null
	local style
	for style in mmtests mmtests-classic; do
		run sp compare a b --style "$style"
		[ "$status" -eq 0 ]
		[ "${lines[0]}" = "w m (lower is better)" ] || { echo "$output"; false; }
	done
	run sp compare a b --format markdown
	[ "$status" -eq 0 ]
	[[ "$output" == *"| m (lower is better) |"* ]] || { echo "$output"; false; }
	[[ "$output" != *"(, "* ]]
}

@test "--style mmtests: a name beyond ASCII is split into its header lines by characters, aligned" {
	import_named_at "base" 2026-01-01T00:00:00Z "é漢字😀" 2026-01-02T00:00:00Z
	for style in mmtests mmtests-classic; do
		run sp compare base "é漢字😀" --style "$style"
		[ "$status" -eq 0 ]
		iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
		# Perl's substr() leaves out the last character on the first line
		[[ "${lines[1]}" == *" é漢字" ]] || { echo "$output"; false; }
		[[ "${lines[2]}" == *" é漢字😀" ]] || { echo "$output"; false; }
		# right-aligned as the numbers below: the name ends where they end
		local cols
		cols=$("$PYTHON" -c 'import sys, unicodedata as u
w = lambda s: sum(2 if u.east_asian_width(c) in "WF" else 1 for c in s)
print(" ".join(str(w(l)) for l in sys.argv[1:]))' "${lines[2]}" "${lines[3]}")
		[ "${cols% *}" = "${cols#* }" ] || { echo "$cols"; echo "$output"; false; }
	done
}
