#!/usr/bin/env bats
# Exit status 2 promises that nothing was written: a command refused for
# its input never leaves a new store behind, not even an empty one.

load helpers

# refused_without_store ARGS...: schedperf ARGS exits 2 with one line, and
# $SCHEDPERF_DB (missing before) is still missing, with no -wal, -shm or
# temporary file beside it.
refused_without_store() {
	run sp "$@"
	[ "$status" -eq 2 ] || { echo "$*: exit $status: $output"; return 1; }
	assert_one_line_error
	[ -z "$(ls -A "$(dirname "$SCHEDPERF_DB")")" ] ||
		{ echo "$*: left $(ls -A "$(dirname "$SCHEDPERF_DB")")"; return 1; }
}

setup() {
	TMP=$(mktemp -d)
	mkdir "$TMP/store"
	export SCHEDPERF_DB="$TMP/store/new.db"
	SP="$SCHEDPERF"
}

@test "a refused import, resume, cancel, submit or worker leaves no new store" {
	local run='{"name": "a", "started": "2026-01-01T00:00:00Z", "complete": true,
		    "environment": {}, "benchmarks": [{"workload": "w", "params": {},
		    "metrics": [{"name": "m", "unit": "s", "better": "lower", "samples": [1, 2]}]}]}'
	echo "{\"schema\": \"schedperf-results/1\", \"runs\": [$run, $run]}" >"$TMP/twice.json"
	echo "{\"schema\": \"schedperf-results/1\", \"runs\": [$run]}" >"$TMP/once.json"
	refused_without_store import "$TMP/twice.json"
	[[ "$output" == *"run 'a' has two batches started at 2026-01-01T00:00:00Z in the input"* ]]
	refused_without_store import "$TMP/once.json" "$TMP/once.json"
	refused_without_store import "$TMP/once.json" - <<<'{"schema": "schedperf-results/1", "runs": [{}]}'
	refused_without_store run --resume
	[[ "$output" == *"there is no store at"* ]]
	refused_without_store cancel 1
	# a monitor list monitors_open() would refuse: before the store, and in a dry run
	refused_without_store run pipe -p loops=10 -i 1 --monitors bogus
	[[ "$output" == *"--monitors: unknown monitor 'bogus'"* ]]
	refused_without_store run pipe --dry-run --monitors none,all
	refused_without_store run pipe -p loops=10 -i 1 --monitors profile,profile-system
	refused_without_store submit pipe -p loops=10 -i 1
	refused_without_store worker --once
	[[ "$output" == *"has no job queue"* ]]
	# an option without the one it depends on, as the synopsis nests them
	refused_without_store worker --once --home-kernel 6.1
	[[ "$output" == *"--home-kernel is booted with --boot-cmd: give both"* ]]
	refused_without_store worker --once --boot-timeout 5
	[[ "$output" == *"--boot-timeout is how long a boot by --boot-cmd may take: give both"* ]]
	refused_without_store worker --once --boot-cmd true --home-after 5
	[[ "$output" == *"--home-after is when --home-kernel is booted: give both"* ]]
	refused_without_store worker --once --home-after 0
	[[ "$output" == *"--home-after is when --home-kernel is booted"* ]]
	# an empty boot command or default kernel, which no boot could satisfy
	refused_without_store worker --once --boot-cmd ''
	[[ "$output" == *"--boot-cmd is empty"* ]]
	refused_without_store worker --once --boot-cmd true --home-kernel ''
	[[ "$output" == *"--home-kernel release '' must have 1 to 255 bytes"* ]]
	refused_without_store worker --once --boot-cmd true --home-kernel $'6.1\n'
	[[ "$output" == *"--home-kernel release '6.1\\x0a' contains control characters"* ]]
	# what is valid is imported, once
	sp import "$TMP/once.json"
	run sp import "$TMP/once.json"
	[ "$status" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
}

