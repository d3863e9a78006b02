#!/usr/bin/env bats
# The option tables: --help is made from them, and the man page agrees.

load helpers

@test "options: every command's --help and doc/schedperf.1 name the same options" {
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" \
		"$BATS_TEST_DIRNAME/../../doc/schedperf.1"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "options: the common options are accepted by every command" {
	for cmd in list runs env; do
		run sp "$cmd" --db "$TMP/none.db" --help
		[ "$status" -eq 0 ]
		[[ "$output" == *"--db FILE"* ]]
		[[ "$output" == *"-q, --quiet"* ]]
	done
	run sp list -q pipe
	[ "$status" -eq 0 ]
	[[ "$output" == pipe* ]]
}

@test "options: an integer option out of range names the option and its range" {
	run sp run pipe -i 0
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"--iterations '0' is not a whole number in 1..1000000"* ]]
	run sp run pipe --iterations
	[ "$status" -eq 2 ]
	[[ "$output" == *"option '--iterations' is unknown or lacks its value"* ]]
}

@test "options: help lines fit 80 columns and each option is listed once" {
	cmds=$(sp help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
	[ "$(echo "$cmds" | wc -w)" -ge 9 ]
	for cmd in $cmds; do
		run sp "$cmd" --help
		[ "$status" -eq 0 ]
		refute awk 'length($0) > 79 { print; bad = 1 } END { exit !bad }' <<<"$output"
		dups=$(printf '%s\n' "$output" | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' | sort | uniq -d)
		[ -z "$dups" ]
	done
}
