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
