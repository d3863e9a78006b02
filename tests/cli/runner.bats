#!/usr/bin/env bats
# The runner: plans, timeouts, retries, affinity, kill -9 and --resume.

load helpers

iterations() {	# iterations [WHERE]: iterations in the store
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations ${1:+WHERE $1}"
}

@test "--dry-run prints one benchmark a line and stores nothing" {
	run sp run pipe -p loops=1000,2000 -p mode=process,thread -i 3 --warmup 1 --dry-run
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "pipe loops=1000 mode=process cpus=any" ]
	[ "${lines[3]}" = "pipe loops=2000 mode=thread cpus=any" ]
	[[ "${lines[4]}" == "4 benchmarks, 16 iterations in all"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	run sp run messaging -p groups=2 --dry-run --assume-cpus 64
	[ "$status" -eq 0 ]
	[[ "$output" == *"at most 80 tasks"*"planned for 64 CPUs"* ]]
	run sp run pipe --assume-cpus 64
	[ "$status" -eq 2 ]
	assert_one_line_error
	# a benchmark listed twice (here 100 and its spelling +100) is planned once
	run sp run pipe -p loops=100,200,+100 -p cpus=same,same --dry-run
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "pipe loops=100 mode=process cpus=same" ]
	[ "${lines[1]}" = "pipe loops=200 mode=process cpus=same" ]
	[[ "${lines[2]}" == "2 benchmarks, "* ]]
}

