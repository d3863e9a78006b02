#!/usr/bin/env bats
# The profile monitor end to end: sampled, stored, shown and compared.
# Sampling needs perf_event_open with the kernel (root here, or
# kernel.perf_event_paranoid <= 1); without it a test skips, except the one
# that checks the refusal itself. Nothing asserts a share's size beyond
# what the workload makes certain: poundtime's threads do nothing but the
# call they pound, so its system call is on nearly every chain.

load helpers

profiles() {	# profiles [WHERE]: profiles in the store
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM profiles ${1:+WHERE $1}"
}

@test "--monitors profile: each measured iteration's profile is stored and shown" {
	can_sample
	run flock "$GETPPID_LOCK" "$SP" run poundtime -p call=getppid -p threads=2 \
		-p calls=2000000 -i 2 --warmup 1 --monitors profile --name pound
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: profile: "*" sampled at 100 Hz"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT DISTINCT frequency FROM profiles')" -eq 100 ]
	[[ "$output" == *"profile: taken in the measured iterations"* ]]
	# the warm-up's profile is not kept; the measured ones are, with symbols
	[ "$(profiles 'extra = 0')" -eq 2 ]
	[ "$(profiles 'extra = 1')" -eq 0 ]
	[ "$(profiles 'samples > 0')" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM profile_symbols
		WHERE dso = '[kernel.kallsyms]'")" -gt 0 ]
	run sp show pound --profile --top 10
	[ "$status" -eq 0 ]
	[[ "$output" == *"2 profiles of timed iterations"* ]]
	[[ "$output" == *"children %"*"self %"*"symbol"* ]]
	# the system call pounded is on the chains of nearly every sample
	[[ "$output" == *getppid*"[kernel.kallsyms]"* ]]
	run sp show pound
	[[ "$output" != *"children %"* ]]
}

