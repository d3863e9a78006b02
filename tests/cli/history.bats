#!/usr/bin/env bats
# history and detect over synthetic histories imported with `import`
# (tests/data/make_history.py: steps of 3-20 %, none, two, an outlier).

load helpers

DATA="$BATS_TEST_DIRNAME/../data"

import_history() {	# import_history [RUNS]
	"$PYTHON" "$DATA/make_history.py" "$TMP/history.json" "${1:-40}"
	sp import "$TMP/history.json" >/dev/null
}

cps() {	# cps WORKLOAD: "index:kind ..." of its change points in detect.json
	json "' '.join('%d:%s' % (c['index'], c['kind']) for s in d if s['workload'] == '$1' for c in s['change_points'])" "$TMP/detect.json"
}

@test "detect finds each step at its run and nothing else" {
	import_history
	run sp detect --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/detect.json"
	[ "$(cps messaging)" = "20:regression" ]
	[ "$(cps pipe)" = "30:improvement" ]
	[ "$(cps futex-hash)" = "12:improvement 28:regression" ]
	[ "$(cps threads)" = "" ]
	[ "$(cps spawn)" = "" ]
	[ "$(json "[c['run'] for s in d if s['workload'] == 'messaging' for c in s['change_points']][0]" "$TMP/detect.json")" = "6.21" ]
	[ "$(json "len(d)" "$TMP/detect.json")" -eq 5 ]
	# positive = better: the regression of a lower-is-better metric is negative
	json "[c['pct_change'] for s in d if s['workload'] == 'messaging' for c in s['change_points']][0]" "$TMP/detect.json" | grep -q '^-10\.'
	# the same data, the same answer
	run sp detect --format json
	[ "$output" = "$(cat "$TMP/detect.json")" ]
}

@test "detect --fail-on-regression looks at the newest change point of each series" {
	import_history
	run sp detect --fail-on-regression
	[ "$status" -eq 1 ]
	[[ "$output" == *"at 6.21 (point 20)"*"regression"* ]]
	run sp detect --fail-on-regression --workload pipe,threads
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 change point in 1 of 2 series"* ]]
	# futex-hash: an improvement, then a regression that is the newest
	run sp detect --fail-on-regression --workload futex-hash
	[ "$status" -eq 1 ]
	# every name of a list is checked: one misspelt is an error, not "no change"
	for cmd in detect history; do
		run sp $cmd --workload pipe,nosuch
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"--workload 'nosuch' is in none of the stored series"* ]]
		run sp $cmd --metric nosuch,usec_per_op
		[ "$status" -eq 2 ]
		[[ "$output" == *"--metric 'nosuch' is in none"* ]]
	done
	# a benchmark stored without samples (every iteration failed) is no series,
	# and a filter that matches nothing says that
	run sp history --workload command
	[ "$status" -eq 2 ]
	[[ "$output" == *"no stored benchmark matches --workload, --metric or -p (see "* ]]
	sp run command -p cmd=false -i 1 --warmup 0 --name failed --quiet || true
	run sp history --workload command
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"no stored series matches --workload, --metric or -p: no benchmark "* ]]
}

@test "detect --magnitude and --pvalue drop what they should" {
	import_history
	run sp detect --workload futex-hash --magnitude 5 --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/detect.json"
	[ "$(cps futex-hash)" = "12:improvement" ]
	run sp detect --workload futex-hash --pvalue 1e-300 --format json
	echo "$output" > "$TMP/detect.json"
	[ "$(cps futex-hash)" = "" ]
	run sp detect --window 10 --format json --workload messaging
	echo "$output" > "$TMP/detect.json"
	[ "$(cps messaging)" = "20:regression" ]
}

