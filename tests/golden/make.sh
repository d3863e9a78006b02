#!/usr/bin/env bash
# Golden outputs: what every command that reads a store prints, in every
# format and style, for a set of stores made from the test suite's data
# (tests/data, mixed_batches of tests/cli/helpers.bash and tests/golden/
# data.py: fixed values, nothing measured), on SQLite and on PostgreSQL.
# tests/cli/golden.bats makes them again and diffs them with the committed
# set in tests/golden/expected/, so that a change of the store's code that
# changes an output, even by a byte, fails.
#
# When you change an output ON PURPOSE, make the set again and commit it
# with the change (the diff is then the review of what changed):
#
#     make -j2 all && tests/golden/make.sh
#
# (SCHEDPERF=PATH picks the binary, build/schedperf by default; a
# throwaway PostgreSQL server is started unless $SCHEDPERF_TEST_PGHOST
# names one.) Each output file holds the command's standard output, then,
# when there is any, "--- stderr" and its standard error, then "--- exit N"
# when N is not 0. Store paths and URLs read STORE; the version in the HTML
# report reads VERSION and its SVG charts are left out (gnuplot draws them,
# the words around them are ours). A command runs on every backend of its
# store: where PostgreSQL prints other than SQLite, its output is kept
# beside as NAME.postgres (db check names its backend; only PostgreSQL
# stores have jobs).
#
# Each store is made and read by a job of its own, its commands in the
# order below; a few stores' jobs run at once (they share nothing but the
# server), so that the commands' waits on the server overlap.
#
# usage: tests/golden/make.sh [OUTDIR]    (default: tests/golden/expected)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tests=$(dirname "$here")
data=$tests/data
SP=${SCHEDPERF:-$tests/../build/schedperf}
out=${1:-$here/expected}
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3

export TZ=UTC LC_ALL=C NO_COLOR=1
unset SCHEDPERF_DB SCHEDPERF_JOB

work=$(mktemp -d /tmp/schedperf-golden.XXXXXX)
pg_own=
# The stores: NAME -> its SQLite file and, unless it is SQLite's only, its
# PostgreSQL database and its URL.
declare -A sqlite_of pg_of pgdb_of
cleanup() {
	local db drops=()

	# a job still running when another failed
	kill $(jobs -p) 2>/dev/null || true
	wait || true
	for db in "${pgdb_of[@]}"; do
		drops+=(-c "DROP DATABASE IF EXISTS $db WITH (FORCE)")
	done
	# one session, each -c its own transaction
	[ ${#drops[@]} = 0 ] || psql -qXAt "$(pg_url postgres)" -c "SET client_min_messages = warning" \
		"${drops[@]}" || true
	[ -z "$pg_own" ] || "$tests/pg-server.sh" stop "$pg_own"
	rm -rf "$work"
}
trap cleanup EXIT

if [ -z "${SCHEDPERF_TEST_PGHOST:-}" ]; then
	pg_own=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
	"$tests/pg-server.sh" start "$pg_own" >/dev/null
	SCHEDPERF_TEST_PGHOST=$pg_own
fi

pg_url() {	# pg_url DATABASE
	printf 'postgresql:///%s?host=%s&user=postgres' "$1" "$SCHEDPERF_TEST_PGHOST"
}

psql_in() {	# psql_in DATABASE SQL
	psql -qXAt -v ON_ERROR_STOP=1 "$(pg_url "$1")" -c "$2"
}

# mixed_batches, as the command-line tests make it.
mixed_batches() {
	# shellcheck source=../cli/helpers.bash
	(source "$tests/cli/helpers.bash" && mixed_batches "$1")
}

# The names of a command's --format or --style, from its registry, as the
# command-line tests read them, read once: choices_of["COMMAND OPTION"].
declare -A choices_of
for c in "runs format" "history format" "detect format" "compare format" "compare style" \
	 "jobs format"; do
	# shellcheck source=../cli/helpers.bash
	choices_of[$c]=$(source "$tests/cli/helpers.bash" && choices $c)
done
choices() {
	echo "${choices_of[$1 $2]}"
}

# label BASE FORMAT: the file of BASE's output in FORMAT: BASE for text,
# BASE.md for markdown, else BASE.FORMAT.
label() {
	case $2 in
	text) echo "$1" ;;
	markdown) echo "$1.md" ;;
	*) echo "$1.$2" ;;
	esac
}