@test "a run or bisect refused for a setting a killed ab left changed (exit 3) leaves no new store" {
	load sysctl
	local now
	# the journal says $KNOB was now + 1, and the run must find it changed:
	# no other test may set it (to now + 1) until this one ends
	sysctl_hold
	now=$(cat "$KNOB_FILE")
	for entry in "sysctl $KNOB $((now + 1))" "feature NO_SUCH_FEATURE_EVER x"; do
		journal_entry $entry
		run sp run command -p cmd=true -i 1 -q
		[ "$status" -eq 3 ] || { echo "$entry: exit $status: $output"; return 1; }
		assert_one_line_error
		[ -z "$(ls -A "$TMP/store")" ] || { echo "$entry: left $(ls -A "$TMP/store")"; return 1; }
	done
	# a bisection that measures here is refused the same way, before its store
	git init -q "$TMP/repo"
	git -C "$TMP/repo" -c user.name=t -c user.email=t commit -q --allow-empty -m one
	git -C "$TMP/repo" -c user.name=t -c user.email=t commit -q --allow-empty -m two
	run sp bisect command -p cmd=true --repo "$TMP/repo" --good HEAD~1 --bad HEAD
	[ "$status" -eq 3 ] || { echo "bisect: exit $status: $output"; return 1; }
	[ -z "$(ls -A "$TMP/store")" ]
	echo '{"schema": "schedperf-knobs/1", "settings": [' >"$JOURNAL"
	run sp run command -p cmd=true -i 1 -q
	[ "$status" -eq 3 ]
	[ -z "$(ls -A "$TMP/store")" ]
	# the store as it was, when there is one
	rm "$JOURNAL"
	sp run command -p cmd=true -i 1 -q --name before
	cp "$SCHEDPERF_DB" "$TMP/copy.db"
	journal_entry sysctl "$KNOB" $((now + 1))
	run sp run command -p cmd=true -i 1 -q
	[ "$status" -eq 3 ]
	cmp "$SCHEDPERF_DB" "$TMP/copy.db"
}

# import_interrupted SIGNAL STATUS: an import into $SCHEDPERF_DB, held by
# another connection's lock until the import has it open, is sent SIGNAL:
# it exits STATUS with one line saying nothing was imported.
import_interrupted() {
	local pid holder st=0
	rm -f "$TMP/locked" "$TMP/go"
	"$PYTHON" - "$SCHEDPERF_DB" "$TMP" <<'PY' &
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
open(sys.argv[2] + "/locked", "w").close()
while not os.path.exists(sys.argv[2] + "/go"):
    time.sleep(0.02)
c.execute("ROLLBACK")
PY
	holder=$!
	wait_for test -e "$TMP/locked"
	SCHEDPERF_BUSY_TIMEOUT_MS=600000 "$SP" import "$TMP/r.json" 2>"$TMP/err" &
	pid=$!
	# past reading its input, with its signals caught: it waits for the store
	wait_for sh -c "ls -l /proc/$pid/fd | grep -q '$SCHEDPERF_DB'"
	kill -"$1" "$pid"
	touch "$TMP/go"
	wait "$pid" || st=$?
	[ "$st" -eq "$2" ] || { echo "exit $st"; cat "$TMP/err"; return 1; }
	[ "$(cat "$TMP/err")" = "schedperf: interrupted: nothing was imported (an import is one transaction)" ]
	# its pid: a bare wait would wait for bats's own timeout watchdog too
	wait "$holder"
}

@test "an interrupted import imports nothing, says so, and leaves no store it made" {
	"$PYTHON" -c 'import json
runs = [{"name": "r%d" % i, "started": "2026-01-01T00:00:%02dZ" % i, "complete": True,
         "environment": {}, "benchmarks": [{"workload": "w", "params": {}, "metrics": [
             {"name": "m", "unit": "s", "better": "lower", "samples": [1.5, 2, 3]}]}]}
        for i in range(3)]
print(json.dumps({"schema": "schedperf-results/1", "runs": runs}))' >"$TMP/r.json"
	# the store an empty file: the signal ends the import's wait for the
	# lock before it makes a store there, and the file stays as it was
	for sig in INT:130 TERM:143 HUP:129; do
		: >"$SCHEDPERF_DB"
		import_interrupted "${sig%%:*}" "${sig##*:}"
		[ "$(ls -A "$TMP/store")" = new.db ] && [ ! -s "$SCHEDPERF_DB" ] ||
			{ echo "left $(ls -Al "$TMP/store")"; return 1; }
	done
	# a store that was there keeps what it held, and nothing of the import
	sp import - <<<'{"schema": "schedperf-results/1", "runs": [{"name": "kept",
		"started": "2026-01-01T00:00:00Z", "complete": true, "environment": {},
		"benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m",
		"unit": "s", "better": "lower", "samples": [1, 2]}]}]}]}'
	import_interrupted INT 130
	run sp runs
	[ "$status" -eq 0 ]
	[[ "$output" == *kept* ]]
	[[ "$output" != *r0* ]]
}