@test "history: a point per run, its statistics, in three formats" {
	import_history 12
	run sp history --workload messaging --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/h.json"
	[ "$(json "d['schema']" "$TMP/h.json")" = "schedperf-history/1" ]
	[ "$(json "len(d['series'])" "$TMP/h.json")" -eq 1 ]
	[ "$(json "len(d['series'][0]['points'])" "$TMP/h.json")" -eq 12 ]
	[ "$(json "d['series'][0]['params']['groups']" "$TMP/h.json")" = "2" ]
	# the mean and median of run 6.3 from the imported samples
	"$PYTHON" - "$TMP/history.json" "$TMP/h.json" <<'PY'
import json, statistics, sys
src = json.load(open(sys.argv[1]))
hist = json.load(open(sys.argv[2]))
samples = [r for r in src["runs"] if r["name"] == "6.3"][0]["benchmarks"][0]["metrics"][0]["samples"]
point = [p for p in hist["series"][0]["points"] if p["run"] == "6.3"][0]
assert point["n"] == 5
assert abs(point["mean"] - statistics.mean(samples)) < 1e-12
assert abs(point["median"] - statistics.median(samples)) < 1e-12
assert point["ci"][0] < point["mean"] < point["ci"][1]
PY
	run sp history --workload messaging --format csv
	[ "${lines[0]}" = "workload,params,metric,unit,better,run,batch,started,n,mean,median,stddev,ci_low,ci_high,machine,cpus,machine_id,incomplete" ]
	[ "${#lines[@]}" -eq 13 ]
	[[ "${lines[1]}" == "messaging,groups=2,seconds,s,lower,6.1,,2026-01-01T10:00:00Z,5,"* ]]
	run sp history --workload messaging
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "messaging groups=2: seconds (s, lower is better)" ]]
}

@test "history --order: started, name, version" {
	import_history 12
	order() {
		sp history --workload threads --format csv "$@" | tail -n +2 | cut -d, -f6 | tr '\n' ' '
	}
	[ "$(order)" = "6.1 6.2 6.3 6.4 6.5 6.6 6.7 6.8 6.9 6.10 6.11 6.12 " ]
	[ "$(order --order name)" = "6.1 6.10 6.11 6.12 6.2 6.3 6.4 6.5 6.6 6.7 6.8 6.9 " ]
	[ "$(order --order version)" = "6.1 6.2 6.3 6.4 6.5 6.6 6.7 6.8 6.9 6.10 6.11 6.12 " ]
}

@test "history --order version: a git tag's v is a version (6.1 < v6.2 < 6.3), other names last" {
	"$PYTHON" -c 'import json
names = ["vanilla", "6.3", "v6.2", "baseline", "6.1"]
runs = [{"name": n, "started": "2026-01-0%dT00:00:00Z" % (i + 1), "complete": True,
         "environment": {}, "benchmarks": [{"workload": "pipe", "params": {}, "metrics": [
             {"name": "m", "unit": "u", "better": "lower", "samples": [1, 2]}]}]}
        for i, n in enumerate(names)]
print(json.dumps({"schema": "schedperf-results/1", "runs": runs}))' >"$TMP/ver.json"
	sp import "$TMP/ver.json"
	run sp history --order version --format csv
	[ "$status" -eq 0 ]
	[ "$(printf '%s\n' "${lines[@]:1}" | cut -d, -f6 | tr '\n' ' ')" = "6.1 v6.2 6.3 baseline vanilla " ]
}

@test "history --by batch: a point per batch; by run pools them" {
	cat > "$TMP/two.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "6.1", "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
   "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower", "samples": [1, 2, 3]}]}]},
 {"name": "6.1", "started": "2026-01-02T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
   "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower", "samples": [7]}]}]}]}
JSON
	sp import "$TMP/two.json"
	run sp history --format csv
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == *",6.1,,2026-01-01T00:00:00Z,4,3.25,2.5,"* ]]
	run sp history --format csv --by batch
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[1]}" == *",6.1,1,2026-01-01T00:00:00Z,3,2,2,1,"* ]]
	[[ "${lines[2]}" == *",6.1,2,2026-01-02T00:00:00Z,1,7,7,,,"* ]]
	run sp history -p loops=10 --format csv
	[ "${#lines[@]}" -eq 2 ]
}

