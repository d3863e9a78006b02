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
	sp compare a b --format json > "$TMP/c1.json"
	SCHEDPERF_DB="$TMP/second.db" sp compare a b --format json > "$TMP/c2.json"
	[ "$(json 'len(d["rows"])' "$TMP/c1.json")" -eq 3 ]	# pipe's two metrics, messaging's one
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
	[ "$status" -eq 0 ]
	[[ "$output" == *"aim9-exec_test duration=60"* ]]
	run sp import "$TMP/ext.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
}

one_run() {	# one_run STARTED SAMPLES: a file of run t, one batch
	printf '{"schema": "schedperf-results/1", "runs": [{"name": "t", "started": "%s", "complete": true, "environment": {}, "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s", "better": "lower", "samples": %s}]}]}]}' "$1" "$2"
}

@test "import: one instant is one batch however spelled, stored in the store's spelling" {
	one_run 2020-01-01T10:00:00Z '[1]' >"$TMP/a.json"
	sp import "$TMP/a.json" >/dev/null
	for t in 2020-01-01T10:00:00.000Z 2020-01-01T10:00:00.0000001Z 2020-01-01T11:30:00+01:30 \
		2020-01-01T05:00:00-05:00 2020-01-01T10:00:00; do
		one_run "$t" '[2]' >"$TMP/b.json"
		run sp import "$TMP/b.json"
		[ "$status" -eq 2 ] || { echo "$t: $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"already has a batch started at 2020-01-01T10:00:00Z (it was imported before"* ]]
	done
	# another instant: in UTC, microseconds when there are any
	one_run 2020-01-01T12:00:00.25+02:00 '[3]' >"$TMP/c.json"
	sp import "$TMP/c.json" >/dev/null
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT started FROM batches ORDER BY started')" = \
	  "$(printf '2020-01-01T10:00:00.250000Z\n2020-01-01T10:00:00Z')" ]
	# two spellings in one input are one batch twice
	one_run 2020-01-02T00:00:00Z '[1]' >"$TMP/d.json"
	one_run 2020-01-02T01:00:00+01:00 '[1]' >"$TMP/e.json"
	run sp import "$TMP/d.json" "$TMP/e.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"has two batches started at 2020-01-02T00:00:00Z in the input"* ]]
	# a year before 1000 keeps its four digits
	one_run 0226-01-01T00:00:00+00:00 '[1]' >"$TMP/g.json"
	sp import "$TMP/g.json" >/dev/null
	[ "$(sp export t | "$PYTHON" -c 'import json, sys
print(min(r["started"] for r in json.load(sys.stdin)["runs"]))')" = 0226-01-01T00:00:00Z ]
	# a day no calendar has is no time
	one_run 2021-02-29T00:00:00Z '[1]' >"$TMP/f.json"
	run sp import "$TMP/f.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"runs[0].started: not an ISO 8601 time"* ]]
}

@test "import: a leap second only at 23:59:60 UTC of a month's end; a year out of the store's range says so; - once" {
	for t in 2016-12-31T23:59:60Z 2015-06-30T23:59:60Z 2017-01-01T00:59:60+01:00; do
		one_run "$t" '[1]' >"$TMP/l.json"
		sp --db "$TMP/l.db" import "$TMP/l.json" >/dev/null || { echo "$t refused"; return 1; }
		rm -f "$TMP/l.db"
	done
	for t in 2026-06-15T12:34:60Z 2026-06-15T23:59:60Z 2016-12-31T23:59:60+01:00; do
		one_run "$t" '[1]' >"$TMP/l.json"
		run sp --db "$TMP/l.db" import "$TMP/l.json"
		[ "$status" -eq 2 ] || { echo "$t: $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"runs[0].started: a leap second (:60) not at 23:59:60 UTC of a month's last day"* ]]
		[ ! -e "$TMP/l.db" ]
	done
	for t in 9999-12-31T23:30:00-01:00 0000-01-01T00:30:00+01:00; do
		one_run "$t" '[1]' >"$TMP/y.json"
		run sp --db "$TMP/y.db" import "$TMP/y.json"
		[ "$status" -eq 2 ]
		[[ "$output" == *"runs[0].started: in UTC not in the years 0000 to 9999 that the store spells"* ]] ||
			{ echo "$t: $output"; return 1; }
	done
	one_run 2020-01-01T00:00:00Z '[1]' >"$TMP/s.json"
	run sp --db "$TMP/s.db" import - - <"$TMP/s.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: import: standard input (-) is given twice"* ]]
	[ ! -e "$TMP/s.db" ]
}

@test "import: input that is no export is refused at its first byte, not read to its end" {
	head -c 100000 /dev/zero >"$TMP/zero"
	run sp --db "$TMP/s.db" import - <"$TMP/zero"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: cannot import 'standard input': not a schedperf-results/1 export: it starts with a NUL byte (0x00) at offset 0, where"*"(give the output of 'schedperf export'"* ]] ||
		{ echo "$output"; false; }
	[ ! -e "$TMP/s.db" ]
	# blanks first are JSON's; a regular file is refused as standard input is
	{ printf ' \t\r\n'; yes | head -c 100000; } >"$TMP/yes"
	run sp --db "$TMP/s.db" import "$TMP/yes"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"cannot import '$TMP/yes': not a schedperf-results/1 export: it starts with 'y' (0x79) at offset 4,"* ]] ||
		{ echo "$output"; false; }
	# a NUL further on is named, not "near end of file"
	printf '{"schema":\n\0 "x"}' >"$TMP/nul.json"
	run sp --db "$TMP/s.db" import - <"$TMP/nul.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"invalid JSON at line 2: a NUL byte (0x00) at offset 11, which JSON never holds"* ]] ||
		{ echo "$output"; false; }
	# an endless producer: refused at once, and the producer ends on its broken pipe
	run timeout 20 bash -c 'while printf "y\n" 2>/dev/null; do :; done | "$0" --db "$1" import -' \
		"$SP" "$TMP/s.db"
	[ "$status" -eq 2 ] || { echo "status $status (124: timed out): $output"; false; }
	[[ "$output" == *"it starts with 'y' (0x79) at offset 0,"* ]] || { echo "$output"; false; }
	[ ! -e "$TMP/s.db" ]
	# /dev/zero on standard input ends too (bounded, so that a regression is exit 3, not OOM)
	if [ -z "${ASAN_OPTIONS:-}" ]; then
		run timeout 20 bash -c 'ulimit -v 1000000 && exec "$0" --db "$1" import -' \
			"$SP" "$TMP/s.db" </dev/zero
		[ "$status" -eq 2 ] || { echo "status $status: $output"; false; }
		[[ "$output" == *"it starts with a NUL byte (0x00) at offset 0,"* ]]
	fi
	# a real export on standard input, blanks first, is read as before
	sp run pipe -p loops=100 -i 2 --name a --quiet
	sp export a >"$TMP/a.json"
	{ printf '\n  '; cat "$TMP/a.json"; } | sp --db "$TMP/s.db" import - >/dev/null
	sp --db "$TMP/s.db" export a | cmp - "$TMP/a.json"
}

@test "import: endless blanks, an endless document, a file over 4 GiB are refused (2) in bounded memory" {
	# bounded, so that a regression is exit 3 or 124, not the machine's memory
	cap='ulimit -v 1000000'
	[ -z "${ASAN_OPTIONS:-}" ] || cap=:
	run timeout 60 bash -c "$cap"' && yes "" | "$0" --db "$1" import -' "$SP" "$TMP/s.db"
	[ "$status" -eq 2 ] || { echo "status $status: $output"; false; }
	assert_one_line_error
	[[ "$output" == "schedperf: cannot import 'standard input': not a schedperf-results/1 $(
		)export: more than 1 MiB of blanks before its first value (give the output of $(
		)'schedperf export'"* ]] || { echo "$output"; false; }
	[ ! -e "$TMP/s.db" ]
	# a document that never ends, at a limit the tests lower from 4 GiB
	run timeout 60 bash -c "$cap"' && { printf "{\"schema\": \"schedperf-results/1\", \"runs\": [";
		yes "{},"; } | SCHEDPERF_TEST_IMPORT_LIMIT=1000000 "$0" --db "$1" import -' \
		"$SP" "$TMP/s.db"
	[ "$status" -eq 2 ] || { echo "status $status: $output"; false; }
	assert_one_line_error
	[[ "$output" == "schedperf: cannot import 'standard input': it is larger than 1000000 $(
		)bytes, the most import reads of one input (export its runs a few to a file, $(
		)'schedperf export RUN... -o FILE', and import each file; nothing was imported)" ]] ||
		{ echo "$output"; false; }
	[ ! -e "$TMP/s.db" ]
	# an export of the limit's size is read, a byte more is not
	sp run pipe -p loops=100 -i 2 --name a --quiet
	sp export a -o "$TMP/a.json"
	size=$(stat -c %s "$TMP/a.json")
	SCHEDPERF_TEST_IMPORT_LIMIT=$size sp --db "$TMP/s.db" import - <"$TMP/a.json" >/dev/null
	rm "$TMP/s.db"*
	for input in - "$TMP/a.json"; do
		run env SCHEDPERF_TEST_IMPORT_LIMIT=$((size - 1)) "$SP" --db "$TMP/s.db" import \
			"$input" <"$TMP/a.json"
		[ "$status" -eq 2 ] || { echo "$input: $output"; false; }
		[[ "$output" == *"it is larger than $((size - 1)) bytes, the most import reads"* ]]
		[ ! -e "$TMP/s.db" ]
	done
	# the limit itself, on a sparse file (no disk taken): refused before it is read
	printf '{' >"$TMP/big.json"
	truncate -s $((4 * 1024 * 1024 * 1024 + 1)) "$TMP/big.json"
	run timeout 60 bash -c "$cap"' && exec "$0" --db "$1" import "$2"' "$SP" "$TMP/s.db" \
		"$TMP/big.json"
	rm "$TMP/big.json"
	[ "$status" -eq 2 ] || { echo "status $status: $output"; false; }
	[[ "$output" == *"big.json': it is larger than 4 GiB, the most import reads of one $(
		)input (export its runs a few to a file, 'schedperf export RUN... -o FILE', and $(
		)import each file; nothing was imported)" ]]
	[ ! -e "$TMP/s.db" ]
}

@test "import: a UTF-8 byte-order mark first is named as one, and refused (2)" {
	sp run pipe -p loops=100 -i 2 --name a --quiet
	sp export a -o "$TMP/a.json"
	# after blanks too: at offset 2
	for at in 2 0; do
		{ head -c "$at" /dev/zero | tr '\0' ' '; printf '\xef\xbb\xbf'; cat "$TMP/a.json"; } \
			>"$TMP/bom.json"
		run sp --db "$TMP/s.db" import - <"$TMP/bom.json"
		[ "$status" -eq 2 ] || { echo "$output"; false; }
		assert_one_line_error
		[[ "$output" == "schedperf: cannot import 'standard input': it starts with a UTF-8 $(
			)byte-order mark (0xef 0xbb 0xbf) at offset $at, which JSON does not allow $(
			)(remove it, as sed '1s/^\xef\xbb\xbf//' does; nothing was imported)" ]] ||
			{ echo "$output"; false; }
		[ ! -e "$TMP/s.db" ]
	done
	# removed as the message says, it imports
	sed '1s/^\xef\xbb\xbf//' "$TMP/bom.json" | sp --db "$TMP/s.db" import - >/dev/null
	sp --db "$TMP/s.db" export a | cmp - "$TMP/a.json"
	# a lone 0xef is a byte as any other, refused at once
	run sp --db "$TMP/t.db" import - < <(printf '\xef{}')
	[ "$status" -eq 2 ]
	[[ "$output" == *"it starts with byte 0xef at offset 0, where a JSON object starts"* ]]
}

@test "import: a number too small for a double is refused where it is, not stored as 0" {
	one_run 2020-01-01T10:00:00Z '[1, 0, 2.5e-310,
  1e-400]' >"$TMP/u.json"
	run sp import "$TMP/u.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"cannot import '$TMP/u.json': line 2, column 3: 1e-400 is too small for a double and would be stored as 0"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	# in a warm-up as in a sample; a bad sample's place is said as the file has it
	one_run 2020-01-01T10:00:00Z '[1], "warmup": [1e-400]' >"$TMP/w.json"
	run sp import "$TMP/w.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"column 262: 1e-400 is too small for a double"* ]]
	one_run 2020-01-01T10:00:00Z '[1, "2"]' >"$TMP/s.json"
	run sp import "$TMP/s.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *": runs[0].benchmarks[0].metrics[0].samples[1]: not a number"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	# zeros, small doubles and such text in a string are kept
	one_run 2020-01-01T10:00:00Z '[1, 0, -0.0, 0e5, 2.5e-310]' | sed 's/"w"/"w 1e-400"/' >"$TMP/z.json"
	sp import "$TMP/z.json" >/dev/null
	[ "$(sp export t | "$PYTHON" -c 'import json, sys
print(json.load(sys.stdin)["runs"][0]["benchmarks"][0]["metrics"][0]["samples"])')" = "[1.0, 0.0, 0.0, 0.0, 2.5e-310]" ]
}

@test "warm-ups of a benchmark whose measured iterations all failed go through export and import" {
	run sp run command -p shell=1 -p cmd="test ! -e $TMP/ran && touch $TMP/ran" -i 2 --warmup 1 \
		--name f --quiet --monitors none
	[ "$status" -eq 1 ]
	sp export f -o "$TMP/one.json"
	[ "$(json 'd["runs"][0]["benchmarks"][0]["failed_iterations"]' "$TMP/one.json")" -eq 2 ]
	# its metrics, without values but with the warm-up's, and the warm-up's record
	local metrics='d["runs"][0]["benchmarks"][0]["metrics"]'
	[ "$(json "[sorted(m.keys()) for m in $metrics][0]" "$TMP/one.json")" = \
	  "['better', 'name', 'samples', 'source', 'unit', 'warmup']" ]
	[ "$(json "set((len(m['samples']), len(m['warmup'])) for m in $metrics)" \
	  "$TMP/one.json")" = "{(0, 1)}" ]
	[ "$(json '[i["warmup"] for i in d["runs"][0]["benchmarks"][0]["iterations"]]' \
	  "$TMP/one.json")" = "[True]" ]
	local warmups="SELECT count(*) FROM samples s JOIN iterations i ON i.id = s.iteration_id
		WHERE i.warmup AND i.failure IS NULL"
	local n
	n=$(sqlite3 "$SCHEDPERF_DB" "$warmups")
	[ "$n" -gt 0 ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/one.json"
	[ "$(sqlite3 "$TMP/second.db" "$warmups")" -eq "$n" ]
	SCHEDPERF_DB="$TMP/second.db" sp export f > "$TMP/two.json"
	cmp "$TMP/one.json" "$TMP/two.json"
	SCHEDPERF_DB="$TMP/second.db" sp db check
	# without the records, packed: the same warm-ups, failures numbered after them
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1])); del d["runs"][0]["benchmarks"][0]["iterations"]
json.dump(d, sys.stdout, indent=2); print()' "$TMP/one.json" > "$TMP/packed.json"
	SCHEDPERF_DB="$TMP/third.db" sp import "$TMP/packed.json"
	SCHEDPERF_DB="$TMP/third.db" sp db check
	[ "$(sqlite3 "$TMP/third.db" "SELECT group_concat(seq, ' ') FROM iterations")" = "1 2" ]
	SCHEDPERF_DB="$TMP/third.db" sp export f -o "$TMP/three.json"
	same_json "$TMP/three.json" "$TMP/packed.json"
}

@test "a benchmark whose iterations all failed keeps its metrics through export and import" {
	run sp run command -p shell=1 -p cmd='exit 1' -i 2 --warmup 0 --name f --quiet --monitors none
	[ "$status" -eq 1 ]
	sp export f -o "$TMP/one.json"
	local metrics='d["runs"][0]["benchmarks"][0]["metrics"]'
	[ "$(json "[(m[\"name\"], m[\"samples\"]) for m in $metrics][:3]" "$TMP/one.json")" = \
	  "[('seconds', []), ('user_seconds', []), ('system_seconds', [])]" ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/one.json"
	[ "$(SCHEDPERF_DB="$TMP/second.db" sp show f)" = "$(sp show f)" ]
	[[ "$(SCHEDPERF_DB="$TMP/second.db" sp show f)" == *"seconds "*"n=0"* ]]
	SCHEDPERF_DB="$TMP/second.db" sp export f | cmp - "$TMP/one.json"
	# a file of an earlier schedperf, without them, is still imported
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["name"] = "g"
d["runs"][0]["benchmarks"][0]["metrics"] = []; json.dump(d, sys.stdout)' "$TMP/one.json" \
		> "$TMP/old.json"
	sp import "$TMP/old.json"
}

@test "import: a whole-number sample beyond 64 bits is the double it is; integer fields still refuse it" {
	one_run 2020-01-01T10:00:00Z '[18446744073709551615, -99999999999999999999,
  9223372036854775807, 1]' | sed 's/"w"/"w 18446744073709551615"/' >"$TMP/big.json"
	run sp import "$TMP/big.json"
	[ "$status" -eq 0 ]
	[ "$(sp export t | "$PYTHON" -c 'import json, sys
b = json.load(sys.stdin)["runs"][0]["benchmarks"][0]
print(b["workload"], b["metrics"][0]["samples"])')" = "w 18446744073709551615 [1.8446744073709552e+19, -1e+20, 9.223372036854776e+18, 1.0]" ]
	# an integer field beyond 64 bits is no integer, and a double beyond doubles no number
	rm -f "$SCHEDPERF_DB"
	one_run 2020-01-01T10:00:00Z '[1, 2]' |
		sed 's/"samples"/"repetitions": 18446744073709551616, "samples"/' >"$TMP/reps.json"
	run sp import "$TMP/reps.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"repetitions"*"must be a whole number from 1 to 1000000"* ]]
	one_run 2020-01-01T10:00:00Z '[18446744073709551615, 1e400]' >"$TMP/both.json"
	run sp import "$TMP/both.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ ! -e "$SCHEDPERF_DB" ]
	# said where it is in the file: where it is with a real number as wide before it
	local place
	place=$(grep -o 'line [0-9]* column [0-9]*' <<<"$output")
	one_run 2020-01-01T10:00:00Z '[1844674407370955.615, 1e400]' >"$TMP/same-width.json"
	run sp import "$TMP/same-width.json"
	[ "$status" -eq 2 ]
	[ -n "$place" ]
	[ "$(grep -o 'line [0-9]* column [0-9]*' <<<"$output")" = "$place" ]
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

@test "profiles go with their benchmark: export -> import -> export is byte-identical" {
	can_sample
	sp run pipe -p loops=20000 -i 2 --warmup 1 --monitors profile --name timed -q 2>/dev/null
	sp run pipe -p loops=20000 -i 1 --profile-iterations 1 --no-monitors --name extra -q \
		2>/dev/null
	sp export timed extra -o "$TMP/one.json"
	[ "$(json 'len(d["runs"][0]["benchmarks"][0]["profiles"])' "$TMP/one.json")" -eq 2 ]
	[ "$(json 'd["runs"][1]["benchmarks"][0]["profiles"][0]["extra"]' "$TMP/one.json")" = True ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/one.json"
	SCHEDPERF_DB="$TMP/second.db" sp export timed extra | cmp - "$TMP/one.json"
	for run in timed extra; do
		sp show $run --profile > "$TMP/s1"
		SCHEDPERF_DB="$TMP/second.db" sp show $run --profile > "$TMP/s2"
		cmp "$TMP/s1" "$TMP/s2"
	done
	sp compare timed extra --profile --format json > "$TMP/c1.json"
	SCHEDPERF_DB="$TMP/second.db" sp compare timed extra --profile --format json > "$TMP/c2.json"
	cmp "$TMP/c1.json" "$TMP/c2.json"
}

@test "an imported profile is shown with the shares it holds" {
	cat > "$TMP/p.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [{"name": "p", "started": "2020-09-01T10:00:00Z",
 "complete": true, "environment": {},
 "benchmarks": [{"workload": "other-tool", "params": {},
   "metrics": [{"name": "ops", "unit": "ops/s", "better": "higher", "samples": [896, 877]}],
   "profiles": [{"seq": 0, "extra": false, "event": "cpu-clock", "scope": "tasks",
     "frequency": 1000, "samples": 8, "lost": 0, "total": 8000000,
     "symbols": [{"name": "main", "dso": "tool", "self": 0, "children": 8000000},
                 {"name": "pipe_write", "dso": "[kernel.kallsyms]", "self": 2000000,
                  "children": 3000000}]}]}]}]}
JSON
	sp import "$TMP/p.json"
	run sp show p --profile
	[ "$status" -eq 0 ]
	[[ "$output" == *"1 profile of timed iterations, cpu-clock, 8 samples"* ]]
	[[ "$output" == *"100.00     0.00  main  tool"* ]]
	[[ "$output" == *"37.50    25.00  pipe_write  [kernel.kallsyms]"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM profile_symbols')" -eq 2 ]
}

@test "malformed imports are refused whole" {
	sp run pipe -p loops=1000 -i 1 --name base --quiet
	bad_import ''
	bad_import '{'
	bad_import '[]'
	bad_import '{"schema": "other/1", "runs": []}'
	bad_import '{"schema": "schedperf-results/1", "runs": []}'
	bad_import '{"schema": "schedperf-results/1", "runs": [{}]}'
	# an unknown key is refused at the top as anywhere else
	sp export base -o "$TMP/base.json"
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["name"] = "top"; d["extra"] = 1
json.dump(d, sys.stdout)' "$TMP/base.json" > "$TMP/extra.json"
	run sp import "$TMP/extra.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"'$TMP/extra.json': extra: unknown key (fix the file; nothing was imported)" ]]
	run sp show top
	[ "$status" -eq 2 ]
	m='{"name": "m", "unit": "s", "better": "lower", "samples": [1]}'
	run_with() { echo "{\"schema\": \"schedperf-results/1\", \"runs\": [$good_run, {\"name\": \"x\", \"started\": \"2020-01-01T00:00:00Z\", \"complete\": true, \"environment\": {}, \"benchmarks\": [{\"workload\": \"w\", \"params\": {}, \"metrics\": [$1]}]}]}"; }
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "sideways", "samples": [1]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower"}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": ["1"]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": [NaN]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "samples": [1e999]}')"
	bad_import "$(run_with '{"name": "", "unit": "s", "better": "lower", "samples": [1]}')"
	bad_import "$(run_with '{"unit": "s", "better": "lower", "samples": [1]}')"
	bad_import "$(run_with "$m, $m")"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "repetitions": 0, "samples": [1]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "repetitions": "2", "samples": [1, 2]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "repetitions": 1.5, "samples": [1, 2]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "repetitions": 2, "samples": [1, 2, 3]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "repetitions": 2, "samples": [1, 2], "warmup": [1]}')"
	bad_import "$(run_with '{"name": "m", "unit": "s", "better": "lower", "repetitions": 1000001, "samples": [1]}')"
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

@test "import: a name, a metric's name or unit, a key or a value over its limit says the limit" {
	long() { "$PYTHON" -c 'import sys; print("x" * int(sys.argv[1]))' "$1"; }
	doc() {	# doc NAME METRIC UNIT KEY VALUE
		"$PYTHON" - "$@" > "$TMP/long.json" <<'PY'
import json, sys
name, metric, unit, key, value = sys.argv[1:]
print(json.dumps({"schema": "schedperf-results/1", "runs": [{
    "name": name, "started": "2020-01-01T00:00:00Z", "complete": True,
    "environment": {key: value}, "benchmarks": [{"workload": "w", "params": {},
    "metrics": [{"name": metric, "unit": unit, "better": "lower", "samples": [1]}]}]}]}))
PY
	}
	refused() {	# refused WHERE: the one line of a refused import says WHERE
		run sp import "$TMP/long.json"
		[ "$status" -eq 2 ] || { echo "$output"; false; }
		assert_one_line_error
		[[ "$output" == *": $1 (fix the file; nothing was imported)" ]] ||
			{ echo "$output"; false; }
	}
	doc "$(long 201)" m s k v
	refused "runs[0].name: 201 bytes, over the limit of 200"
	doc n "$(long 129)" s k v
	refused "runs[0].benchmarks[0].metrics[0].name: 129 bytes, over the limit of 128"
	doc n m "$(long 65)" k v
	refused "runs[0].benchmarks[0].metrics[0].unit: 65 bytes, over the limit of 64"
	doc n m s "$(long 129)" v
	refused "runs[0].environment.$(long 129): key of 129 bytes, over the limit of 128"
	doc n m s k "$(long 65537)"
	refused "runs[0].environment.k: 65537 bytes, over the limit of 65536"
	doc "" m s k v
	refused "runs[0].name: empty"
	# at the limit, each is taken
	doc "$(long 200)" "$(long 128)" "$(long 64)" "$(long 128)" "$(long 65536)"
	sp import "$TMP/long.json"
}

@test "import: a key, or a file name, with a control or a mark reordering a line is escaped" {
	doc() {	# doc KEY: a run whose environment has KEY (JSON text)
		printf '{"schema": "schedperf-results/1", "runs": [{"name": "n", %s, %s}]}' \
			'"started": "2020-01-01T00:00:00Z", "complete": true' \
			"\"environment\": {\"$1\": \"v\"}, \"benchmarks\": []"
	}
	doc 'a\u202eb' > "$TMP/bidi.json"
	run sp import "$TMP/bidi.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *'runs[0].environment.a\u202eb: key not printable'* ]] ||
		{ echo "$output"; false; }
	[[ "$output" != *$'\u202e'* ]]
	doc 'a\u0001b' > "$TMP/c0.json"
	run sp import "$TMP/c0.json"
	[[ "$output" == *'runs[0].environment.a\x01b: key not printable'* ]] || { echo "$output"; false; }
	printf '{"schema": "schedperf-results/1", "runs": [], "e\\u2066x": 1}' > "$TMP/top.json"
	run sp import "$TMP/top.json"
	[[ "$output" == *': e\u2066x: unknown key'* ]] || { echo "$output"; false; }
	# the file's own name too
	cp "$TMP/c0.json" "$TMP/r"$'\u202e'"n.json"
	run sp import "$TMP/r"$'\u202e'"n.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"/r\\u202en.json': runs[0].environment.a\\x01b"* ]] || { echo "$output"; false; }
	[[ "$output" != *$'\u202e'* ]]
}

@test "export -o writes the whole file or nothing" {
	sp run pipe -p loops=1000 -i 1 --name a --quiet
	run sp export a -o "$TMP/no/such/dir/out.json"
	[ "$status" -eq 3 ]
	assert_one_line_error
	[ ! -e "$TMP/no/such/dir/out.json" ]
}

@test "export refuses a store changed by hand that import would refuse, and writes nothing" {
	sp run pipe -p loops=1000 -i 3 --name a --quiet --no-monitors
	sp export a -o "$TMP/good.json"
	local change
	# each, as it was exported before: a file import refuses (params not an
	# object of strings no reader takes: db.bats)
	for change in "UPDATE benchmarks SET params = '{\"\": \"1\"}'" \
		      "UPDATE batches SET started = 'garbage'" \
		      "UPDATE metrics SET name = '' WHERE position = 0" \
		      "UPDATE metrics SET repetitions = 2 WHERE position = 0"; do
		cp "$SCHEDPERF_DB" "$TMP/damaged.db"
		sqlite3 "$TMP/damaged.db" "$change"
		SCHEDPERF_DB="$TMP/damaged.db" run sp export a -o "$TMP/out.json"
		[ "$status" -eq 3 ] || { echo "$change: $status $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"cannot export run 'a' (batch started "*"import would refuse"* ]]
		[ ! -e "$TMP/out.json" ]
		# nor a first part on standard output
		if SCHEDPERF_DB="$TMP/damaged.db" sp export a >"$TMP/stdout" 2>/dev/null; then
			return 1
		fi
		[ ! -s "$TMP/stdout" ]
	done
	# which part is named
	cp "$SCHEDPERF_DB" "$TMP/damaged.db"
	sqlite3 "$TMP/damaged.db" "UPDATE benchmarks SET params = '{\"\": \"1\"}'"
	SCHEDPERF_DB="$TMP/damaged.db" run sp export a
	[[ "$output" == *", benchmark 1 (pipe): params.: key empty, "* ]]
	cp "$SCHEDPERF_DB" "$TMP/damaged.db"
	sqlite3 "$TMP/damaged.db" "UPDATE metrics SET repetitions = 2 WHERE position = 0"
	SCHEDPERF_DB="$TMP/damaged.db" run sp export a
	[[ "$output" == *", benchmark 1 (pipe), metric 1 ("*"): repetitions: "* ]]
	# the store as schedperf left it exports as before
	sp export a | cmp - "$TMP/good.json"
}

@test "export refuses a benchmark whose metrics' names come twice, naming the first that repeats one" {
	sp run pipe -p loops=1000 -i 2 --name a --quiet --no-monitors
	# a name's text after a NUL is no part of it: positions 2 and 6 read as
	# "x", 4 and 5 as "y" (the store's UNIQUE (benchmark_id, name) holds)
	sqlite3 "$SCHEDPERF_DB" "UPDATE metrics SET name = 'x' || char(0) || position
				 WHERE position IN (2, 6);
				 UPDATE metrics SET name = 'y' || char(0) || position
				 WHERE position IN (4, 5)"
	run sp export a
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *", benchmark 1 (pipe), metric 6 (y): name: a metric of that name comes twice,"* ]]
}

@test "a sample stored under another benchmark's metric is read under neither" {
	sp run pipe -p loops=1000,2000 -i 2 --name a --quiet --no-monitors
	# the first iteration of the first benchmark: its usec_per_op sample
	# moved to the second benchmark's usec_per_op (a store changed by hand)
	sqlite3 "$SCHEDPERF_DB" "UPDATE samples SET metric_id = (SELECT m.id FROM metrics m
		JOIN benchmarks k ON k.id = m.benchmark_id WHERE k.position = 1 AND m.position = 0)
		WHERE metric_id = (SELECT m.id FROM metrics m JOIN benchmarks k
		ON k.id = m.benchmark_id WHERE k.position = 0 AND m.position = 0)
		AND iteration_id = (SELECT MIN(i.id) FROM iterations i JOIN benchmarks k
		ON k.id = i.benchmark_id WHERE k.position = 0)"
	sp export a | "$PYTHON" -c 'import json, sys
d = json.load(sys.stdin)
for b in d["runs"][0]["benchmarks"]:
    print(" ".join(m["name"] + "=" + str(len(m["samples"])) for m in b["metrics"][:2]))
' >"$TMP/counts"
	[ "$(cat "$TMP/counts")" = "usec_per_op=1 ops_per_sec=2
usec_per_op=2 ops_per_sec=2" ]
}

@test "every repetition of futex-wake is a sample, kept by its iteration" {
	sp run futex-wake -p threads=2 -p repeat=3 -i 2 --warmup 1 --name fw --quiet --no-monitors
	sp export fw -o "$TMP/fw.json"
	m='[m for m in d["runs"][0]["benchmarks"][0]["metrics"] if m["name"] == "wake_ms"][0]'
	[ "$(json "$m[\"repetitions\"]" "$TMP/fw.json")" -eq 3 ]
	[ "$(json "len($m[\"samples\"])" "$TMP/fw.json")" -eq 6 ]
	[ "$(json "len($m[\"warmup\"])" "$TMP/fw.json")" -eq 3 ]
	# once per iteration: rusage has no repetitions key and one value each
	[ "$(json '[m for m in d["runs"][0]["benchmarks"][0]["metrics"] if m["name"] == "wall"][0].get("repetitions", 1)' "$TMP/fw.json")" -eq 1 ]
	[ "$(json 'len([m for m in d["runs"][0]["benchmarks"][0]["metrics"] if m["name"] == "wall"][0]["samples"])' "$TMP/fw.json")" -eq 2 ]
	# stored as repetitions 0..2 of three iterations (warm-up first)
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT group_concat(k, ' ') FROM (SELECT i.seq || ':' || s.rep AS k FROM samples s JOIN iterations i ON i.id = s.iteration_id JOIN metrics m ON m.id = s.metric_id WHERE m.name = 'wake_ms' ORDER BY i.seq, s.rep)")" = "0:0 0:1 0:2 1:0 1:1 1:2 2:0 2:1 2:2" ]
	# compare summarises every repetition: 6 against 3
	sp run futex-wake -p threads=2 -p repeat=3 -i 1 --name fw2 --quiet --no-monitors
	sp compare fw fw2 --format json > "$TMP/c.json"
	[ "$(json '[[c["n"] for c in r["runs"]] for r in d["rows"] if r["metric"] == "wake_ms"][0]' "$TMP/c.json")" = "[6, 3]" ]
	# lossless through import
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/fw.json"
	SCHEDPERF_DB="$TMP/second.db" sp export fw | cmp - "$TMP/fw.json"
}

@test "a schema version 1 store is read unchanged, upgraded by the first write" {
	data="$BATS_TEST_DIRNAME/../data"
	sqlite3 "$SCHEDPERF_DB" < "$data/store-v1.sql"
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version')" -eq 1 ]
	local before
	before=$(sha256sum <"$SCHEDPERF_DB")
	run sp runs
	[ "$status" -eq 0 ]
	# every run, benchmark, metric and sample the version 1 store holds, as
	# tests/reference/store_v1_expected.py reads them from its SQL without
	# schedperf: equal as JSON values, each number the same double; read
	# without a change to the store
	sp export v1-pipe v1-fw > "$TMP/v1.json"
	same_json "$TMP/v1.json" "$data/store-v1.json"
	sp export v1-fw >"$TMP/fw-before.json"
	[ "$(sha256sum <"$SCHEDPERF_DB")" = "$before" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version')" -eq 1 ]
	# the upgraded store takes new batches, and its old ones are unchanged
	sp run pipe -p loops=1000 -i 1 --name v1-pipe --quiet --no-monitors
	SCHEDPERF_DB="$TMP/current.db" sp run pipe -p loops=10 -i 1 --quiet --no-monitors
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version')" -eq \
	  "$(sqlite3 "$TMP/current.db" 'PRAGMA user_version')" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ -z "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA foreign_key_check')" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'v1-pipe'")" -eq 2 ]
	sp export v1-fw | cmp - "$TMP/fw-before.json"
}

# A store that an earlier schedperf wrote (tests/data/store-vN.sql, exported
# then as store-vN.json) is read as it is, and upgraded by the first write
# without losing anything; its iterations have no interference measured.
upgrade_without_loss() {
	local v=$1 data="$BATS_TEST_DIRNAME/../data" before old
	sqlite3 "$SCHEDPERF_DB" < "$data/store-v$v.sql"
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version')" -eq "$v" ]
	before=$(sha256sum <"$SCHEDPERF_DB")
	sp export "v$v-pipe" "v$v-fw" | cmp - "$data/store-v$v.json"
	sp export "v$v-fw" >"$TMP/fw-before.json"
	[ "$(sha256sum <"$SCHEDPERF_DB")" = "$before" ]
	old=$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')
	sp run pipe -p loops=1000 -i 2 --name "v$v-pipe" --quiet --no-monitors
	SCHEDPERF_DB="$TMP/current.db" sp run pipe -p loops=10 -i 1 --quiet --no-monitors
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version')" -eq \
	  "$(sqlite3 "$TMP/current.db" 'PRAGMA user_version')" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ -z "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA foreign_key_check')" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE cpu_taken IS NULL AND disturbed = 0 AND rerun = 0')" -eq "$old" ]
	sp export "v$v-fw" | cmp - "$TMP/fw-before.json"
	# new batches of an old run carry interference, and both export and import whole
	sp export "v$v-pipe" > "$TMP/mixed.json"
	[ "$(json '[len(b["benchmarks"][0].get("iterations", [])) for b in d["runs"]]' "$TMP/mixed.json")" = "[0, 0, 2]" ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/mixed.json"
	SCHEDPERF_DB="$TMP/second.db" sp export "v$v-pipe" | cmp - "$TMP/mixed.json"
}

@test "a schema version 2 store is upgraded in place and exported without loss" {
	upgrade_without_loss 2
}

@test "a schema version 3 store is upgraded in place and exported without loss" {
	upgrade_without_loss 3
}

@test "a schema version 4 store is upgraded in place and exported without loss" {
	upgrade_without_loss 4
}

@test "import keeps iterations' interference and refuses a malformed one" {
	cat > "$TMP/int.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [{"name": "r", "started": "2026-01-01T00:00:00Z",
 "complete": true, "environment": {},
 "benchmarks": [{"workload": "pipe", "params": {},
   "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower", "samples": [5, 6], "warmup": [7]}],
   "iterations": [{"warmup": true, "cpu_taken": 0.0, "cpu_available": 1.0},
                  {"cpu_taken": 0.5, "cpu_steal": 0.1, "cpu_available": 1.0, "disturbed": true,
                   "culprits": [{"name": "stress-ng", "pid": 4242, "cpu": 0.4}]},
                  {"cpu_taken": 0.01, "cpu_available": 1.0}]}]}]}
JSON
	sp import "$TMP/int.json"
	run sp show r --samples
	[[ "$output" == *"1/2 iterations disturbed, median 50 % of CPU taken by others: stress-ng (pid 4242)"* ]]
	[[ "$output" == *" 5! 6 "* ]]
	sp export r > "$TMP/out.json"
	[ "$(json 'd["runs"][0]["benchmarks"][0]["iterations"][1]["culprits"][0]' "$TMP/out.json")" = "{'name': 'stress-ng', 'pid': 4242, 'cpu': 0.4}" ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/out.json"
	SCHEDPERF_DB="$TMP/second.db" sp export r | cmp - "$TMP/out.json"
	# one record per iteration, warm-ups first, well-formed fields
	for edit in 'b["iterations"].pop()' 'b["iterations"][0]["warmup"] = False' \
		    'b["iterations"][1]["cpu_taken"] = -1' 'b["iterations"][1]["started"] = "x"' 'b["iterations"][1]["disturbed"] = 1' \
		    'del b["iterations"][1]["disturbed"]' \
		    'b["iterations"][1]["culprits"][0]["pid"] = "x"' 'b["iterations"][1]["bogus"] = 1'; do
		"$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[1])); b=d['runs'][0]['benchmarks'][0]; $edit; json.dump(d, open(sys.argv[2], 'w'))" "$TMP/int.json" "$TMP/bad.json"
		run env SCHEDPERF_DB="$TMP/third.db" "$SP" import "$TMP/bad.json"
		[ "$status" -eq 2 ]
		assert_one_line_error
	done
}

@test "import keeps an iteration that ended before it started (a wall-clock step) as it was" {
	cat > "$TMP/step.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [{"name": "r", "started": "2026-01-01T00:00:00Z",
 "complete": true, "environment": {},
 "benchmarks": [{"workload": "pipe", "params": {},
   "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower", "samples": [5, 6]}],
   "iterations": [{"cpu_taken": 0.0, "cpu_available": 1.0,
                   "started": 1767225600.5, "ended": 1767225500.25},
                  {"cpu_taken": 0.0, "cpu_available": 1.0,
                   "started": 1767225601.0, "ended": 1767225601.5}]}]}]}
JSON
	sp import "$TMP/step.json"
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE ended < started')" \
	  -eq 1 ]
	# what shows a run shows no duration of it, negative or not
	for cmd in "runs" "runs --format json" "show r --samples"; do
		run sp $cmd
		[ "$status" -eq 0 ] || { echo "$cmd: $output"; false; }
		[[ "$output" != *-100* ]] || { echo "$cmd: $output"; false; }
	done
	sp report r -o "$TMP/r.html"
	[ -s "$TMP/r.html" ]
	sp export r > "$TMP/out.json"
	[ "$(json 'd["runs"][0]["benchmarks"][0]["iterations"][0]["ended"]' "$TMP/out.json")" = \
	  1767225500.25 ]
	SCHEDPERF_DB="$TMP/second.db" sp import "$TMP/out.json"
	SCHEDPERF_DB="$TMP/second.db" sp export r | cmp - "$TMP/out.json"
}

@test "batches of benchmarks of every shape are read back as they were imported" {
	mixed_batches "$TMP/mixed.json"
	sp import "$TMP/mixed.json"
	sp export a b > "$TMP/out.json"
	same_json "$TMP/mixed.json" "$TMP/out.json"
	run sp show a --samples
	[[ "$output" == *"pipe loops=20  (3 failed iterations)"* ]]
	[[ "$output" == *"2/4 iterations disturbed"*"stress-ng (pid 4244), kworker/0:1 (pid 7), stress-ng (pid 4246)"* ]]
	[[ "$output" == *"only_here            (8) 4 3! 2 1!"* ]]
	[[ "$output" == *"usec_per_op          (5) 3! 4  [usec]"* ]]
}