# refused_by_machine WHAT ARGS...: schedperf ARGS exits 3 with one line
# that says what to fix (never to resume a batch that measured nothing),
# and the store is as it was: still missing when it was missing, else the
# same bytes as $TMP/copy.db. WHAT names the case in a failure.
refused_by_machine() {
	local what=$1
	shift
	run "$@"
	[ "$status" -eq 3 ] || { echo "$what: exit $status: $output"; return 1; }
	assert_one_line_error
	[[ "$output" != *--resume* ]] || { echo "$what: $output"; return 1; }
	if [ -e "$TMP/copy.db" ]; then
		cmp "$SCHEDPERF_DB" "$TMP/copy.db" || { echo "$what: store changed"; return 1; }
		[ "$(ls -A "$TMP/store")" = new.db ] ||
			{ echo "$what: left $(ls -A "$TMP/store")"; return 1; }
	else
		[ -z "$(ls -A "$TMP/store")" ] ||
			{ echo "$what: left $(ls -A "$TMP/store")"; return 1; }
	fi
}

@test "a run refused for its helper program (exit 3) leaves no new store and no batch" {
	local w
	for w in "aim9 -p test=exec -p duration=1" "spawn -p count=10" "reaim -p users=1"; do
		SCHEDPERF_LIBEXEC="$TMP/none" refused_by_machine "$w" sp run $w -i 1 -q
		[[ "$output" == *"cannot find the exec helper: $TMP/none/schedperf-exec-helper"* ]]
	done
	sp run pipe -p loops=10 -i 1 -q --name before
	cp "$SCHEDPERF_DB" "$TMP/copy.db"
	for w in "aim9 -p test=exec -p duration=1" "spawn -p count=10"; do
		SCHEDPERF_LIBEXEC="$TMP/none" refused_by_machine "$w" sp run $w -i 1 -q
		SCHEDPERF_LIBEXEC="$TMP/none" refused_by_machine "$w, a run of that name" \
			sp run $w -i 1 -q --name before
	done
	# a suite's benchmark that needs it refuses the whole plan, before the first runs
	SCHEDPERF_LIBEXEC="$TMP/none" refused_by_machine "a sweep" \
		sp run aim9 -p test=fork,exec -p duration=1 -i 1 -q
}

@test "a run refused as a user without a privilege or a limit (exit 3) stores nothing" {
	command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
		skip "setpriv or prlimit missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	local as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups" case
	local -a cases=(
		"prlimit --rtprio=0:0 -- $SP run cyclictest -p policy=fifo -p loops=20 -i 1 -q"
		"prlimit --rtprio=0:0 -- $SP run cyclictest -p policy=rr -p priority=5 -i 1 -q"
		"prlimit --nofile=64:64 -- $SP run messaging -p groups=20 -p loops=10 -i 1 -q"
	)
	# ASan's mlockall() locks nothing and succeeds
	[ -n "${ASAN_OPTIONS:-}" ] || cases+=(
		"prlimit --memlock=0:0 -- $SP run cyclictest -p policy=other -p mlock=1 -i 1 -q")
	# the machine's knob lock is read by all, in a directory all may enter, as /run
	export SCHEDPERF_TEST_RUNDIR="$TMP/run"
	mkdir "$SCHEDPERF_TEST_RUNDIR"
	chmod 755 "$TMP" "$SCHEDPERF_TEST_RUNDIR"
	mkdir "$TMP/probe"
	chmod 777 "$TMP/store" "$TMP/probe"
	$as_nobody "$SP" --db "$TMP/probe/s.db" run pipe -p loops=10 -i 1 -q 2>/dev/null ||
		skip "cannot run as nobody here"
	for case in "${cases[@]}"; do
		refused_by_machine "$case" $as_nobody $case
	done
	run $as_nobody prlimit --nofile=64:64 -- "$SP" run messaging -p groups=20 -i 1 -q
	[[ "$output" == *"messaging needs 39 open files"*"the limit cannot be raised"* ]]
	sp run pipe -p loops=10 -i 1 -q --name before
	chmod 666 "$SCHEDPERF_DB"
	cp "$SCHEDPERF_DB" "$TMP/copy.db"
	for case in "${cases[@]}"; do
		refused_by_machine "$case, into a store" $as_nobody $case
	done
	run $as_nobody prlimit --rtprio=0:0 -- "$SP" run cyclictest -p policy=fifo -i 1 -q
	[[ "$output" == *"cyclictest: cannot run a thread under policy=fifo priority"* ]]
	[[ "$output" == *"(run as root, or give policy=other)" ]]
}
