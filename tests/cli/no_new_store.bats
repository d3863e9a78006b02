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
