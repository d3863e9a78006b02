#!/usr/bin/env bash
# How soon an idle worker takes a job queued just after its last one ended,
# as a bisection's next round is: JOBS no-op jobs (pipe, 1 loop, 1
# iteration, no monitors), each submitted once the one before is done, to
# one worker, through each binary in turn, interleaved, on a throwaway
# PostgreSQL server (tests/pg-server.sh). Prints each binary's median
# seconds from a submit to the job done, and their ratio (the second's
# over the first's).
# usage: bench/job-turnaround.sh SCHEDPERF_A SCHEDPERF_B [JOBS]
set -euo pipefail
jobs=${3:-20}
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
bins=("$(abs "$1")" "$(abs "$2")")
# shellcheck source=bench/pg.sh
. "$(dirname "$0")/pg.sh"

# one_job SP DB: seconds from a submit to its job done, by the running worker
one_job() {
	local start id
	start=$(now)
	id=$(SCHEDPERF_DB=$(url "$2") "$1" submit pipe -p loops=1 -i 1 --no-monitors --name "j$RANDOM$RANDOM")
	until [ "$(sql "$2" "SELECT state FROM jobs WHERE id = $id")" = done ]; do
		sleep 0.01
	done
	echo "$(now) - $start" | bc -l
}

for round in $(seq "$jobs"); do
	for b in 0 1; do
		db="d${b}_$round"
		sql postgres "CREATE DATABASE $db"
		SCHEDPERF_DB=$(url "$db") "${bins[$b]}" db init >/dev/null
		SCHEDPERF_DB=$(url "$db") "${bins[$b]}" -q worker &
		pid=$!
		one_job "${bins[$b]}" "$db" >/dev/null	# the worker has run a job
		one_job "${bins[$b]}" "$db" >>"$dir/t$b"
		kill "$pid"
		wait "$pid" || true
	done
done
a=$(median <"$dir/t0")
b=$(median <"$dir/t1")
printf 'job turnaround, %d jobs each, median: A %.3f s, B %.3f s, B/A %.2f\n' \
	"$jobs" "$a" "$b" "$(echo "$b / $a" | bc -l)"
