#!/usr/bin/env bash
# valgrind memcheck over a representative set of commands: no
# memory error and no definite leak, in schedperf and in the workload
# children it forks (they stay under valgrind). Ends with "N passed, N failed".
# usage: tests/valgrind.sh SCHEDPERF_BINARY
set -u
sp=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export SCHEDPERF_DB="$work/store.db"
passed=0 failed=0

command -v valgrind >/dev/null || {
	echo "schedperf: valgrind is missing: memcheck cannot run (run scripts/install-deps.sh)" >&2
	exit 3
}

# check WANT_EXIT ARGS...: schedperf ARGS under memcheck exits WANT_EXIT
# ("0|1": either, for checks whose verdict depends on the machine).
check() {
	local want=$1 rc=0
	shift
	timeout 300 valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite --show-leak-kinds=definite \
		--track-origins=yes --log-file="$work/vg.%p.log" \
		"$sp" "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
	if [[ "|$want|" == *"|$rc|"* ]] && ! grep -q . "$work"/vg.*.log 2>/dev/null; then
		echo "ok: schedperf $*"
		passed=$((passed + 1))
	else
		echo "FAILED (exit $rc, expected $want): schedperf $*"
		cat "$work"/vg.*.log "$work/err" 2>/dev/null | head -60 | sed 's/^/    /'
		failed=$((failed + 1))
	fi
	rm -f "$work"/vg.*.log
}

check 0 list
check 0 env
check '0|1' env --check
check 0 run pipe -p loops=200 -i 2 --warmup 1 --name a -q
check 0 run pipe -p loops=200 -p mode=thread -i 2 --name b -q
check 0 run messaging -p groups=1 -p fds=2 -p loops=20 -p mode=process -i 2 --name b -q
check 0 run messaging -p groups=1 -p fds=2 -p loops=20 -p mode=thread -p ipc=socket -i 2 --name b -q
check 0 run pipe -p mode=process,thread --sweep loops=pow2:100..400 -i 1 --name s --dry-run
check 0 run --suite quick --dry-run
check 0 runs
check 0 runs --format json
check 0 show a
check 0 show b --samples --env
check 0 compare a b
check 0 compare a b --format json
check 0 export a b -o "$work/ab.json"
check 0 import "$here/fuzz/corpus/fuzz_import/minimal.json"
check 2 import "$here/fuzz/corpus/fuzz_import/minimal.json"
check 2 import "$here/fuzz/corpus/fuzz_import/nan.json"
check 2 import "$here/fuzz/corpus/fuzz_import/bad.json"
check 2 run pipe -p loops=abc
check 2 run bogus
check 2 compare a bogus
check 2 show bogus

echo "valgrind: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
