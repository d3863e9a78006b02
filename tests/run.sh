#!/usr/bin/env bash
# Run every unit test binary and every command-line test, count TAP results
# and end with one line "N passed, N failed" (doc/design.md).
# usage: tests/run.sh SCHEDPERF_BINARY UNIT_TEST_BINARY...
set -u
here=$(cd "$(dirname "$0")" && pwd)
export SCHEDPERF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
shift
passed=0 failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

count() {	# $1: what ran, $2: its exit code; reads TAP from $log
	local ok notok
	ok=$(grep -c '^ok ' "$log")
	notok=$(grep -c '^not ok ' "$log")
	grep -E '^(not ok|#)' "$log" | grep -v -E '^# (skip|ok)' | sed 's/^/    /' | head -50
	if [ "$2" != 0 ] && [ "$notok" = 0 ]; then
		echo "    $1 exited with status $2 (crash or sanitizer report):"
		tail -20 "$log" | sed 's/^/    /'
		notok=1
	fi
	echo "$1: $ok passed, $notok failed"
	passed=$((passed + ok))
	failed=$((failed + notok))
}

for t in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$log" 2>&1
	count "$(basename "$t")" $?
done

for f in "$here"/cli/*.bats; do
	[ -e "$f" ] || continue
	bats --tap "$f" >"$log" 2>&1
	count "cli/$(basename "$f")" $?
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
