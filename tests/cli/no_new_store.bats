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
	refused_without_store submit pipe -p loops=10 -i 1
	refused_without_store worker --once
	[[ "$output" == *"has no job queue"* ]]
	# what is valid is imported, once
	sp import "$TMP/once.json"
	run sp import "$TMP/once.json"
	[ "$status" -eq 2 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
}

@test "a run or bisect refused for a setting a killed ab left changed (exit 3) leaves no new store" {
	load sysctl
	local now
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