rm -rf "$out"
mkdir -p "$out"

# step STORE COMMAND...: COMMAND (a function of this script and its
# arguments) is the next step of STORE's job (run_steps, at the end).
step() {
	local name=$1
	shift
	printf '%q ' "$@" >>"$work/steps.$name"
	echo >>"$work/steps.$name"
}

# store NAME [--sqlite-only] FILE...: a store of NAME made from FILE...,
# the first step of its job.
store() {
	local name=$1 pg=true
	shift
	[ "$1" != --sqlite-only ] || { pg=false; shift; }
	sqlite_of[$name]=$work/$name.db
	if $pg; then
		pgdb_of[$name]=golden_${name//-/_}_$$
		pg_of[$name]=$(pg_url "${pgdb_of[$name]}")
	fi
	step "$name" make_store "$name" "$@"
}

# make_store NAME FILE...: schedperf-results/1 files are imported, .sql
# files (an older schema, as an earlier schedperf wrote it) are loaded into
# SQLite as they are, their .json export imported into PostgreSQL.
make_store() {
	local name=$1 f
	shift
	mkdir -p "$out/$name"
	for f in "$@"; do
		case $f in
		*.sql) sqlite3 "${sqlite_of[$name]}" <"$f" ;;
		*) "$SP" --db "${sqlite_of[$name]}" import "$f" >/dev/null ;;
		esac
	done
	[ -n "${pg_of[$name]:-}" ] || return 0
	psql_in postgres "CREATE DATABASE ${pgdb_of[$name]}"
	for f in "$@"; do
		case $f in
		*.sql) f=${f%.sql}.json ;;
		esac
		"$SP" --db "${pg_of[$name]}" import "$f" >/dev/null
	done
}

# record FILE LOCATION COMMAND...: run schedperf on the store at LOCATION
# and write what it printed into FILE, the location read as STORE. $scratch
# is the job's own directory.
record() {
	local file=$1 location=$2 rc=0
	shift 2
	"$SP" --db "$location" "$@" >"$scratch/stdout" 2>"$scratch/stderr" || rc=$?
	if [ -s "$scratch/stderr" ]; then
		echo "--- stderr" >>"$scratch/stdout"
		cat "$scratch/stderr" >>"$scratch/stdout"
	fi
	[ "$rc" = 0 ] || echo "--- exit $rc" >>"$scratch/stdout"
	sed -e "s|$location|STORE|g" -e "s|$work|WORK|g" "$scratch/stdout" >"$file"
}

# run_check STORE LABEL COMMAND...: the output of COMMAND on STORE, as
# OUTDIR/STORE/LABEL, and LABEL.postgres where PostgreSQL's differs.
run_check() {
	local name=$1 label=$2
	shift 2
	record "$out/$name/$label" "${sqlite_of[$name]}" "$@"
	[ -n "${pg_of[$name]:-}" ] || return 0
	record "$scratch/pg" "${pg_of[$name]}" "$@"
	cmp -s "$scratch/pg" "$out/$name/$label" || mv "$scratch/pg" "$out/$name/$label.postgres"
}

# The names of the runs of store NAME, on its SQLite side.
run_names() {
	"$SP" --db "${sqlite_of[$1]}" runs --format json |
		"$PYTHON" -c 'import json, sys; print(" ".join(r["name"] for r in json.load(sys.stdin)))'
}

check_export_all() {	# check_export_all STORE: the export of its every run
	run_check "$1" export-all export $(run_names "$1")
}