@test "--profile-iterations: extra iterations are profiled, the measured ones are not" {
	can_sample
	run sp run pipe -p loops=20000 -i 2 --profile-iterations 1 --no-monitors --name p
	[ "$status" -eq 0 ]
	[[ "$output" == *"profile: taken in 1 extra iteration per benchmark"* ]]
	[ "$(profiles 'extra = 1')" -eq 1 ]
	[ "$(profiles 'extra = 0')" -eq 0 ]
	# the extra iteration stores no sample: the measured ones are two
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')" -eq 2 ]
	run sp show p --profile
	[[ "$output" == *"1 profile of extra (untimed) iterations"* ]]
	# the plan keeps it for --resume; --resume takes no new setting
	[[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT plan FROM batches')" == *'"profile_iterations":1'* ]]
	run sp run --resume --name p --profile-iterations 2
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "--profile-frequency: the rate asked is sampled, stored and kept for --resume" {
	can_sample
	run sp run pipe -p loops=20000 -i 1 --monitors profile --profile-frequency 1000 --name f
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: profile: "*" sampled at 1000 Hz"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT frequency FROM profiles')" -eq 1000 ]
	[[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT plan FROM batches')" == *'"profile_frequency":1000'* ]]
	run sp run --resume --name f --profile-frequency 50
	[ "$status" -eq 2 ]
	assert_one_line_error
	# no profile to take: refused before anything runs
	run sp run pipe -p loops=10 -i 1 --profile-frequency 1000 --name none
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"add --monitors profile"* ]]
	run sp run pipe -p loops=10 -i 1 --monitors all --profile-frequency 1000 --name none
	[ "$status" -eq 2 ]
	run sp run pipe -p loops=10 -i 1 --monitors profile --profile-frequency 0 --name none
	[ "$status" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM runs WHERE name = 'none'")" -eq 0 ]
	# a rate above the kernel's limit: what the limit is, and no batch
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	run sp run pipe -p loops=10 -i 1 --monitors profile --profile-frequency $((max + 1)) \
		--name over
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"kernel.perf_event_max_sample_rate"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM runs WHERE name = 'over'")" -eq 0 ]
}

@test "compare --profile: changes in points against the baseline, as text and JSON" {
	can_sample
	sp run pipe -p loops=20000 -i 2 --cpus 0 --monitors profile --profile-frequency 1000 \
		--name one --quiet
	sp run pipe -p loops=20000 -i 2 --monitors profile --profile-frequency 1000 \
		--name two --quiet
	run sp compare one two --profile --top 5
	[ "$status" -eq 0 ]
	[[ "$output" == *"one: 2 profiles of timed iterations"* ]]
	[[ "$output" == *"two: 2 profiles of timed iterations"* ]]
	[[ "$output" == *"percentage points against one"* ]]
	sp compare one two --profile --top 5 --format json >"$TMP/p.json"
	[ "$(json 'd["schema"]' "$TMP/p.json")" = "schedperf-profile/1" ]
	[ "$(json 'len(d["benchmarks"][0]["symbols"])' "$TMP/p.json")" -le 5 ]
	[ "$(json 'd["benchmarks"][0]["runs"][1]["profiles"]' "$TMP/p.json")" -eq 2 ]
	[ "$(json 'd["benchmarks"][0]["symbols"][0]["runs"][1]["self_spread"] in
		("beyond", "within")' "$TMP/p.json")" = True ]
	run sp compare one two --profile --format csv
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "--profile on runs without profiles says so" {
	sp run pipe -p loops=1000 -i 1 --name plain --quiet
	run sp show plain --profile
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'plain' has no profile (run it with --monitors profile)"* ]]
	# refused before anything is printed, as compare --profile refuses
	assert_one_line_error
	run sp compare plain plain2 --profile
	[ "$status" -eq 2 ]
	run sp run pipe -p loops=1000 -i 1 --name plain2 --quiet
	run sp compare plain plain2 --profile
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "schedperf: compare --profile: run 'plain' has no profile (run it with --monitors profile)" ]
}

@test "--profile on a profiled run whose iterations all failed says that, not to profile it" {
	# sampling or not, a failed iteration keeps no profile
	run sp run command -p cmd=false -i 2 --monitors profile --name failed
	[ "$status" -eq 1 ]
	want="run 'failed' has no profile: it ran with a profile monitor, but each iteration $(
		)profiled failed, and a failed one keeps none (see 'schedperf show failed' for $(
		)why they failed)"
	run sp show failed --profile
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ "$output" = "schedperf: show --profile: $want" ]
	sp run command -p cmd=true -i 1 --name fine -q
	run sp compare failed fine --profile
	[ "$status" -eq 2 ]
	[ "${lines[-1]}" = "schedperf: compare --profile: $want" ]
}

@test "--profile on profiles without a sample says why: iterations shorter than the rate's interval" {
	can_sample
	# at 1 Hz a cpu-clock event's first sample is a second after it starts;
	# 100 round trips take a millisecond or so, under ASan and load too
	sp run pipe -p loops=100 -i 2 --monitors profile --profile-frequency 1 --name short -q \
		2>/dev/null
	[ "$(profiles 'total = 0')" -eq 2 ]
	run sp show short --profile
	[ "$status" -eq 2 ]
	[[ "$output" == *"schedperf: show --profile: run 'short' has 2 profiles with not one sample in them: its iterations were shorter than the time between samples (raise --profile-frequency, or the workload's length)"* ]]
	sp run pipe -p loops=100 -i 1 --monitors profile --profile-frequency 1 --name short2 -q \
		2>/dev/null
	run sp compare short short2 --profile
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == "schedperf: compare --profile: run 'short' has 2 profiles with not one sample in them"* ]]
}