@test "--timeout: a hung iteration is killed with its group and recorded as failed" {
	# --db on the command line: this test's own path names its processes
	run sp --db "$SCHEDPERF_DB" run pipe -p loops=100000000 -i 2 --timeout 0.3 --name t
	# every iteration failed: nothing was measured
	[ "$status" -eq 1 ]
	[[ "$output" == *"timed out after 0.3 s"* ]]
	[ "$(iterations "failure LIKE 'timed out%'")" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM samples')" -eq 0 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
	# SIGKILLed, the group's tasks go at once; the partner of the pipe,
	# not the runner's child, is reaped by init in its own time
	wait_for no_process_has "$SCHEDPERF_DB"
}

@test "--retries: a failed iteration is attempted again and every attempt stored" {
	run sp run pipe -p loops=100000000 -i 1 --timeout 0.2 --retries 2 --name r
	[ "$status" -eq 1 ]
	[ "$(iterations)" -eq 3 ]
	[[ "$output" == *"retrying"* ]]
}

# failing_calls CALLS...: a command for the command workload whose calls
# CALLS (counted from 1, in $TMP/count) fail, exit 1; the others print "value: N".
failing_calls() {
	rm -f "$TMP/count"
	cat >"$TMP/cmd" <<EOF
#!/bin/sh
n=\$(cat "$TMP/count" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n >"$TMP/count"
for f in $*; do [ \$n -ne \$f ] || exit 1; done
echo "value: \$n"
EOF
	chmod +x "$TMP/cmd"
}

# warnings_of NAME ARGS...: run NAME of the failing command with ARGS; its warnings.
warnings_of() {
	local name=$1

	shift
	sp run command -p "cmd=$TMP/cmd" -p 'metric_regex=value: ([0-9]+)' --name "$name" \
		--no-monitors "$@" 2>&1 >/dev/null | grep 'warning:'
}

@test "--retries: warnings tell an iteration from its attempts; a retry is no iteration" {
	local why='the program exited with status 1'

	# iteration 2 fails once, iteration 3 every attempt: 4 failed of 6 attempts
	failing_calls 2 4 5 6
	run warnings_of r -i 3 --retries 2
	[ "$output" = "schedperf: warning: command iteration 2 of 3 failed (attempt 1 of 3): $why; retrying
schedperf: warning: command iteration 3 of 3 failed (attempt 1 of 3): $why; retrying
schedperf: warning: command iteration 3 of 3 failed (attempt 2 of 3): $why; retrying
schedperf: warning: command iteration 3 of 3 failed (attempt 3 of 3): $why
schedperf: warning: 1 of 3 iterations failed, after 4 failed attempts in all (the failed attempts are stored as failures; see 'schedperf show r')" ]
	# every iteration succeeds in the end
	failing_calls 1 3
	run warnings_of s -i 2 --retries 1
	[ "$output" = "schedperf: warning: command iteration 1 of 2 failed (attempt 1 of 2): $why; retrying
schedperf: warning: command iteration 2 of 2 failed (attempt 1 of 2): $why; retrying
schedperf: warning: 2 attempts failed and were retried; all 2 iterations succeeded (the failed attempts are stored as failures; see 'schedperf show s')" ]
	# no retries: an attempt is its iteration; warm-ups are counted first
	failing_calls 3
	run warnings_of t -i 2 --warmup 1
	[ "$output" = "schedperf: warning: command iteration 3 of 3 failed: $why
schedperf: warning: 1 of 3 iterations failed (they are stored as failures; see 'schedperf show t')" ]
}

# group_affinities PGID: the CPU list each task (every thread) of the group
# may use, but its leader's: the guardian, not a task of the workload.
group_affinities() {
	local pid
	for pid in $(pgrep -g "$1"); do
		[ "$pid" != "$1" ] || continue
		grep -h '^Cpus_allowed_list:' /proc/"$pid"/task/*/status 2>/dev/null | cut -f2
	done
}

# group_has N PGID: the group has N tasks (threads) or more.
group_has() {
	[ "$(group_affinities "$2" | wc -l)" -ge "$1" ]
}

@test "--cpus pins the workload's tasks" {
	local cpu
	# the last CPU this test may use, so that CPU 0 by default cannot pass
	cpu=$("$PYTHON" -c 'import os; print(max(os.sched_getaffinity(0)))')
	run sp run pipe -p loops=1000 -p cpus=cross -i 1 --cpus "$cpu" --name c
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"'cross' needs two CPUs but its tasks may run on only one"* ]]
	# refused before anything is stored: no store, and in a store no run c
	[ ! -e "$SCHEDPERF_DB" ]
	sp run pipe -p loops=100 -i 1 --name other -q
	run sp run pipe -p loops=1000 -p cpus=cross -i 1 --cpus "$cpu" --name c
	[ "$status" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM runs WHERE name = 'c'")" -eq 0 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
	# Every task of a running iteration, the pipe's partner process and
	# every thread too, may run on that CPU alone.
	for mode in process thread; do
		"$SP" run pipe -p loops=100000000 -p mode=$mode -i 1 --cpus "$cpu" --name "c$mode" \
			--quiet &
		pid=$!
		wait_for iteration_child $pid
		# the second side exists once the child has pinned itself and started
		wait_for group_has 2 "$group"
		[ "$(group_affinities "$group" | sort -u)" = "$cpu" ] ||
			{ group_affinities "$group"; kill -INT $pid; return 1; }
		kill -INT $pid
		rc=0
		wait $pid || rc=$?
		[ "$rc" -eq 130 ]
	done
	# and where they ran: twelve new tasks first ran on one CPU, all of them
	sp run forkspread -p tasks=12 -p mode=process -i 2 --cpus "$cpu" --name spread --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT group_concat(m.name || '=' || s.value, ' ')
		FROM samples s JOIN metrics m ON m.id = s.metric_id
		WHERE m.name IN ('cpus_first_run', 'cpus_after_wake', 'max_first_run_per_cpu')
		GROUP BY s.iteration_id" | sort -u)" = \
		"cpus_first_run=1.0 cpus_after_wake=1.0 max_first_run_per_cpu=12.0" ]
	run sp run pipe --cpus 99999
	[ "$status" -eq 2 ]
	run sp run pipe --cpus 3-1
	[ "$status" -eq 2 ]
}

@test "--shuffle runs every benchmark once, in some order" {
	sp run pipe -p loops=1000,1001,1002,1003 -i 1 --shuffle --name s --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(DISTINCT params) FROM benchmarks')" -eq 4 ]
	[ "$(iterations)" -eq 4 ]
}

@test "kill -9 leaves whole iterations; --resume runs exactly the missing ones" {
	# short iterations: stopped wherever it is once three are stored (SIGSTOP,
	# waited for), it cannot finish before the kill, however quick they are
	"$SP" run pipe -p loops=3000 -p mode=process,thread -i 6 --warmup 1 --name k --quiet &
	pid=$!
	kill9_after 3 $pid
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 0 ]
	before=$(iterations)
	[ "$before" -ge 3 ]
	[ "$before" -lt 14 ]
	# whole iterations only: every stored iteration has all its samples
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations i WHERE (SELECT count(*) FROM samples s WHERE s.iteration_id = i.id) != (SELECT count(*) FROM metrics m WHERE m.benchmark_id = i.benchmark_id)')" -eq 0 ]
	run sp run --resume --name k --dry-run
	[[ "${lines[2]}" == "2 benchmarks, 14 iterations in all (warm-ups included), $((14 - before)) of them missing,"* ]] || { echo "$output"; false; }
	run sp run --resume --name k --quiet
	[ "$status" -eq 0 ]
	[ "$(iterations)" -eq 14 ]
	[ "$(iterations 'warmup = 1')" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
	run sp run --resume --name k
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "SIGTERM: exit 143, completed iterations kept, resumable" {
	"$SP" run pipe -p loops=2000 -i 8 --name term --quiet &
	pid=$!
	# the signal arrives while it is stopped: delivered when it goes on
	wait_stopped_after 1 $pid
	kill -TERM $pid
	kill -CONT $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 143 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 0 ]
	[ "$(iterations)" -ge 1 ]
	[ "$(iterations)" -lt 8 ]
	sp run --resume --name term --quiet
	[ "$(iterations)" -eq 8 ]
}

@test "--resume refuses a plan given again" {
	run sp run pipe --resume
	[ "$status" -eq 2 ]
	assert_one_line_error
	# a 0 given is given: --warmup 0 is no less a plan than --warmup 1
	for option in "--retries 1" "--cpus 0" "-p loops=5" "--monitors none" "-i 2" \
		      "--warmup 1" "--timeout 9" "--shuffle" "--rerun-disturbed 1" \
		      "--warmup 0" "--retries 0" "--rerun-disturbed 0" "--warmup=0" \
		      "--max-interference 100" "--max-interference 0" "--quiet-wait 0"; do
		run sp run --resume $option
		[ "$status" -eq 2 ] || { echo "$option: $status"; return 1; }
		assert_one_line_error
		[[ "$output" == *"stored plan"* ]] || { echo "$option: $output"; return 1; }
	done
	# the message names every option refused, --sweep among them
	run sp run --resume --sweep loops=pow2:1..4
	[ "$status" -eq 2 ]
	[[ "$output" == *"WORKLOAD, -p, --sweep, --suite,"* ]] || { echo "$output"; false; }
	# its dry run's plan was made for its machine's CPUs: none other is assumed
	run sp run --resume --dry-run --assume-cpus 4
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"--assume-cpus: --resume runs the stored plan"* ]] || { echo "$output"; false; }
}

@test "--resume -i is refused, nothing run; --resume then runs the stored plan's iterations" {
	# never disturbed (none is above 100 %), so never rerun: 6 iterations in all
	"$SP" run command -p shell=1 -p 'cmd=sleep 0.2; echo value: 1' \
		-p 'metric_regex=value: ([0-9]+)' -i 6 --rerun-disturbed 2 --max-interference 100 --name rr --quiet &
	pid=$!
	kill9_after 1 $pid
	before=$(iterations)
	[ "$before" -lt 6 ]
	run sp run --resume --name rr -i 2
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"-iterations"* ]]
	[ "$(iterations)" -eq "$before" ]
	# its dry run says what it would run: the iterations missing
	run sp run --resume --name rr --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == "1 benchmark, 6 iterations in all (warm-ups included), $((6 - before)) of them missing, which --resume runs;"* ]] || { echo "$output"; false; }
	[ "$(iterations)" -eq "$before" ]
	# --max-interference is the plan's: refused again, and kept
	run sp run --resume --name rr --max-interference 100
	[ "$status" -eq 2 ]
	[[ "$output" == *"--max-interference"* ]]
	sp run --resume --name rr --quiet
	[ "$(iterations)" -eq 6 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
	# kept with the plan, so that the resumed iterations ran as the others
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT plan FROM batches" | "$PYTHON" -c \
		'import json, sys; p = json.load(sys.stdin); print(p["iterations"], p["rerun_disturbed"], p["max_interference"])')" = "6 2 100.0" ]
}

@test "monitors: counters of a pipe run match its loop count; absent is never zero" {
	sp run pipe -p loops=20000 -p cpus=same -i 2 --name mon --monitors all --quiet
	metric() { sqlite3 "$SCHEDPERF_DB" "SELECT min(s.value) FROM samples s JOIN metrics m ON m.id = s.metric_id WHERE m.name = '$1'"; }
	# Both sides on one CPU: each of a round trip's two turns of the
	# ping-pong switches away from the side whose turn ends, however fast
	# the machine (counted on the child, the partner's folded in when it
	# exits); other tasks can only add switches. The machine's count,
	# read just outside the counter's window, holds every one of them
	# (a switch under way on each CPU as the window opens aside).
	"$PYTHON" - "$SCHEDPERF_DB" <<'PY'
import os, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute(
    "SELECT s.iteration_id, m.name, s.value FROM samples s JOIN metrics m ON m.id = s.metric_id"
    " WHERE m.name IN ('context_switches', 'stat.ctxt')").fetchall()
per = {}
for it, name, value in rows:
    per.setdefault(it, {})[name] = value
assert len(per) == 2, per
for it, v in per.items():
    assert v["context_switches"] >= 2 * 20000 - 1, v
    assert v["context_switches"] <= v["stat.ctxt"] + os.cpu_count(), v
PY
	[ -n "$(metric task_clock_ms)" ]
	[ -n "$(metric stat.ctxt)" ]
	# every monitor metric is defined; unsupported ones have no samples, never zeros
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM metrics WHERE name = 'cycles'")" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM samples s JOIN metrics m ON m.id = s.metric_id WHERE m.name = 'cycles' AND s.value = 0")" -eq 0 ]
	if [ ! -e /proc/schedstat ]; then
		[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM metrics WHERE source = 'schedstat'")" -eq 0 ]
	fi
	sp run pipe -p loops=2000 -i 1 --name default --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM metrics m JOIN benchmarks b ON b.id = m.benchmark_id JOIN batches t ON t.id = b.batch_id JOIN runs r ON r.id = t.run_id WHERE r.name = 'default' AND m.source = 'perf'")" -eq 0 ]
	sp run pipe -p loops=2000 -i 1 --name none --no-monitors --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(DISTINCT m.source) FROM metrics m JOIN benchmarks b ON b.id = m.benchmark_id JOIN batches t ON t.id = b.batch_id JOIN runs r ON r.id = t.run_id WHERE r.name = 'none'")" -eq 2 ]
	run sp run pipe --monitors bogus
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "monitors: all and none stand alone, an empty list or name is refused, each said so" {
	local list want known="(give a comma list of perf, vmstat, stat, softirqs, schedstat, $(
		)cpufreq, profile, profile-system, or all or none alone"
	while IFS='|' read -r list want; do
		run sp run pipe --dry-run --monitors "$list"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == "schedperf: --monitors$want $known"* ]] ||
			{ echo "$list: $output"; false; }
	done <<-'EOF2'
	all,none| 'all,none': all stands alone, never in a list with other names
	perf,none| 'perf,none': none stands alone, never in a list with other names
	| '': an empty list
	perf,,stat| 'perf,,stat': an empty name in the list
	,| ',': an empty name in the list
	bogus|: unknown monitor 'bogus'
	EOF2
	for list in all none perf,stat; do
		sp run pipe --dry-run --monitors "$list" >/dev/null
	done
}

# fails_all ARGS...: a run of the command workload none of whose iterations
# succeeds: exit 1, its last line saying so, and not the warning of a partial failure.
fails_all() {
	local name=f$((++nr_failing))

	run sp run command "$@" --name "$name" --no-monitors -q
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "schedperf: run '$name': no iteration succeeded, so nothing was measured; the last failed: "*" (see 'schedperf show $name' for why each failed, and fix the workload or its parameters)" ]]
	refute grep -q "iterations failed (they are stored" <<<"$output"
}

@test "a run none of whose iterations succeeded exits 1 saying why; show and export give each failure's reason" {
	# each way an iteration fails: an exit status, no match of the metric, a timeout, with retries
	fails_all -p cmd=false -i 2
	[[ "${lines[-1]}" == *"the last failed: the program exited with status 1 (see"* ]]
	fails_all -p cmd=true -p 'metric_regex=([0-9]+)' -i 2
	fails_all -p 'cmd=sleep 5' --timeout 0.05 -i 1 --retries 1
	[[ "${lines[-1]}" == *"the last failed: timed out after 0.05 s"* ]]
	fails_all -p cmd=false -i 1 --warmup 1
	# some succeeded: exit 0 and a warning
	run sp run command -p "cmd=sh -c \"test -e $TMP/ok || { touch $TMP/ok; exit 3; }\"" -i 2 \
		--name some --no-monitors -q
	[ "$status" -eq 0 ]
	[[ "$output" == *"warning: 1 of 2 iterations failed"* ]]
	# show: a line per reason, with how many failed so
	sp run command -p 'cmd=false' -i 2 --name why --no-monitors -q || true
	run sp show why
	[ "$status" -eq 0 ]
	[[ "$output" == *"(2 failed iterations)"$'\n'"    2 failed: the program exited with status 1"$'\n'* ]]
	run sp show some
	[[ "$output" == *"(1 failed iterations)"$'\n'"    1 failed: the program exited with status 3"$'\n'* ]]
	# export carries each reason; import keeps it; export again is the same
	sp export why some >"$TMP/f.json"
	[ "$(json 'd["runs"][0]["benchmarks"][0]["failures"]' "$TMP/f.json")" = "['the program exited with status 1', 'the program exited with status 1']" ]
	SCHEDPERF_DB="$TMP/copy.db" sp import "$TMP/f.json"
	SCHEDPERF_DB="$TMP/copy.db" sp export why some | cmp - "$TMP/f.json"
	SCHEDPERF_DB="$TMP/copy.db" run sp show some
	[[ "$output" == *"    1 failed: the program exited with status 3"* ]]
	# a file of an earlier schedperf (the count only) imports as before
	"$PYTHON" -c 'import json, sys; d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    for b in r["benchmarks"]:
        b.pop("failures", None)
json.dump(d, open(sys.argv[2], "w"))' "$TMP/f.json" "$TMP/old.json"
	SCHEDPERF_DB="$TMP/old.db" sp import "$TMP/old.json"
	SCHEDPERF_DB="$TMP/old.db" run sp show why
	[[ "$output" == *"    2 failed: imported failure"* ]]
	# reasons that do not match the count, or are not text, are refused
	for edit in 'b["failures"] = ["x"]' 'b["failures"] = "x"' 'b["failures"] = [1, 2]' \
		    'b["failures"] = ["", "x"]' 'b["failures"] = ["x" * 1025, "x"]' 'b.pop("failed_iterations")'; do
		"$PYTHON" -c "import json, sys; d = json.load(open(sys.argv[1])); b = d['runs'][0]['benchmarks'][0]; $edit; json.dump(d, open(sys.argv[2], 'w'))" "$TMP/f.json" "$TMP/bad.json"
		SCHEDPERF_DB="$TMP/bad.db" run sp import "$TMP/bad.json"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[ ! -e "$TMP/bad.db" ]
	done
}

@test "a crashed iteration is one failed iteration, not a failed run" {
	# The first benchmark's iteration takes minutes: it is still running
	# when found. The runner is stopped meanwhile, wherever it is (even
	# before the iteration has been told to start), and finds its child
	# dead when it goes on.
	"$SP" run pipe -p loops=100000000,1000 -i 1 --name crash --quiet &
	pid=$!
	wait_for iteration_child $pid
	wait_stopped_after 0 $pid
	kill -SEGV "$child"
	# its holder reaps it at once, the runner stopped or not
	wait_for all_gone "$child"
	kill -CONT $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 0 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations WHERE failure LIKE 'killed by signal 11%'")" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations WHERE failure IS NULL")" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
}

@test "a killed holder fails its iteration, stores no usage and takes the iteration with it" {
	local holder

	# the iteration would take 30 s: the run ends long before, with it
	"$SP" run command -p 'cmd=sleep 30' -i 1 --name holder --quiet 3>&- &
	pid=$!
	wait_for iteration_child $pid
	holder=$(stat_field "$child" 4)
	[ -n "$holder" ]
	[ "$holder" != "$pid" ]
	kill -KILL "$holder"
	wait_for all_gone "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 1 ]
	all_gone "$child"
	[ "$(iterations "failure LIKE 'its holder was killed by signal 9%'")" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM samples s JOIN metrics m
	     ON m.id = s.metric_id WHERE m.name IN ('user', 'system', 'voluntary_csw',
	     'minor_faults', 'wall')")" -eq 0 ]
}

# kill_task RUNNER SIGNAL [READY]: kill with SIGNAL the last task of the
# workload (a child of its iteration's process) that the run RUNNER runs,
# once that iteration is not the one a kill hit last ($hit) and READY
# ITERATION_PROCESS TASK, when given, says it runs; fails until then, or
# until the run has ended.
kill_task() {
	local task

	# a run that ended (of the first kill: a defect) gives up at once
	! all_gone "$1" || return 0
	iteration_child "$1" || return 1
	[ "$child" != "${hit:-}" ] || return 1
	task=$(pgrep -P "$child" | tail -1)
	[ -n "$task" ] || return 1
	[ -z "${3:-}" ] || "$3" "$child" "$task" || return 1
	kill -"$2" "$task" || return 1
	hit=$child
}

# reaping PROCESS TASK: PROCESS waits for its tasks (they were let go).
reaping() {
	[ "$(cat "/proc/$1/wchan" 2>/dev/null)" = do_wait ]
}

# has_run PROCESS TASK: TASK has taken CPU time (20 ms), so it was let go.
has_run() {
	[ "$(stat_field "$2" 14)" -ge 2 ] 2>/dev/null
}

# count_where CONDITION: how many stored iterations meet CONDITION.
count_where() {
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations WHERE $1"
}

# killed_in_both_attempts WORKLOAD SIGNAL READY REASON ARGS...: a run of
# WORKLOAD whose first benchmark runs until it is killed: a task of it is
# killed with SIGNAL (kill_task) in its iteration and again in the retry.
# Both attempts are failures stored with REASON (a LIKE pattern), the next
# benchmark runs, and the run ends with 0.
killed_in_both_attempts() {
	local workload=$1 sig=$2 ready=$3 reason=$4

	shift 4
	hit=
	SCHEDPERF_DB=$TMP/$workload.db
	"$SP" run "$workload" "$@" -i 1 --retries 1 --name k --no-monitors \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	runner=$!
	wait_for kill_task $runner "$sig" "$ready"
	wait_for kill_task $runner "$sig" "$ready"
	runner_ends 0
	grep -q "retrying" "$TMP/err"
	grep -q "1 of 2 iterations failed, after 2 failed attempts in all" "$TMP/err"
	[ "$(count_where "failure LIKE '$reason'")" -eq 2 ] ||
		{ sqlite3 "$SCHEDPERF_DB" 'SELECT failure FROM iterations'; return 1; }
	[ "$(count_where 'failure IS NULL')" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
}

@test "a task of a workload killed is a failed iteration, retried, and the run goes on" {
	# two senders and two receivers: the others than the one killed are
	# still killed with it, and the iteration gets to its reaping in a
	# third of the time 20 of each take on a loaded machine
	killed_in_both_attempts messaging 9 reaping \
		'messaging: a % was killed by signal 9 (Killed)' \
		-p groups=1 -p fds=2 -p ipc=pipe -p loops=10000000,1
	killed_in_both_attempts pipe SEGV '' \
		'pipe: a partner task was killed by signal 11 (%)' -p loops=1000000000,10
	killed_in_both_attempts tcp-rr 9 reaping 'tcp-rr: a % was killed by signal 9 (Killed)' \
		-p transactions=1000000000,10
	killed_in_both_attempts reaim 9 has_run \
		'reaim: a user was killed by signal 9 (Killed); 1 of 1 users ended without a %' \
		-p users=1 -p jobs=100000,1
}

@test "--sweep generators and percent values plan the points MMTests and LKP would" {
	points() { sp run poundtime "$@" --dry-run | grep '^poundtime' | sed 's/.*threads=\([0-9]*\).*/\1/' | tr '\n' ' '; }
	[ "$(points --sweep threads=stride:2..4x --assume-cpus 32)" = "2 5 8 12 21 30 48 79 110 128 " ]
	[ "$(points --sweep threads=pow2:1..4x --assume-cpus 4)" = "1 2 4 8 16 " ]
	[ "$(points --sweep threads=topology:1..2x --assume-cpus 8)" = "1 8 16 " ]
	[ "$(points -p threads=1600% --assume-cpus 8)" = "128 " ]
	[ "$(points -p threads=50%,2x --assume-cpus 8)" = "4 16 " ]
	run sp run poundtime --sweep threads=nosuch --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp run poundtime --sweep threads=stride:9..3 --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	# a sweep of a parameter that is no count is said to be one
	run sp run poundtime --sweep call=pow2 --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"bad sweep 'call=pow2': parameter 'call' is a choice, and a sweep $(
		)makes counts (give its values as a list: -p call=A,B)" ]]
	run sp run command --sweep cmd=stride --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"parameter 'cmd' is text, and a sweep makes counts"* ]]
}

@test "a -p value given as a share of the CPUs is named as given in the error it meets" {
	run sp run poundtime -p calls=50% --dry-run --assume-cpus 2
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ "$output" = "schedperf: bad value for parameter 'calls': 1 call cannot be split over $(
		)2 threads; -p calls=50% is calls=1 on 2 CPUs (give calls >= threads)" ]
	run sp run poundtime -p threads=3x -p calls=2 --dry-run --assume-cpus 2
	[ "$status" -eq 2 ]
	[[ "$output" == *"; -p threads=3x is threads=6 on 2 CPUs (give calls >= threads)" ]]
	run sp run messaging -p groups=20000x --dry-run --assume-cpus 2
	[ "$status" -eq 2 ]
	[[ "$output" == *"; -p groups=20000x is groups=40000 on 2 CPUs (give -p groups=N "* ]]
	# only the values the error is about
	run sp run pipe -p loops=2x,1 -p mode=bogus --dry-run --assume-cpus 2
	[ "$status" -eq 2 ]
	[[ "$output" != *"loops=2x"* ]]
	# any whole number may be a share: loops=2x is 4 loops on 2 CPUs
	run sp run pipe -p loops=2x --dry-run --assume-cpus 2
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "pipe loops=4 "* ]]
	run sp run pipe -p loops=0.1% --dry-run --assume-cpus 2
	[ "$status" -eq 2 ]
	[[ "$output" == *"bad count '0.1%' of parameter 'loops': it is 0.002 of 2 CPUs, $(
		)less than 1 (give a larger share)" ]]
}