# Two machines run k01..k12 (a fleet's kernels share their names), their
# batches interleaved in time: beta ran k07..k12 first, ten days before
# alpha, where k07 is 10 % slower. Each machine's series is its own batches.
two_machines() {
	"$PYTHON" - "$TMP/fleet.json" <<-'EOF'
	import json, sys
	def run(name, day, hour, host, value):
	    return {"name": name, "started": "2026-01-%02dT%02d:00:00Z" % (day, hour),
	            "complete": True, "environment": {"machine.hostname": host,
	                                              "machine.id": host[0] * 32},
	            "benchmarks": [{"workload": "pipe", "params": {"loops": "10"},
	                            "metrics": [{"name": "usec_per_op", "unit": "usec",
	                                         "better": "lower",
	                                         "samples": [value, value * 1.001]}]}]}
	runs = [run("k%02d" % i, 10 + i, 0, "alpha", 10 if i < 7 else 11) for i in range(1, 13)]
	runs += [run("k%02d" % i, i - 6, 12, "beta", 5) for i in range(7, 13)]
	runs += [run("k%02d" % i, 10 + i, 12, "beta", 5) for i in range(1, 7)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/fleet.json" >/dev/null
}

@test "history and detect: each machine's series has its own batches' dates and order" {
	two_machines
	for order in started name version; do
		for by in run batch; do
			sp history --order $order --by $by --format json >"$TMP/h.json"
			# alpha: k01..k12 on days 11..22 at midnight, whatever the order
			[ "$(json "[(p['run'], p['started'][8:13]) for s in d['series'] if s['machine'] == 'alpha' for p in s['points']] == [('k%02d' % i, '%02dT00' % (10 + i)) for i in range(1, 13)]" "$TMP/h.json")" = True ]
			# beta: its own dates at noon; in start order k07..k12 first
			[ "$(json "[p['started'][11:13] for s in d['series'] if s['machine'] == 'beta' for p in s['points']] == ['12'] * 12" "$TMP/h.json")" = True ]
			want=$([ $order = started ] && echo "7,8,9,10,11,12,1,2,3,4,5,6" || echo "1,2,3,4,5,6,7,8,9,10,11,12")
			[ "$(json "','.join(str(int(p['run'][1:])) for s in d['series'] if s['machine'] == 'beta' for p in s['points'])" "$TMP/h.json")" = "$want" ]
			# detect blames k07 on alpha, a regression, and nothing on beta
			run sp detect --order $order --by $by --fail-on-regression --format json
			[ "$status" -eq 1 ]
			echo "$output" >"$TMP/d.json"
			[ "$(json "[(s['machine'], c['run'], c['kind']) for s in d for c in s['change_points']]" "$TMP/d.json")" = "[('alpha', 'k07', 'regression')]" ]
		done
	done
}

@test "detect --magnitude measures a change either way round: 10 -> 5 is 100 %" {
	"$PYTHON" - "$TMP/half.json" <<-'EOF'
	import json, sys
	runs = [{"name": "r%02d" % i, "started": "2026-01-%02dT00:00:00Z" % (i + 1),
	         "complete": True, "environment": {"machine.hostname": "h"},
	         "benchmarks": [{"workload": "pipe", "params": {},
	                         "metrics": [{"name": "lo", "unit": "usec", "better": "lower",
	                                      "samples": [v, v * 1.001, v * 0.999]}]}]}
	        for i, v in enumerate([10] * 8 + [5] * 8)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/half.json" >/dev/null
	for m in 60 99.9; do
		sp detect --magnitude $m --format json >"$TMP/d.json"
		[ "$(json "[(c['run'], round(c['pct_change'], 6), c['kind']) for s in d for c in s['change_points']]" "$TMP/d.json")" = "[('r08', 50.0, 'improvement')]" ]
	done
	sp detect --magnitude 100.1 --format json >"$TMP/d.json"
	[ "$(json "sum(len(s['change_points']) for s in d)" "$TMP/d.json")" = 0 ]
	run sp detect --magnitude 1e6
	[ "$status" -eq 2 ]
	[[ "$output" == "schedperf: detect: --magnitude '1e6': give a percent from 0 to below 1000000, e.g. 2"* ]]
}

@test "history: a cgroup's cpuset pins as --cpus does, and an imported CPU list is read in one spelling" {
	"$PYTHON" - "$TMP/pin.json" <<-'EOF'
	import json, sys
	def run(hour, env):
	    env = dict(env, **{"machine.hostname": "h", "machine.id": "a" * 32})
	    return {"name": "K", "started": "2026-01-01T%02d:00:00Z" % hour, "complete": True,
	            "environment": env,
	            "benchmarks": [{"workload": "pipe", "params": {},
	                            "metrics": [{"name": "lo", "unit": "usec", "better": "lower",
	                                         "samples": [1.0, 2.0]}]}]}
	runs = [run(0, {}), run(1, {"knob.cgroup.cpuset.cpus": "0"}), run(2, {"knob.cpus": "0"}),
	        run(3, {"knob.cpus": "1,0"}), run(4, {"knob.cpus": "0-1"}),
	        run(5, {"knob.cgroup.cpuset.cpus": "1,0,2"})]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/pin.json" >/dev/null
	sp history --format json >"$TMP/h.json"
	[ "$(json "[(s['cpus'], sum(p['n'] for p in s['points'])) for s in d['series']]" "$TMP/h.json")" = "[(None, 2), ('0', 4), ('0-1', 4), ('0-2', 2)]" ]
	run sp history
	[ "$(grep -c 'pinned to CPUs' <<<"$output")" = 3 ]
	# the file's "1,0" is stored as the kernel spells it
	[ "$(sp export K | grep -c '"knob.cpus": "1,0"')" = 0 ]
	[ "$(sp export K | grep -c '"knob.cgroup.cpuset.cpus": "0-2"')" = 1 ]
	# compare counts a cpuset among what moves results, as it does --cpus
	sp export K | "$PYTHON" -c '
import json, sys
d = json.load(sys.stdin)
for r, name in zip(d["runs"][:2], ["U", "C"]):
    r["name"] = name
d["runs"] = d["runs"][:2]
json.dump(d, sys.stdout)' | sp import - >/dev/null
	run sp compare U C
	[[ "$output" == *"(!cpuset differs)"* ]] || { echo "$output"; false; }
	# a list schedperf could not have recorded is refused, and nothing imported
	for bad in 99999999999999999999-1 1,0,0-4000000000 3-1 "" x; do
		sed "s/\"knob.cpus\": \"0\"/\"knob.cpus\": \"$bad\"/" "$TMP/pin.json" >"$TMP/bad.json"
		run sp --db "$TMP/bad.db" import "$TMP/bad.json"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"runs[2].environment.knob.cpus: not a CPU list (CPUs 0-1023 in ranges upwards, as 0-3,8)"* ]] || { echo "$output"; false; }
		[ ! -e "$TMP/bad.db" ]
	done
}

