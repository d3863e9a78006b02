#!/usr/bin/env bats
# schedperf runs: each run with its batches, benchmarks, samples and
# disturbed iterations.

load helpers

@test "runs: BENCHMARKS counts each benchmark of a run once, whatever its batches and a suite's entries" {
	printf '%s\n' '- workload: pipe' '  params: {loops: 20}' '  iterations: 1' \
		'- workload: pipe' '  params: {loops: [20, 30]}' '  iterations: 2' > "$TMP/s.yaml"
	sp run --suite "$TMP/s.yaml" --name a -q
	sp run --suite "$TMP/s.yaml" --name a -q
	sp run pipe -p loops=20 -i 1 --name b -q
	run sp runs
	[ "$status" -eq 0 ]
	# pipe loops=20 and loops=30; 2 metrics x 5 iterations x 2 batches
	[ "$(echo "$output" | awk '$1 == "a" { print $2, $3, $4 }')" = "2 2 20" ]
	[ "$(echo "$output" | awk '$1 == "b" { print $2, $3, $4 }')" = "1 1 2" ]
	run sp runs --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/r.json"
	[ "$(json "[(r['name'], len(r['batches']), r['benchmarks'], r['samples']) for r in d]" \
		"$TMP/r.json")" = "[('a', 2, 2, 20), ('b', 1, 1, 2)]" ]
}

@test "runs: columns stay aligned with a long name, a name beyond ASCII and start times of both precisions" {
	import_named_at v1 2026-01-01T00:00:00Z v2 2026-01-02T00:00:00.123456Z \
		"$(printf 'x%.0s' {1..100})" 2026-01-03T00:00:00Z \
		"$(printf '\xc3\xbc%.0s' {1..40})" 2026-01-04T00:00:00Z
	sp runs >"$TMP/out"
	# the name lines end where the header does, the batch lines' states start together
	"$PYTHON" -c 'import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
names = [l for l in lines if not l.startswith(" ")]
batches = [l for l in lines if l.startswith("    batch")]
sys.exit(len({len(l) for l in names}) != 1 or len({l.index("complete") for l in batches}) != 1)' "$TMP/out" ||
		{ cat "$TMP/out"; false; }
}

@test "runs: columns stay aligned on a terminal with wide CJK characters, combining marks and a zero-width space in names" {
	import_named_at plain 2026-01-01T00:00:00Z "$(printf '\xe6\x97\xa5\xe6\x9c\xac')" 2026-01-02T00:00:00Z \
		"$(printf 'e\xcc\x81e\xcc\x81')" 2026-01-03T00:00:00Z "$(printf 'zw\xe2\x80\x8bj')" 2026-01-04T00:00:00Z
	sp runs >"$TMP/out"
	# the name lines end at one column of the terminal, as the header does
	"$PYTHON" -c 'import sys, unicodedata
def width(l):
	return sum(0 if unicodedata.combining(c) or c == "\u200b" else
		   2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l)
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
sys.exit(len({width(l) for l in lines if not l.startswith(" ")}) != 1)' "$TMP/out" ||
		{ cat "$TMP/out"; false; }
}

@test "runs: a run's batches together in start order, the runs in the order of their first batches" {
	import_named_at b 2026-01-02T00:00:00Z a 2026-01-01T00:00:00Z b 2026-01-03T00:00:00Z \
		a 2026-01-04T00:00:00Z c 2026-01-05T00:00:00Z
	run sp runs
	[ "$status" -eq 0 ]
	echo "$output"
	[ "$(awk '!/^ /{ print $1, $2 } /^    batch/{ print $3 }' <<<"$output" | tr '\n' ' ')" = \
		"NAME BATCHES a 2 2026-01-01T00:00:00Z 2026-01-04T00:00:00Z b 2 $(
		)2026-01-02T00:00:00Z 2026-01-03T00:00:00Z c 1 2026-01-05T00:00:00Z " ]
	sp runs --format json >"$TMP/r.json"
	[ "$(json "[(r['name'], [b['started'][8:10] for b in r['batches']]) for r in d]" \
		"$TMP/r.json")" = "[('a', ['01', '04']), ('b', ['02', '03']), ('c', ['05'])]" ]
}
