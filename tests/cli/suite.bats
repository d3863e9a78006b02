#!/usr/bin/env bats
# The suite itself: no assertion in it is one that can never fail
# (dead_assertions.awk says which cannot).

load helpers

dead() {	# dead FILE...: the dead assertions of FILE
	awk -f "$BATS_TEST_DIRNAME/dead_assertions.awk" "$@"
}

@test "suite: no negated command or && chain of tests that errexit ignores" {
	run dead "$BATS_TEST_DIRNAME"/*.bats "$BATS_TEST_DIRNAME"/helpers.bash
	[ "$status" -eq 0 ]
	[ -z "$output" ] || { echo "dead assertions (use refute, one test per line):"; echo "$output"; false; }
}

@test "suite: the check finds dead assertions, and only those" {
	printf '%s\n' '@test "x" {' '	! false' '	[ 1 ] && [ 2 ]' '	! true 2>/dev/null' \
		'	# a comment' '' '	true' '}' 'f() {' '	[ 1 ] && [ 2 ]' '}' 'g() {' \
		'	! grep -q x "$1" \' '		|| return 1' '	! cmd || { echo no; return 1; }' \
		'	[ -n "$x" ] && return 0' '	! grep -q x' '}' >"$TMP/t.bats"
	run dead "$TMP/t.bats"
	[ "$status" -eq 0 ]
	[ "$output" = "$TMP/t.bats:2: 	! false
$TMP/t.bats:3: 	[ 1 ] && [ 2 ]
$TMP/t.bats:4: 	! true 2>/dev/null" ]
}