@test "suite files: YAML with line numbers in errors; built-in suites plan" {
	cat > "$TMP/suite.yaml" <<'YAML'
- workload: pipe
  params:
    loops: [1000, 2000]
  iterations: 2
- workload: messaging
  params: {fds: 2, loops: 5}
  sweep:
    groups: "pow2:1..2"
YAML
	run sp run --suite "$TMP/suite.yaml" --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"pipe loops=1000 mode=process cpus=any"* ]]
	[[ "$output" == *"pipe loops=2000"* ]]
	[[ "$output" == *"messaging groups=2 fds=2 loops=5"* ]]
	[[ "${lines[4]}" == "4 benchmarks, 14 iterations"* ]]
	cat > "$TMP/bad.yaml" <<'YAML'
- workload: pipe
  itrations: 2
YAML
	run sp run --suite "$TMP/bad.yaml" --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"bad.yaml:2"*"itrations"* ]]
	for s in quick standard poundtime hackbench perfpipe aim9 schbench sysbench futex latency fairness; do
		run sp run --suite $s --dry-run
		[ "$status" -eq 0 ] || { echo "suite $s: $output"; return 1; }
	done
	run sp run --suite nosuch --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "ulimit -n 64: messaging needing more either raises the limit or names it, exit 3" {
	run bash -c "ulimit -n 64; '$SP' run messaging -p groups=10 -p loops=5 -p mode=thread -i 1 --name fds --quiet"
	if [ "$status" -ne 0 ]; then
		[ "$status" -eq 3 ]
		assert_one_line_error
		[[ "$output" == *"open files"*"ulimit -n"* ]]
		[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches' 2>/dev/null || echo 0)" -eq 0 ]
	else
		[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE failure IS NULL')" -eq 1 ]
	fi
}

@test "an internal error is exit 4 with one line, and the batch stays consistent" {
	# spawn's helper exits 3 where it must exit 0: not the machine's fault
	# nor the user's, so the run stops with exit 4
	mkdir "$TMP/libexec"
	printf '#!/bin/sh\nexit 3\n' > "$TMP/libexec/schedperf-exec-helper"
	chmod +x "$TMP/libexec/schedperf-exec-helper"
	sp run pipe -p loops=1000 -i 1 --name before --quiet
	SCHEDPERF_LIBEXEC="$TMP/libexec" run sp run spawn -p count=5 -i 2 --name broken --quiet
	[ "$status" -eq 4 ]
	assert_one_line_error
	[[ "$output" == *"5 of 5"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT group_concat(r.name || ':' || b.complete, ' ')
		FROM batches b JOIN runs r ON r.id = b.run_id ORDER BY b.id")" = "before:1 broken:0" ]
	[ "$(iterations)" -eq 1 ]
	# without a helper at all, the machine lacks something: exit 3
	SCHEDPERF_LIBEXEC="$TMP/nowhere" run sp run spawn -p count=5 -i 1 --name missing --quiet
	[ "$status" -eq 3 ]
	assert_one_line_error
}

@test "an installed schedperf finds its helper in libexec/schedperf beside its bin/" {
	# as make install PREFIX=... lays them out, whatever PREFIX the build had
	mkdir -p "$TMP/p/bin" "$TMP/p/libexec/schedperf"
	cp "$SP" "$TMP/p/bin/schedperf"
	# missing, the error names where it would be
	SCHEDPERF_LIBEXEC= run "$TMP/p/bin/schedperf" run spawn -p count=5 -i 1 --name none
	[ "$status" -eq 3 ]
	[[ "$output" == *"not in $TMP/p/bin, $TMP/p/libexec/schedperf nor in "* ]]
	cp "$(dirname "$SP")/schedperf-exec-helper" "$TMP/p/libexec/schedperf/"
	SCHEDPERF_LIBEXEC= run "$TMP/p/bin/schedperf" run spawn -p count=5 -i 1 --warmup 0 \
		--name installed --quiet
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[ "$(iterations)" -eq 1 ]
}

# per_benchmark: "position:warm-ups/measured/failed" for each benchmark of the store.
per_benchmark() {
	sqlite3 "$SCHEDPERF_DB" "SELECT group_concat(k, ' ') FROM (SELECT b.position || ':' ||
		sum(i.warmup = 1 AND i.failure IS NULL) || '/' || sum(i.warmup = 0 AND i.failure IS NULL)
		|| '/' || sum(i.failure IS NOT NULL) AS k
		FROM benchmarks b JOIN iterations i ON i.benchmark_id = b.id
		GROUP BY b.id ORDER BY b.position)"
}

# (The first entry's iterations, some 0.1 s each, are a few of the 50 ms
# polls that stop the run after its first: the kill lands in that entry.)
@test "--resume of a suite keeps each entry's own iterations, warm-ups and timeout" {
	cat > "$TMP/suite.yaml" <<'YAML'
- workload: pipe
  params: {loops: 10000}
  iterations: 3
  warmup: 1
- workload: pipe
  params: {loops: 5000, mode: thread}
  iterations: 2
- workload: pipe
  params: {loops: 100000000}
  iterations: 1
  timeout: 0.3
- workload: messaging
  params: {groups: 1, fds: 2, loops: 10}
YAML
	"$SP" run --suite "$TMP/suite.yaml" -i 4 --name s --quiet &
	pid=$!
	kill9_after 1 $pid
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 0 ]
	run sp run --resume --name s --quiet
	[ "$status" -eq 0 ]
	# 1 warm-up and 3 measured; 2; 1 that timed out (after 0.3 s, not the
	# hours 10^8 round trips take); the run's -i 4 where nothing overrides it
	[ "$(per_benchmark)" = "0:1/3/0 1:0/2/0 2:0/0/1 3:0/4/0" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT failure FROM iterations WHERE failure IS NOT NULL")" = \
		"timed out after 0.3 s; its process group was killed" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 1 ]
}

@test "--resume holds the plan to its stored --cpus as a new run is held to them" {
	local allowed
	allowed=$("$PYTHON" -c 'import os; print(",".join(map(str, sorted(os.sched_getaffinity(0))[:2])))')
	[[ "$allowed" == *,* ]] || skip "needs two CPUs to run on"
	# short iterations, many: the kill comes after the first, long before the last
	local first=${allowed%,*} p=(-p loops=500 -p cpus=cross)
	"$SP" run pipe "${p[@]}" -i 1000 --cpus "$allowed" --name rc --quiet &
	pid=$!
	kill9_after 1 $pid
	before=$(iterations)
	# where only one of them is allowed: refused as the new run is, for its
	# --cpus (not for what its benchmarks would then lack), nothing run
	run taskset -c "$first" "$SP" run pipe "${p[@]}" -i 1000 --cpus "$allowed" --name new
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"for --cpus: it names CPUs this process may not run on"* ]]
	expected=$output
	for dry in --dry-run ""; do
		run taskset -c "$first" "$SP" run --resume --name rc $dry
		[ "$status" -eq 2 ]
		[ "$output" = "$expected" ] || { echo "$dry: $output"; false; }
	done
	[ "$(iterations)" -eq "$before" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT group_concat(name) FROM runs')" = rc ]
	# a plan on one CPU is checked, and planned, for that one
	"$SP" run command -p shell=1 -p 'cmd=sleep 0.2; echo value: 1' \
		-p 'metric_regex=value: ([0-9]+)' -i 20 --cpus "$first" --name one --quiet &
	pid=$!
	kill9_after $((before + 1)) $pid	# the store's iterations, rc's among them
	run sp run --resume --name one --dry-run
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"; planned for 1 CPUs" ]] || { echo "$output"; false; }
}

