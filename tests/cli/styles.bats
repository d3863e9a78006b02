#!/usr/bin/env bats
# compare --style against the tools it imitates: every case of
# tests/reference/styles/cases.txt, imported and compared, must print the
# table that the tool itself printed for the same samples
# (tests/reference/styles/expected/, made by make_fixtures.sh) cell for
# cell: numbers, marks, shown and hidden rows, `~`. schedperf's own lines
# (titles, "schedperf: ..." verdicts) are taken out first.

load helpers

STYLES_DIR="$BATS_TEST_DIRNAME/../reference/styles"

# The tool's part of schedperf's output: without its "schedperf:" lines
# and the title over each MMTests table ("WORKLOAD METRIC (UNIT, lower is
# better)" after a blank line).
tool_part() {
	awk 'BEGIN { first = 1 }
	     /^schedperf:/ { next }
	     first && / is better\)$/ { first = 0; next }
	     { first = ($0 == ""); print }'
}

# check_style STYLE: every case against its fixture.
check_style() {
	local style=$1 failed=0 json runs
	for json in "$STYLES_DIR"/cases/*.json; do
		local name
		name=$(basename "$json" .json)
		export SCHEDPERF_DB="$TMP/$name.db"
		sp import "$json" > /dev/null
		runs=$(json "' '.join(r['name'] for r in d['runs'])" "$json")
		# shellcheck disable=SC2086
		sp compare $runs --all-metrics --style "$style" | tool_part > "$TMP/$name.out"
		if ! diff -u "$STYLES_DIR/expected/$name.$style" "$TMP/$name.out"; then
			echo "case $name: --style $style differs from the tool"
			failed=1
		fi
	done
	return $failed
}

@test "--style mmtests: MMTests' compare-mmtests.pl, cell for cell" {
	check_style mmtests
}

@test "--style mmtests-classic: MMTests v0.27, cell for cell" {
	check_style mmtests-classic
}

@test "--style mmtests: schedperf's verdict is a line of its own, labelled" {
	check_style_fixture=$STYLES_DIR/cases/higher.json
	sp import "$check_style_fixture" > /dev/null
	run sp compare base new --style mmtests
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: threads=4: new better"* ]]
	[[ "$output" == *"schedperf: threads=8: new worse"* ]]
	[[ "$output" == *"Hmean     threads=8          97941.01 (   0.00%)          92974.97 *  -5.07%*"* ]]
}

@test "--style benchstat: golang.org/x/perf's benchstat, cell for cell" {
	check_style benchstat
}

@test "--style lkp: lkp-tests' compare, cell for cell" {
	check_style lkp
}