@test "history and detect refuse bad options with one line and exit 2" {
	import_history 5
	for args in "--by day" "--order size" "--format xml" "-p loops" "-p =1" \
		"--workload nosuch" "--metric nosuch" "-p loops=7" "extra"; do
		run sp history $args
		[ "$status" -eq 2 ] || { echo "history $args: $status"; return 1; }
		assert_one_line_error
	done
	for args in "--pvalue 0" "--pvalue 1" "--pvalue x" "--magnitude -1" \
		"--window 1" "--window 2" "--window 1000001" "--format csv"; do
		run sp detect $args
		[ "$status" -eq 2 ] || { echo "detect $args: $status"; return 1; }
		assert_one_line_error
	done
	run sp history --db "$TMP/missing.db"
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "detect --window: 3, the smallest, finds a perfect step; 2 is refused with why" {
	"$PYTHON" - "$TMP/step.json" <<-'EOF'
	import json, sys
	runs = [{"name": "r%02d" % i, "started": "2026-06-01T00:00:%02dZ" % i, "complete": True,
	         "environment": {"machine.hostname": "h"},
	         "benchmarks": [{"workload": "pipe", "params": {},
	             "metrics": [{"name": "lo", "unit": "u", "better": "lower",
	                          "samples": [1.0 if i < 10 else 2.0]}]}]} for i in range(20)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/step.json" >/dev/null
	for w in 3 4 50; do
		sp detect --window $w --format json >"$TMP/d.json"
		[ "$(json '[c["index"] for s in d for c in s["change_points"]]' "$TMP/d.json")" = "[10]" ] ||
			{ echo "--window $w: $(cat "$TMP/d.json")"; return 1; }
	done
	run sp detect --window 2
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"--window 2: a window needs at least 3 points"* ]]
}

