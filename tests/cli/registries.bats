#!/usr/bin/env bats
# The names of the workloads, monitors, styles and built-in suites, read
# from their registries through the command line, are each in the texts
# that list them by hand: the man page, README.md, run's and compare's
# --help (tests/cli/registry_names.py).

load helpers

CHECK="$BATS_TEST_DIRNAME/registry_names.py"
MAN="$BATS_TEST_DIRNAME/../../doc/schedperf.1"
README="$BATS_TEST_DIRNAME/../../README.md"

@test "registries: each workload, monitor, style and suite is named where a text lists them" {
	run "$PYTHON" "$CHECK" "$SP" "$MAN" "$README"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
}

@test "registries: a name the README or the man page leaves out is found" {
	sed 's/^  forkspread, cyclictest/  cyclictest/' "$README" > "$TMP/README.md"
	sed 's/^rusage: vmstat, stat, softirqs, schedstat and/rusage: vmstat, stat, softirqs and/' \
		"$MAN" > "$TMP/schedperf.1"
	run "$PYTHON" "$CHECK" "$SP" "$TMP/schedperf.1" "$TMP/README.md"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 2 ] || { echo "$output"; false; }
	[[ "$output" == *"workload forkspread: not named in README.md's **Workloads**"* ]]
	[[ "$output" == *"monitor schedstat: not named in run's entry in the man page"* ]]
}

@test "registries: the standard suite runs every workload but command" {
	"$SP" list | grep -E '^[a-z0-9-]+$' | grep -vx command | sort > "$TMP/workloads"
	[ "$(wc -l < "$TMP/workloads")" -ge 15 ]
	"$SP" run --suite standard --dry-run | sed -n 's/^\([a-z][a-z0-9-]*\) [a-z_]*=.*/\1/p' |
		sort -u > "$TMP/standard"
	diff "$TMP/workloads" "$TMP/standard"
}