@test "a user who may not sample the kernel gets a note, and the run its numbers" {
	command -v setpriv >/dev/null || skip "no setpriv"
	[ "$(id -u)" -eq 0 ] || skip "needs root to become another user"
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ] ||
		skip "kernel.perf_event_paranoid lets every user sample the kernel here"
	chmod 0777 "$TMP"
	# the knob lock's directory as /run is: this user may read it, not write it
	mkdir -m 0755 "$TMP/run"
	SCHEDPERF_TEST_RUNDIR=$TMP/run run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SP" run pipe -p loops=1000 -i 2 --monitors profile --name np --db "$TMP/np.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: profile: no profile is taken: this user may not sample the kernel (kernel.perf_event_paranoid is "*"; run as root or with CAP_PERFMON"* ]]
	[ "$(sqlite3 "$TMP/np.db" 'SELECT count(*) FROM iterations WHERE failure IS NULL')" -eq 2 ]
	[ "$(sqlite3 "$TMP/np.db" 'SELECT count(*) FROM profiles')" -eq 0 ]
}

# pounding RUNNER: the poundtime run RUNNER has started its threads.
pounding() {
	iteration_child "$1" && [ "$(ls "/proc/$child/task" 2>/dev/null | wc -l)" -ge 2 ]
}

@test "profile-system: a getppid loop beside the workload shows in compare --profile" {
	[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 0 ] ||
		skip "this user may not sample whole CPUs"
	exec {lock}>"$GETPPID_LOCK"
	flock "$lock"
	sp run pipe -p loops=20000 -i 2 --monitors profile-system --profile-frequency 1000 \
		--name quiet -q 2>/dev/null
	# the loop: poundtime's threads in a run of their own, not the workload's tasks
	"$SP" --db "$TMP/loop.db" run poundtime -p call=getppid -p threads=2 \
		-p calls=1000000000 -i 1 --no-monitors -q 2>/dev/null &
	loop=$!
	wait_for pounding "$loop"
	sp run pipe -p loops=20000 -i 2 --monitors profile-system --profile-frequency 1000 \
		--name busy -q 2>"$TMP/err"
	sp run pipe -p loops=20000 -i 2 --monitors profile --profile-frequency 1000 \
		--name tasks -q 2>/dev/null
	iteration_child "$loop" && kill -KILL -- "-$group"
	kill -KILL "$loop"
	wait "$loop" || true
	grep -q "profile-system: .* call chains of every task" "$TMP/err"
	sp compare quiet busy --profile --top 1000000 --format json >"$TMP/c.json"
	# getppid's share rose: in the C library, and its system call in the kernel
	# (what the profiles hold of it, shown if this fails)
	json '[(s["symbol"], s["runs"]) for s in d["benchmarks"][0]["symbols"] if "getppid" in s["symbol"]]' \
		"$TMP/c.json"
	[ "$(json '[s["runs"][1]["children_change_pp"] > 0 for s in d["benchmarks"][0]["symbols"]
		if s["symbol"] == "getppid"]' "$TMP/c.json")" = "[True]" ]
	[ "$(json '[s["runs"][1]["children_change_pp"] > 0 for s in d["benchmarks"][0]["symbols"]
		if s["symbol"] == "__x64_sys_getppid"]' "$TMP/c.json")" = "[True]" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT DISTINCT scope FROM profiles ORDER BY scope")" = "$(printf 'system\ntasks')" ]
	# the workload's own profile, taken beside the same loop, holds none of it
	run sp show tasks --profile --top 1000000
	[ "$status" -eq 0 ]
	[[ "$output" != *getppid* ]]
	flock -u "$lock"
	# one profiler at a time
	run sp run pipe -p loops=10 -i 1 --monitors profile,profile-system --name both
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "show and compare --profile escape a stored symbol's, DSO's or event's control characters" {
	"$PYTHON" - "$TMP/p.json" <<-'EOF'
	import json, sys
	def run(name, day, share):
	    return {"name": name, "started": "2020-09-%02dT10:00:00Z" % day, "complete": True,
	            "environment": {},
	            "benchmarks": [{"workload": "tool", "params": {},
	              "metrics": [{"name": "ops", "unit": "ops/s", "better": "higher",
	                           "samples": [896, 877]}],
	              "profiles": [{"seq": 0, "extra": False, "event": "cpu-clock",
	                "scope": "tasks", "frequency": 1000, "samples": 8, "lost": 0,
	                "total": 8000000,
	                "symbols": [{"name": "main", "dso": "tool", "self": 0,
	                             "children": 8000000},
	                            {"name": "evil", "dso": "evil.so", "self": share,
	                             "children": share}]}]}]}
	json.dump({"schema": "schedperf-results/1",
	           "runs": [run("one", 1, 2000000), run("two", 2, 4000000)]},
	          open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/p.json"
	# a store another program wrote: import refuses such names
	sqlite3 "$SCHEDPERF_DB" "UPDATE profile_symbols SET name = 'ev' || char(27) || '[2J' ||
		char(10) || 'IL', dso = 'e' || char(13) || '.so' WHERE name = 'evil';
		UPDATE profiles SET event = 'cpu' || char(27) || '[1m'"
	for cmd in "show one --profile" "compare one two --profile"; do
		run sp $cmd
		[ "$status" -eq 0 ]
		refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' <<<"$output"
		[[ "$output" == *'  ev\x1b[2J\x0aIL  e\x0d.so'* ]]
		[[ "$output" == *'1 profile of timed iterations, cpu\x1b[1m, 8 samples'* ]]
	done
	# one row for the symbol in both runs, JSON its name as stored
	sp compare one two --profile --format json >"$TMP/c.json"
	[ "$(json '[(s["symbol"], s["dso"]) for s in d["benchmarks"][0]["symbols"]]' \
		"$TMP/c.json")" = "[('ev\\x1b[2J\\nIL', 'e\\r.so'), ('main', 'tool')]" ]
}

# two_workloads: runs one and two, each with a workload spelt "w\x1b" (the
# text) and one holding a real ESC (a store another program wrote: import
# refuses it), each profile's samples all in its own symbol.
two_workloads() {
	"$PYTHON" - "$TMP/p.json" <<-'EOF'
	import json, sys
	def bench(workload, symbol):
	    return {"workload": workload, "params": {},
	            "metrics": [{"name": "ops", "unit": "ops/s", "better": "higher",
	                         "samples": [896, 877]}],
	            "profiles": [{"seq": 0, "extra": False, "event": "cpu-clock",
	              "scope": "tasks", "frequency": 1000, "samples": 8, "lost": 0,
	              "total": 8000000,
	              "symbols": [{"name": symbol, "dso": "tool", "self": 8000000,
	                           "children": 8000000}]}]}
	def run(name, day):
	    return {"name": name, "started": "2020-09-%02dT10:00:00Z" % day, "complete": True,
	            "environment": {},
	            "benchmarks": [bench("w\\x1b", "text_sym"), bench("wESC", "esc_sym")]}
	json.dump({"schema": "schedperf-results/1", "runs": [run("one", 1), run("two", 2)]},
	          open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/p.json"
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET workload = 'w' || char(27)
		WHERE workload = 'wESC'"
}

@test "compare --profile --workload takes a workload as stored or as show prints it" {
	two_workloads
	# as show prints it: both, each its own benchmark
	run sp compare one two --profile --workload 'w\x1b'
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' <<<"$output"
	[[ "$output" == *text_sym* ]]
	[[ "$output" == *esc_sym* ]]
	[[ "$output" != *50.0* ]] || { echo "$output"; false; }
	# as stored: the ESC one only
	run sp compare one two --profile --workload $'w\e'
	[ "$status" -eq 0 ]
	[[ "$output" == *esc_sym* ]]
	[[ "$output" != *text_sym* ]]
	run sp compare one two --profile --workload 'w\x1c'
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "show --profile pairs a run's benchmarks by the names as stored, escapes to show" {
	two_workloads
	# two benchmarks, each its symbol whole: never pooled at 50 % each
	run sp show one --profile
	[ "$status" -eq 0 ]
	refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' <<<"$output"
	[[ "$output" != *50.0* ]] || { echo "$output"; false; }
	[ "$(grep -c '100.00.*text_sym' <<<"$output")" -eq 1 ] || { echo "$output"; false; }
	[ "$(grep -c '100.00.*esc_sym' <<<"$output")" -eq 1 ] || { echo "$output"; false; }
}