@test "detect on runs too short for a change point says so" {
	sp import "$DATA/store-v1.json" >/dev/null
	run sp detect
	[ "$status" -eq 0 ]
	[[ "$output" == *"no change point in"* ]]
}

@test "hostile names come out as data in JSON and CSV" {
	cat > "$TMP/bad.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "<script>alert(1)</script>\"x", "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w\"<b>", "params": {"k,\"": "v\nx"},
   "metrics": [{"name": "m'<i>", "unit": "u&", "better": "lower", "samples": [1, 2]}]}]}]}
JSON
	sp import "$TMP/bad.json"
	run sp history --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/h.json"
	[ "$(json "d['series'][0]['points'][0]['run']" "$TMP/h.json")" = '<script>alert(1)</script>"x' ]
	[ "$(json "d['series'][0]['params']['k,\"']" "$TMP/h.json")" = $'v\nx' ]
	run sp history --format csv
	"$PYTHON" -c 'import csv, sys; rows = list(csv.reader(open(sys.argv[1]))); assert len(rows) == 2, rows; assert rows[1][0] == "w\"<b>", rows' <(sp history --format csv)
}

@test "detect: the percent from a negative mean has the change's sign, (after - before) / |before|" {
	"$PYTHON" - "$TMP/neg.json" <<-'EOF'
	import json, sys
	def run(i, value):
	    return {"name": "k%02d" % i, "started": "2026-01-%02dT00:00:00Z" % i,
	            "complete": True, "environment": {},
	            "benchmarks": [{"workload": "pipe", "params": {},
	                            "metrics": [{"name": "delta", "unit": "", "better": "lower",
	                                         "samples": [value, value * 1.001]}]}]}
	runs = [run(i, -5 if i < 7 else 5) for i in range(1, 13)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/neg.json" >/dev/null
	run sp detect --format json
	[ "$status" -eq 0 ]
	echo "$output" >"$TMP/d.json"
	[ "$(json "[(c['run'], c['kind'], round(c['pct_change'])) for s in d for c in s['change_points']]" "$TMP/d.json")" = "[('k07', 'regression', -200)]" ]
	run sp detect
	[[ "$output" == *"at k07 (point 6): "*", -200.00 %, regression"* ]]
}

@test "history: a point with an incomplete batch is marked, in text, JSON and CSV" {
	"$PYTHON" - "$TMP/inc.json" <<-'EOF'
	import json, sys
	def run(name, complete):
	    return {"name": name, "started": "2026-01-01T00:00:00Z", "complete": complete,
	            "environment": {"machine.hostname": "h", "machine.id": "a" * 32},
	            "benchmarks": [{"workload": "pipe", "params": {},
	                            "metrics": [{"name": "lo", "unit": "usec", "better": "lower",
	                                         "samples": [1.0, 2.0]}]}]}
	runs = [run("v1", True), run("v2", False)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/inc.json" >/dev/null
	run sp history
	[ "$status" -eq 0 ]
	echo "$output"
	[[ "$output" == *$'\n  v1   2026'* ]]
	[[ "$output" == *$'\n  v2*  2026'* ]]
	[[ "$output" == *"*: a batch of the run is incomplete (cut short, or running still): its iterations stored are in the point"* ]]
	sp history --format json >"$TMP/h.json"
	[ "$(json "[(p['run'], p['incomplete']) for p in d['series'][0]['points']]" "$TMP/h.json")" = "[('v1', False), ('v2', True)]" ]
	# and in CSV, its last column
	run sp history --format csv
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *",machine_id,incomplete" ]]
	[ "$(cut -d, -f6,18 <<<"$output" | tr '\n' ' ')" = "run,incomplete v1,0 v2,1 " ] || { echo "$output"; false; }
	# a store whose batches are all complete has no mark and no note
	"$PYTHON" -c "import json; d = json.load(open('$TMP/inc.json')); d['runs'][1]['complete'] = True; print(json.dumps(d))" |
		sp --db "$TMP/c.db" import - >/dev/null
	run sp --db "$TMP/c.db" history
	[[ "$output" != *"*"* ]]
}