check_shows() {	# check_shows STORE: show, of its every run
	local run
	for run in $(run_names "$1"); do
		run_check "$1" "show-$run" show "$run"
		run_check "$1" "show-$run-samples-env" show "$run" --samples --env
	done
}

# run_report STORE LABEL ARGS...: the HTML report's words: its SVG charts
# left out, the version read as VERSION.
run_report() {
	local name=$1 label=$2 location
	shift 2
	for location in "${sqlite_of[$name]}" ${pg_of[$name]:+"${pg_of[$name]}"}; do
		rm -f "$scratch/report.html"
		"$SP" --db "$location" report "$@" -o "$scratch/report.html" >/dev/null 2>&1 || true
		[ -e "$scratch/report.html" ] || echo "no report" >"$scratch/report.html"
		"$PYTHON" - "$scratch/report.html" <<'PY' >"$scratch/report.txt"
import re, sys
page = open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read()
page = re.sub(r"<svg.*?</svg>", "<svg/>", page, flags=re.S)
page = re.sub(r"Generated by schedperf \S+?\. ", "Generated by schedperf VERSION. ", page)
sys.stdout.write(page)
PY
		if [ "$location" = "${sqlite_of[$name]}" ]; then
			mv "$scratch/report.txt" "$out/$name/$label"
		elif ! cmp -s "$scratch/report.txt" "$out/$name/$label"; then
			mv "$scratch/report.txt" "$out/$name/$label.postgres"
		fi
	done
}

# check STORE LABEL COMMAND... and report STORE LABEL ARGS...: a step of
# STORE's job, run_check's and run_report's.
check() {
	step "$1" run_check "$@"
}

report() {
	step "$1" run_report "$@"
}

"$PYTHON" "$data/make_history.py" "$work/history.json" 40
mixed_batches "$work/mixed.json"
"$PYTHON" "$here/data.py" "$work"

store compare "$data/compare-runs.json"
store history "$work/history.json"
store mixed "$work/mixed.json"
store profiles "$work/profiles.json"
store fleet "$work/fleet.json"
for v in 1 2 3 4; do
	store "v$v" --sqlite-only "$data/store-v$v.sql"
	store "v$v-imported" "$data/store-v$v.json"
done
store jobs "$data/compare-runs.json"

# Every store: what it holds, in every format.
for name in "${!sqlite_of[@]}"; do
	for cmd in runs history detect; do
		for f in $(choices $cmd format); do
			check "$name" "$(label $cmd "$f")" $cmd --format "$f"
		done
	done
	check "$name" db-check db check
	step "$name" check_export_all "$name"
done

# show, of each run of some stores.
for name in compare mixed profiles fleet v1 v2 v3 v4; do
	step "$name" check_shows "$name"
done
check profiles show-p1-profile show p1 --profile
check profiles show-p2-profile-top show p2 --profile --top 2
check profiles show-extra-profile show extra --profile
check mixed show-missing show nosuch

# compare: every style in the formats styles shape (text and markdown),
# then every other format.
compare_all() {	# compare_all STORE LABEL RUNS-AND-OPTIONS...
	local name=$1 base=$2 style f
	shift 2
	for f in $(choices compare format); do
		case $f in
		text | markdown)
			for style in $(choices compare style); do
				check "$name" "$(label "$base.$style" "$f")" compare "$@" \
					--style "$style" --format "$f"
			done ;;
		*)
			check "$name" "$(label "$base" "$f")" compare "$@" --format "$f" ;;
		esac
	done
}
compare_all compare compare-base-slow base slow
compare_all compare compare-three base slow twin
compare_all mixed compare-a-b a b
compare_all mixed compare-a-b-all a b --all-metrics --exclude-disturbed
compare_all fleet compare-x-y-pooled x y --pool-machines
compare_all v4 compare-v4 v4-pipe v4-fw
check compare compare-only-changed compare base slow twin --only-changed --adjust holm --alpha 0.01
check compare compare-fail compare base slow --fail-on-regression --margin 5
check compare compare-workload compare base slow --workload wx --metric seconds --seed 7
check mixed compare-workload compare a b --workload pipe --format json
check fleet compare-x-y compare x y
check fleet compare-machine compare x y --machine here
check profiles compare-profile compare p1 p2 --profile
check profiles compare-profile-top compare p1 p2 extra --profile --top 3
check profiles compare-profile.json compare p1 p2 --profile --format json

