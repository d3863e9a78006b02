#!/usr/bin/env bats
# The classes of failure behind the hostile cases that got through the first
# hardening: statistics whose memory grew with the square of the samples,
# runs killed by any signal, silent deaths by resource limits, names and
# values that are not UTF-8, and files that are not regular. Each test
# covers a class (every signal, every entry point, every statistic), not
# only the case that was found. None depends on the machine's speed.

load helpers

# big_runs N FILE: a schedperf-results/1 file of two runs "r0" and "r1" of
# one benchmark with N lognormal samples each, the second 2 % slower.
big_runs() {
	"$PYTHON" - "$1" >"$2" <<-'PY'
	import json, random, sys
	n = int(sys.argv[1])
	rng = random.Random(n)
	runs = []
	for r, scale in enumerate((1.0, 1.02)):
	    runs.append({"name": "r%d" % r, "started": "2026-01-01T00:00:0%dZ" % r,
	                 "complete": True, "environment": {"kernel.release": "k"},
	                 "benchmarks": [{"workload": "w", "params": {}, "metrics": [
	                     {"name": "seconds", "unit": "s", "better": "lower",
	                      "samples": [scale * rng.lognormvariate(0, 0.3) for _ in range(n)]}]}]})
	json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)
	PY
}

# ASan reserves terabytes of address space, so no ulimit -v applies to it.
skip_under_asan() {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "ulimit -v cannot bound an ASan build"
}

@test "compare: every statistic of 20,000 samples a side fits in 1 GB of address space" {
	skip_under_asan
	big_runs 20000 "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	# the pairwise differences alone took 3.2 GB; every style computes every
	# statistic (Welch, Mann-Whitney, bootstrap, Hodges-Lehmann, medians)
	run bash -c 'ulimit -v 1000000 && exec "$@"' - "$SP" compare r0 r1
	[ "$status" -eq 0 ] || { echo "compare: $status: $output"; return 1; }
	run bash -c 'ulimit -v 1000000 && exec "$@" >"$0"' "$TMP/cmp.json" \
		"$SP" compare r0 r1 --format json
	[ "$status" -eq 0 ] || { echo "compare --format json: $status: $output"; return 1; }
	# the 2 % slowdown found, with both intervals computed
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/cmp.json")" = worse ]
	json 'd["rows"][0]["runs"][1]["ratio_ci"][0] > 1 and d["rows"][0]["runs"][1]["hl_ci"][0] > 0' \
		"$TMP/cmp.json" | grep -qx True
}

@test "compare: 60,000 samples a side (the bootstrap's large-sample limit) fit in 500 MB" {
	skip_under_asan
	big_runs 60000 "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	# the differences would take 29 GB; O(n) memory is a few megabytes
	run bash -c 'ulimit -v 500000 && exec "$@" >"$0"' "$TMP/cmp.json" \
		"$SP" compare r0 r1 --format json
	[ "$status" -eq 0 ] || { echo "compare: $status: $output"; return 1; }
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/cmp.json")" = worse ]
	json '1 < d["rows"][0]["runs"][1]["ratio_ci"][0] < d["rows"][0]["runs"][1]["ratio_ci"][1] < 1.04' \
		"$TMP/cmp.json" | grep -qx True
}