@test "history: the columns stay aligned with a run's microseconds, a long name and a name beyond ASCII" {
	import_named_at v1 2026-01-01T00:00:00Z v2 2026-01-02T00:00:00.123456Z \
		"$(printf 'x%.0s' {1..100})" 2026-01-03T00:00:00Z \
		"$(printf '\xc3\xbc%.0s' {1..10})" 2026-01-04T00:00:00Z
	local by
	for by in run batch; do
		sp history --by "$by" >"$TMP/out"
		# every line of the table ends where its header does, in characters
		"$PYTHON" -c 'import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")[1:6]
sys.exit(len({len(l) for l in lines}) != 1)' "$TMP/out" || { cat "$TMP/out"; false; }
	done
}

@test "detect: --pvalue and --magnitude are numbers whole, as compare's --alpha: no leading space" {
	import_named_at a 2026-01-01T00:00:00Z b 2026-01-02T00:00:00Z
	for opt in --pvalue --magnitude; do
		run sp detect $opt ' 0.1'
		[ "$status" -eq 2 ]
		assert_one_line_error
		run sp detect $opt 0.1
		[ "$status" -eq 0 ]
	done
}

@test "history, detect, runs: a stored run name's or start's control characters are escaped" {
	"$PYTHON" - "$TMP/cp.json" <<-'EOF'
	import json, sys
	runs = [{"name": "r%02d" % i, "started": "2026-06-01T00:00:%02dZ" % i, "complete": True,
	         "environment": {"machine.hostname": "h"},
	         "benchmarks": [{"workload": "pipe", "params": {},
	             "metrics": [{"name": "lo", "unit": "u", "better": "lower",
	                          "samples": [10 + (10 if i >= 6 else 0) + k * 0.01
	                                      for k in range(5)]}]}]} for i in range(12)]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/cp.json" >/dev/null
	# a store another program wrote: import and run refuse such names
	sqlite3 "$SCHEDPERF_DB" \
		"UPDATE runs SET name = 'x' || char(27) || '[31m' || char(13) || name"
	sqlite3 "$SCHEDPERF_DB" "UPDATE batches SET started = started || char(27) || '[2J'"
	for cmd in "history" "history --by batch" "detect" "history --format csv" \
		   "history --by batch --format csv" "runs"; do
		sp $cmd >"$TMP/out.txt"
		refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$TMP/out.txt"
	done
	sp history >"$TMP/out.txt"
	grep -q '^  x\\x1b\[31m\\x0dr00  2026-06-01T00:00:00Z\\x1b\[2J      5 ' "$TMP/out.txt"
	grep -q '^  run               started' "$TMP/out.txt"
	sp history --format csv >"$TMP/out.txt"
	grep -q ',x\\x1b\[31m\\x0dr00,,2026-06-01T00:00:00Z\\x1b\[2J,5,' "$TMP/out.txt"
	sp runs >"$TMP/out.txt"
	grep -q '^    batch 1      2026-06-01T00:00:00Z\\x1b\[2J  complete ' "$TMP/out.txt"
	sp detect >"$TMP/out.txt"
	grep -q '^  at x\\x1b\[31m\\x0dr06 (point 6)' "$TMP/out.txt"
	# a workload and a metric are chosen by their names as stored, or as shown
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET workload = 'pi' || char(27) || 'pe'"
	sqlite3 "$SCHEDPERF_DB" "UPDATE metrics SET name = 'l' || char(27) || 'o'"
	for w in "$(printf 'pi\033pe')" 'pi\x1bpe'; do
		for m in "$(printf 'l\033o')" 'l\x1bo'; do
			run sp history --workload "$w" --metric "$m" --format csv
			[ "$status" -eq 0 ] || { echo "$w $m: $output"; false; }
			[ "$(grep -c '^pi\\x1bpe,' <<<"$output")" -eq 12 ]
			run sp detect --workload "$w" --metric "$m"
			[ "$status" -eq 0 ] || { echo "$w $m: $output"; false; }
			[[ "$output" == *"at x"*"r06 (point 6)"* ]]
		done
	done
}

