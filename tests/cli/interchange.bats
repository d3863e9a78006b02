#!/usr/bin/env bats
# export and import: schedperf-results/1, lossless and all-or-nothing.

load helpers

@test "export -> import -> export is byte-identical" {
	sp run pipe -p loops=1000 -i 3 --warmup 1 --name a --quiet
	sp run pipe -p loops=1000 -i 2 --name a --quiet
	sp run messaging -p groups=1 -p fds=2 -p loops=5 -i 2 --name b --quiet
	sp export a b -o "$TMP/one.json"
	[ "$(json 'd["schema"]' "$TMP/one.json")" = schedperf-results/1 ]
	[ "$(json 'len(d["runs"])' "$TMP/one.json")" -eq 3 ]
	[ "$(json 'sorted(d["runs"][0].keys())' "$TMP/one.json")" = "['benchmarks', 'complete', 'environment', 'name', 'started']" ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/one.json"
	SCHEDPERF_DB="$TMP/second.db" sp export a b > "$TMP/two.json"
	cmp "$TMP/one.json" "$TMP/two.json"
	# and the stored numbers compare the same
	sp compare a b --format json > "$TMP/c1.json" || true
	SCHEDPERF_DB="$TMP/second.db" sp compare a b --format json > "$TMP/c2.json" || true
	cmp "$TMP/c1.json" "$TMP/c2.json"
}

@test "import accepts any workload name and refuses a second import of a batch" {
	cat > "$TMP/ext.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [{"name": "v5.8", "started": "2020-09-01T10:00:00Z",
 "complete": true, "environment": {"kernel.release": "5.8.0"},
 "benchmarks": [{"workload": "aim9-exec_test", "params": {"duration": "60"},
   "metrics": [{"name": "ops", "unit": "ops/s", "better": "higher", "samples": [896, 877.75, 927.33]}]}]}]}
JSON
	run sp import "$TMP/ext.json"
	[ "$status" -eq 0 ]
	run sp show v5.8
	[[ "$output" == *"aim9-exec_test duration=60"* ]]
	run sp import "$TMP/ext.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
}

bad_import() {	# bad_import JSON: the file is refused whole, with one line, exit 2
	printf '%s' "$1" > "$TMP/bad.json"
	before=$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM samples' 2>/dev/null || echo none)
	run sp import "$TMP/bad.json"
	[ "$status" -eq 2 ] || { echo "status $status for $1: $output"; return 1; }
	assert_one_line_error
	after=$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM samples' 2>/dev/null || echo none)
	[ "$before" = "$after" ]
}

good_run='{"name": "ok", "started": "2020-01-01T00:00:00Z", "complete": true, "environment": {}, "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s", "better": "lower", "samples": [1, 2]}]}]}'

@test "malformed imports are refused whole" {
	sp run pipe -p loops=1000 -i 1 --name base --quiet
	bad_import ''
	bad_import '{'
	bad_import '[]'
	bad_import '{"schema": "other/1", "runs": []}'
	bad_import '{"schema": "schedperf-results/1", "runs": []}'
	bad_import '{"schema": "schedperf-results/1", "runs": [{}]}'
	m='{"name": "m", "unit": "s", "better": "lower", "samples": [1]}'
	run_with() { echo "{\"schema\": \"schedperf-results/1\", \"runs\": [$good_run, {\"name\": \"x\", \"started\": \"2020-01-01T00:00:00Z\", \"complete\": true, \"environment\": {}, \"benchmarks\": [{\"workload\": \"w\", \"params\": {}, \"metrics\": [$1]}]}]}"; }
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "sideways", "samples": [1]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": []}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": ["1"]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": [NaN]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": [1e999]}')"
	bad_import "$(run_with '{"name": "", "unit": "s", "better": "lower", "samples": [1]}')"
	bad_import "$(run_with '{"unit": "s", "better": "lower", "samples": [1]}')"
	bad_import "$(run_with "$m, $m")"
	bad_import "{\"schema\": \"schedperf-results/1\", \"runs\": [{\"name\": \"x\", \"started\": \"yesterday\", \"complete\": true, \"environment\": {}, \"benchmarks\": []}]}"
	bad_import "{\"schema\": \"schedperf-results/1\", \"runs\": [{\"name\": \"x\", \"started\": \"2020-01-01T00:00:00Z\", \"complete\": \"yes\", \"environment\": {}, \"benchmarks\": []}]}"
	bad_import "{\"schema\": \"schedperf-results/1\", \"runs\": [{\"name\": \"x\", \"started\": \"2020-01-01T00:00:00Z\", \"complete\": true, \"environment\": {\"k\": 1}, \"benchmarks\": []}]}"
	bad_import "{\"schema\": \"schedperf-results/1\", \"runs\": [{\"name\": \"x\", \"started\": \"2020-01-01T00:00:00Z\", \"complete\": true, \"environment\": {}, \"benchmarks\": [{\"workload\": \"w\", \"params\": {\"a\": 2}, \"metrics\": []}]}]}"
	# nothing of the good first run in those files was imported either
	run sp show ok
	[ "$status" -eq 2 ]
	run sp import "$TMP/no-such-file.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "export -o writes the whole file or nothing" {
	sp run pipe -p loops=1000 -i 1 --name a --quiet
	run sp export a -o "$TMP/no/such/dir/out.json"
	[ "$status" -eq 3 ]
	assert_one_line_error
	[ ! -e "$TMP/no/such/dir/out.json" ]
}