@test "--resume runs the missing iterations with the run's --retries and --cpus" {
	local cpu
	cpu=$("$PYTHON" -c 'import os; print(max(os.sched_getaffinity(0)))')
	# the first benchmark's iterations always time out; each gets 2
	# attempts (the second has no timeout: a loaded machine may be slow)
	cat > "$TMP/suite.yaml" <<'YAML'
- workload: pipe
  params: {loops: 100000000}
  timeout: 0.3
- workload: pipe
  params: {loops: 1000}
YAML
	"$SP" run --suite "$TMP/suite.yaml" -i 2 --retries 1 --cpus "$cpu" --name rr --quiet &
	pid=$!
	kill9_after 1 $pid
	before=$(per_benchmark)
	# resumed with neither option given again: the stored plan's apply
	run sp run --resume --name rr --quiet
	[ "$status" -eq 0 ]
	# a slot without a successful iteration is run again, each with 1 + 1
	# attempts: the 1 to 3 attempts before the kill, then 2 x 2 less the
	# attempt the slot cut short in the middle (1 or 3 before) had used
	"$PYTHON" - "$before" "$(per_benchmark)" <<'PY'
import sys
before = int(sys.argv[1].split()[0].split("/")[2])
after = sys.argv[2].split()
assert after == ["0:0/0/%d" % (before + 4 - before % 2), "1:0/2/0"], (sys.argv[1], after)
PY
	# the resumed iterations ran on the same CPU
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT plan FROM batches" | "$PYTHON" -c \
		'import json, sys; p = json.load(sys.stdin); print(p["cpus"], p["retries"])')" = "$cpu 1" ]
}