@test "history, detect, report: -p takes a stored parameter as shown, escaped, or as stored" {
	"$PYTHON" - "$TMP/r.json" <<-'EOF'
	import json, sys
	def run(name, day, scale):
	    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
	            "environment": {},
	            "benchmarks": [{"workload": "w", "params": {"k": mode},
	                            "metrics": [{"name": "m", "unit": "s", "better": "lower",
	                                         "samples": [v * scale * (1 + k * 0.01)
	                                                     for k in range(5)]}]}
	                           for mode, v in (("a", 1), ("b", 3))]}
	json.dump({"schema": "schedperf-results/1", "runs": [
	    run("base", 1, 1), run("new", 2, 2)]}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/r.json"
	# a store another program wrote: a key and a value with an escape
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET params = json_object('k' || char(27),
		CASE WHEN params = '{\"k\":\"a\"}' THEN 'a' || char(27) || '[31m' ELSE 'b' END)"
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM benchmarks WHERE params LIKE '%[31m%'")" -eq 2 ]
	for p in 'k\x1b=a\x1b[31m' $'k\e=a\e[31m' 'k\x1b=a'$'\e''[31m'; do
		run sp history -p "$p" --format csv
		[ "$status" -eq 0 ] || { echo "$p: $output"; false; }
		[ "$(grep -c '^w,' <<<"$output")" -eq 2 ] || { echo "$p: $output"; false; }
		[[ "$output" != *'=b'* ]] || { echo "$p: $output"; false; }
		run sp detect -p "$p"
		[ "$status" -eq 0 ] || { echo "$p: $output"; false; }
		run sp report base new -p "$p" -o "$TMP/r.txt"
		[ "$status" -eq 0 ] || { echo "$p: $output"; false; }
		grep -q 'a\\x1b\[31m' "$TMP/r.txt"
		refute grep -q '=b' "$TMP/r.txt"
	done
	# a value neither stored nor shown matches nothing, as before
	run sp history -p 'k\x1b=a\x1c'
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	assert_one_line_error
}

@test "history and detect: a metric of one name in another unit or direction is another series" {
	import_unit_clash
	run sp history --metric m
	[ "$status" -eq 0 ]
	[ "$(grep -c '^w: m (' <<<"$output")" -eq 3 ]
	[[ "$output" == *"w: m (s, lower is better)"* ]]
	[[ "$output" == *"w: m (s, higher is better)"* ]]
	[[ "$output" == *"w: m (ms, lower is better)"* ]]
	sp history --format json > "$TMP/h.json"
	[ "$(json '[(s["unit"], s["better"], [p["run"] for p in s["points"]])
		     for s in d["series"]]' "$TMP/h.json")" = \
	  "[('s', 'lower', ['a']), ('s', 'higher', ['b']), ('ms', 'lower', ['c'])]" ]
	# no change from 1.5 s to 1 ms: they are never one series
	run sp detect
	[ "$status" -eq 0 ]
	[[ "$output" == *"no change point in 3 series"* ]]
	[[ "$output" != *33.3* ]]
	run sp detect --format json
	[ "$status" -eq 0 ]
	[ "$(json '[len(s["change_points"]) for s in d]' <(echo "$output"))" = "[0, 0, 0]" ]
	# a long history, its metric in s, then in ms: two series of level values, no change
	"$PYTHON" -c 'import json, sys
runs = [{"name": "r%02d" % i, "started": "2026-01-02T00:00:%02dZ" % i, "complete": True,
         "environment": {"machine.hostname": "h", "machine.id": "a" * 32},
         "benchmarks": [{"workload": "w", "params": {},
                         "metrics": [{"name": "m", "unit": "s" if i < 12 else "ms",
                                      "better": "lower",
                                      "samples": [x, x + 0.01, x - 0.01, x + 0.02, x]}]}]}
        for i, x in ((i, 1.5 if i < 12 else 1.0) for i in range(24))]
json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)' | sp import - >/dev/null
	run sp detect --format json
	[ "$status" -eq 0 ]
	[ "$(json '[(s["unit"], s["better"], len(s["change_points"])) for s in d]' \
		<(echo "$output"))" = \
	  "[('s', 'lower', 0), ('s', 'higher', 0), ('ms', 'lower', 0)]" ]
}
