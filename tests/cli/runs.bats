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