# the stored attempts of the slot a kill cut short count against its
# --retries on --resume: no fresh budget for it
@test "--resume goes on with the attempts the interrupted slot had used" {
	local runner group
	gated_run -i 2 --retries 2 --no-monitors --name g
	# slot 1 fails twice; its third and last attempt is under way at the kill
	wait_for arrived 1
	let_go 1 1
	wait_for arrived 2
	let_go 2 1
	wait_for arrived 3
	wait_stopped_after 2 "$runner"
	iteration_child "$runner"
	kill -9 "$runner"
	kill -KILL -- "-$group"
	runner_ends 137
	[ "$(iterations_where 'failure IS NOT NULL')" -eq 2 ]
	SCHEDPERF_BUSY_TIMEOUT_MS=300 "$SP" run --resume --name g -q >"$TMP/out" 2>"$TMP/err" 3>&- &
	runner=$!
	# attempt 4 is slot 1's third and last: it fails, and slot 2 comes next
	wait_for arrived 4
	let_go 4 1
	wait_for arrived 5
	let_go 5 0
	wait_for all_gone_or_arrived 6
	if arrived 6; then	# the old way: attempt 5 was slot 1's, slot 2 is 6
		let_go 6 0
		runner_ends 0
		echo "slot 1 had a fresh budget on --resume"
		false
	fi
	runner_ends 0
	[ "$(iterations_where 'failure IS NOT NULL')" -eq 3 ]
	[ "$(iterations_where 'failure IS NULL')" -eq 1 ]
}