# history and detect with their options.
check history history-messaging history --workload messaging
check history history-by-batch.csv history --by batch --format csv
check history history-order-name.csv history --order name --format csv --workload threads
check history history-order-version history --order version -p loops=1000
check history detect-magnitude detect --magnitude 5 --workload futex-hash
check history detect-pvalue.json detect --pvalue 1e-300 --format json
check history detect-window detect --window 10 --workload messaging
check history detect-fail detect --fail-on-regression
check fleet history-machine history --machine here
check fleet history-pooled history --pool-machines
check fleet detect-pooled detect --pool-machines
check fleet runs-machine runs --machine 'oth*'

# report: the words of the page.
report compare report-base-slow base slow
report mixed report-a-b a b
report fleet report-x-y x y --pool-machines
report history report-history 6.1 6.40 --history --workload messaging,pipe

# jobs: queued with the times of the queue's life set by hand (only a
# worker moves a job on, and it stamps the clock). The store is given as
# $SCHEDPERF_DB: a job's --dry-run reads that one.
run_submit() {
	SCHEDPERF_DB=${pg_of[jobs]} "$SP" submit "$@" >/dev/null
}
submit() {
	step jobs run_submit "$@"
}
submit --machine golden-host pipe -p loops=10 -i 1 --name j1
submit --machine golden-host --priority 5 pipe -i 2 --name j2
submit --machine 'golden-*' --max-attempts 5 pipe -i 1 --name j3
submit --machine golden-host ab pipe --a param:mode=process --b param:mode=thread --seed 7 --name j4
submit --machine golden-host --repeat 2 pipe -i 1 --name j5
step jobs psql_in "${pgdb_of[jobs]}" "
	UPDATE jobs SET submitted = '2026-02-01T00:00:0' || id || '.000Z',
		since = '2026-02-01T00:01:0' || id || '.000Z';
	UPDATE jobs SET state = 'running', worker = 'golden-host', claim = 'c', attempts = 1,
		lease_until = '2100-01-01' WHERE id = 2;
	UPDATE jobs SET state = 'failed', worker = 'golden-host', attempts = 5,
		reason = 'given up after 5 attempts' WHERE id = 3;
	UPDATE jobs SET state = 'done', worker = 'golden-host', attempts = 1,
		result = '{\"verdict\": \"SAME\"}', result_batch = 1 WHERE id = 4;
	UPDATE jobs SET state = 'cancelled' WHERE id = 5;"
for f in $(choices jobs format); do
	check jobs "$(label jobs "$f")" jobs --format "$f"
done

# run_steps STORE: STORE's job, its steps in order (read on fd 3, which its
# commands are not given).
run_steps() {
	local line

	scratch=$work/scratch.$1
	mkdir "$scratch"
	while IFS= read -r -u 3 line; do
		eval "$line" 3<&-
	done 3<"$work/steps.$1"
}

# The jobs, the longest first, a few at a time: the commands' waits on the
# server and on each other's I/O overlap. A failed job fails the whole.
max_jobs=$(($(nproc) + 2))
running=0
failed=0
for name in $(for n in "${!sqlite_of[@]}"; do echo "$(wc -l <"$work/steps.$n") $n"; done |
	      sort -rn | cut -d' ' -f2); do
	if [ "$running" -ge "$max_jobs" ]; then
		wait -n || failed=1
		running=$((running - 1))
	fi
	run_steps "$name" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
[ "$failed" = 0 ] || { echo "make.sh: a store's commands failed (above)" >&2; exit 1; }
