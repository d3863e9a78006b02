#!/usr/bin/env bash
# Run every unit test binary and every command-line test, count TAP results
# and end with one line "N passed, N failed" (doc/design.md). A skipped test
# (bats: "ok N name # skip why"; cmocka: "not ok N # SKIP name") is neither:
# it is listed with its reason and counted on the line before.
# With --unit, the unit tests alone (`make unit`): no PostgreSQL server,
# no command-line tests, so no root and nothing installed but what builds
# schedperf; test_store leaves its PostgreSQL half to `make check`.
# usage: tests/run.sh SCHEDPERF_BINARY UNIT_TEST_BINARY...
#        tests/run.sh --unit UNIT_TEST_BINARY...
set -u
here=$(cd "$(dirname "$0")" && pwd)
unit_only=false
if [ "$1" = --unit ]; then
	unit_only=true
	export SCHEDPERF_TEST_NO_POSTGRES=1
else
	export SCHEDPERF=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fi
shift
passed=0 failed=0 skipped=0
log=$(mktemp)
pgdir=""
cleanup() {
	rm -f "$log"
	[ -z "$pgdir" ] || "$here/pg-server.sh" stop "$pgdir"
}
trap cleanup EXIT

skip_re='^(not )?ok [0-9]+.* # [Ss][Kk][Ii][Pp]'

count() {	# $1: what ran, $2: its exit code, $3: its seconds; reads TAP from $log
	local ok notok skip skip_note=
	skip=$(grep -c -E "$skip_re" "$log")
	ok=$(grep -E '^ok ' "$log" | grep -c -v -E "$skip_re")
	notok=$(grep -E '^not ok ' "$log" | grep -c -v -E "$skip_re")
	grep -E '^(not ok|#)' "$log" | grep -v -E "$skip_re" | grep -v -E '^# (skip|ok)' |
		sed 's/^/    /' | head -50
	grep -E "$skip_re" "$log" | sed 's/^/    skipped: /'
	if [ "$2" != 0 ] && [ "$notok" = 0 ]; then
		echo "    $1 exited with status $2 (crash or sanitizer report):"
		tail -20 "$log" | sed 's/^/    /'
		notok=1
	fi
	[ "$skip" = 0 ] || skip_note=", $skip skipped"
	echo "$1: $ok passed, $notok failed$skip_note ($3 s)"
	passed=$((passed + ok))
	failed=$((failed + notok))
	skipped=$((skipped + skip))
}

# The PostgreSQL tests share one throwaway server, each in its own database
# (tests/pg-server.sh). A server that does not start fails the run: those
# tests are never skipped.
if ! $unit_only && [ -z "${SCHEDPERF_TEST_PGHOST:-}" ]; then
	pgdir=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
	if "$here/pg-server.sh" start "$pgdir" >"$log" 2>&1; then
		export SCHEDPERF_TEST_PGHOST=$pgdir
	else
		echo "    $(tail -5 "$log")"
		echo "PostgreSQL server for the tests: 0 passed, 1 failed"
		failed=1
	fi
fi

# A test that hangs fails after BATS_TEST_TIMEOUT seconds, marked "timeout"
# with its name, and a file that still does not end (its teardown hangs, or
# a process it left holds bats's output open) is stopped after
# FILE_TIMEOUT: one hang costs minutes and names itself, never the whole
# of CI's time.
export BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-600}
file_timeout=${FILE_TIMEOUT:-1800}

# run_file NAME COMMAND...: COMMAND's TAP into $log, counted as NAME.
run_file() {
	local name=$1 start=$SECONDS rc last

	shift
	timeout --kill-after=30 "$file_timeout" "$@" >"$log" 2>&1
	rc=$?
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		last=$(grep -E '^(not )?ok ' "$log" | tail -1)
		echo "not ok - $name did not end within $file_timeout s;" \
			"the last test to end: ${last:-none}" >>"$log"
	fi
	count "$name" $rc $((SECONDS - start))
}

for t in "$@"; do
	CMOCKA_MESSAGE_OUTPUT=TAP run_file "$(basename "$t")" "$t"
done

for f in "$here"/cli/*.bats; do
	! $unit_only && [ -e "$f" ] || continue
	run_file "cli/$(basename "$f")" bats --tap "$f"
done

[ "$skipped" = 0 ] || echo "$skipped skipped (listed above; neither passed nor failed)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