all_gone_or_arrived() {	# all_gone_or_arrived K: $runner ended, or iteration K waits
	all_gone "$runner" || arrived "$1"
}

iterations_where() {	# iterations_where CONDITION: how many stored iterations meet it
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations WHERE $1"
}

@test "command: a metric_name every benchmark stores already is refused before any batch" {
	p=(-p 'cmd=echo v=1' -p 'metric_regex=v=(.*)')
	for name in voluntary_csw involuntary_csw minor_faults wall vmstat.pgfree \
		    cpufreq.cpu0; do
		for dry in --dry-run ""; do
			run sp run command "${p[@]}" -p metric_name=$name -i 1 --name mn $dry
			[ "$status" -eq 2 ]
			assert_one_line_error
			[[ "$output" == *"metric_name '$name' "*"; give another name"* ]]
		done
	done
	[[ "$output" == *"is a name of the cpufreq monitor's metrics"* ]]
	run sp run command "${p[@]}" -p metric_name=voluntary_csw -i 1 --name mn
	[ "$output" = "schedperf: metric_name 'voluntary_csw' is already a metric of every benchmark (voluntary context switches); give another name" ]
	run sp ab command "${p[@]}" -p metric_name=minor_faults --a param:shell=0 --b param:shell=1
	[ "$status" -eq 2 ]
	[[ "$output" == *"metric_name 'minor_faults' is already a metric"* ]]
	[ ! -e "$SCHEDPERF_DB" ] || [ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 0 ]
	# perf's counters are names of their own, taken only when the run counts them
	sp run command "${p[@]}" -p metric_name=cycles -i 1 --name ok -q
	run sp run command "${p[@]}" -p metric_name=cycles -i 1 --name mn --monitors perf
	if [ "$status" -eq 0 ]; then
		# no hardware counters here: there is no metric 'cycles' beside ours
		run sp runs
		[[ "$output" != *"mn "*"incomplete"* ]]
	else
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"metric_name 'cycles' is already a metric of every benchmark with --monitors perf"* ]]
	fi
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM batches WHERE complete = 0")" -eq 0 ]
}

@test "command: the program ends when it is reaped, though a process it left holds its output" {
	# the background sleep keeps the output pipe open; the program, sh, exits at once
	run sp run command -p "cmd=sleep 300 & echo \$! > $BATS_TEST_TMPDIR/bg; echo v=7" \
		-p shell=1 -p 'metric_regex=v=([0-9]+)' -i 1 --timeout 60 --name bg
	[ "$status" -eq 0 ]
	[[ "$output" != *"timed out"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT s.value FROM samples s JOIN metrics m
		ON m.id = s.metric_id WHERE m.name = 'value'")" = 7.0 ]
	# what the program left in its group went with the iteration
	wait_for all_gone "$(cat "$BATS_TEST_TMPDIR/bg")"
}

@test "command: a process that left the iteration's group ends with the iteration too" {
	local f=$BATS_TEST_TMPDIR/sid

	# setsid: a session and group of its own, which killing the group misses;
	# the program waits until the sleeper has said who it is, then exits
	sp run command -p "cmd=setsid sh -c 'echo \$\$ > $f.new; mv $f.new $f; exec sleep 300' &
		until [ -s $f ]; do sleep 0.01; done" -p shell=1 -i 1 --timeout 60 --name sid -q
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE failure IS NULL')" -eq 1 ]
	wait_for all_gone "$(cat "$f")"
}

# escaping_cmd FILE: a command workload's program that starts a sleeper in a
# session of its own (setsid: out of the iteration's group, which killing
# the group misses), waits until the sleeper wrote its pid to FILE, and
# hangs. The sleeper holds none of bats' files.
escaping_cmd() {
	echo "cmd=setsid sh -c 'echo \$\$ > $1.new; mv $1.new $1; exec sleep 300' \
		</dev/null >/dev/null 2>&1 3>&- & until [ -s $1 ]; do sleep 0.01; done; exec sleep 300"
}

# start_escaping NAME: run NAME in the background, its program escaping_cmd's;
# once its sleeper has said who it is, $pid is the run's and $sleeper the
# sleeper's.
start_escaping() {
	local f=$BATS_TEST_TMPDIR/sid

	"$SP" run command -p "$(escaping_cmd "$f")" -p shell=1 -i 1 --name "$1" -q 3>&- &
	pid=$!
	until [ -s "$f" ]; do
		kill -0 "$pid" || { echo "the run ended first"; return 1; }
		sleep 0.05
	done
	sleeper=$(cat "$f")
}

# gone_or_kill PID: wait until PID has ended; past wait_for's limit, kill it
# and fail.
gone_or_kill() {
	wait_for all_gone "$1" || { kill -9 "$1"; return 1; }
}

@test "--timeout: a process that left the killed iteration's group ends with it, no other" {
	local f=$BATS_TEST_TMPDIR/sid beside

	# a process beside the run, not the iteration's: it lives on
	setsid sleep 300 </dev/null >/dev/null 2>&1 3>&- &
	beside=$!
	# the timeout comes long after the sleeper has said who it is
	run sp run command -p "$(escaping_cmd "$f")" -p shell=1 -i 1 --timeout 1 --name t
	[ "$status" -eq 1 ]
	[ "$(iterations "failure LIKE 'timed out after 1 s%'")" -eq 1 ]
	[ -s "$f" ] || { echo "the timeout came before the sleeper started"; return 1; }
	gone_or_kill "$(cat "$f")"
	! all_gone "$beside" || { echo "the process beside the run was killed"; return 1; }
	kill "$beside"
}

@test "a crashed iteration's process takes what left its group with it" {
	start_escaping crash
	wait_for iteration_child "$pid"
	kill -KILL "$child"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(iterations "failure LIKE 'killed by signal 9%'")" -eq 1 ]
	gone_or_kill "$sleeper"
}

@test "SIGKILL of schedperf: the holder takes what left the iteration's group with it" {
	start_escaping k
	kill -9 "$pid"
	wait "$pid" || true
	gone_or_kill "$sleeper"
}

@test "a task named as the cgroup reaper is not spared: it ends with its killed iteration" {
	local d=$BATS_TEST_TMPDIR/spoof

	mkdir "$d"
	cp "$(command -v sleep)" "$d/schedperf-reap"
	run sp run command -p "cmd=setsid $d/schedperf-reap 300 </dev/null >/dev/null 2>&1 &
echo \$! >$d/pid; exec sleep 300" -p shell=1 -i 1 --timeout 1 --name spoof
	[ "$status" -eq 1 ]
	[ -s "$d/pid" ]
	gone_or_kill "$(cat "$d/pid")"
}
