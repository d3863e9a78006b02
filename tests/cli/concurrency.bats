#!/usr/bin/env bats
# Concurrency: writers share one SQLite store (WAL, one short
# transaction per iteration), and readers see whole iterations only.

load helpers

iterations_of() {	# iterations_of RUN: its successful iterations
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations i
		JOIN benchmarks be ON be.id = i.benchmark_id JOIN batches b ON b.id = be.batch_id
		JOIN runs r ON r.id = b.run_id WHERE r.name = '$1' AND i.failure IS NULL"
}

# whole_export FILE: every benchmark of an export has the same number of
# samples in each of its metrics (an iteration is all its metrics or none).
whole_export() {
	"$PYTHON" - "$1" <<-'EOF'
	import json, sys
	d = json.load(open(sys.argv[1]))
	for r in d["runs"]:
	    for b in r["benchmarks"]:
	        counts = {m["name"]: len(m["samples"]) for m in b["metrics"]}
	        if len(set(counts.values())) > 1:
	            sys.exit("partial iteration in %s: %s" % (r["name"], counts))
	EOF
}

# wait_ok PID NAME: the background run NAME (stderr in $TMP/err-NAME) exits 0.
wait_ok() {
	local rc=0
	wait "$1" || rc=$?
	[ "$rc" -eq 0 ] || { echo "$2: exit $rc: $(cat "$TMP/err-$2")"; return 1; }
}

@test "concurrency: two runs writing one store at once both complete" {
	sp run pipe -p loops=10 -i 1 --name first -q	# the store exists before the race
	"$SP" run pipe -p loops=2000 -p mode=process,thread -i 15 --name c1 -q 2>"$TMP/err-c1" &
	local p1=$!
	"$SP" run pipe -p loops=2000 -i 30 --warmup 2 --name c2 -q 2>"$TMP/err-c2" &
	local p2=$!
	wait_ok "$p1" c1
	wait_ok "$p2" c2
	[ "$(iterations_of c1)" -eq 30 ]
	[ "$(iterations_of c2)" -eq 32 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches WHERE complete = 1')" -eq 3 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
}

@test "concurrency: two runs on a new store (both create the schema) both complete" {
	"$SP" run pipe -p loops=500 -i 10 --name n1 -q 2>"$TMP/err-n1" &
	local p1=$!
	"$SP" run pipe -p loops=500 -i 10 --name n2 -q 2>"$TMP/err-n2" &
	local p2=$!
	wait_ok "$p1" n1
	wait_ok "$p2" n2
	[ "$(iterations_of n1)" -eq 10 ]
	[ "$(iterations_of n2)" -eq 10 ]
}

@test "concurrency: two runs upgrading one version 1 store at once both complete" {
	local data="$BATS_TEST_DIRNAME/../data" current
	sqlite3 "$SCHEDPERF_DB" <"$data/store-v1.sql"
	"$SP" run pipe -p loops=500 -i 10 --name u1 -q 2>"$TMP/err-u1" &
	local p1=$!
	"$SP" run pipe -p loops=500 -i 10 --name u2 -q 2>"$TMP/err-u2" &
	local p2=$!
	wait_ok "$p1" u1
	wait_ok "$p2" u2
	[ "$(iterations_of u1)" -eq 10 ]
	[ "$(iterations_of u2)" -eq 10 ]
	# upgraded once, to the version a new store has, the old runs unchanged
	sp --db "$TMP/new.db" run pipe -p loops=10 -i 1 --name new -q
	current=$(sqlite3 "$TMP/new.db" 'PRAGMA user_version')
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version')" -eq "$current" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	sp export v1-pipe v1-fw >"$TMP/v1.json"
	same_json "$TMP/v1.json" "$data/store-v1.json"
}

# One read of the live run by export and by compare, each seeing whole
# iterations only; reads counts them.
read_live() {
	local n
	"$SP" export live -o "$TMP/live.json"
	whole_export "$TMP/live.json"
	"$SP" compare base live --format json >"$TMP/cmp.json"
	# every metric of the workload counted the same iterations
	n=$(json "sorted(set(r['runs'][1]['n'] for r in d['rows']))" "$TMP/cmp.json")
	[[ "$n" == \[[0-9]*\] ]] || { echo "compare saw n = $n"; return 1; }
	reads=$((reads + 1))
}

# iterations_go N: let N more iterations of the command runs end.
iterations_go() {
	head -c "$1" /dev/zero >&7
}

live_has() {	# live_has N: the live run has committed N iterations
	[ "$(iterations_of live)" -ge "$1" ]
}

teardown() {
	[ -z "${runner:-}" ] || kill -INT "$runner" 2>/dev/null || true
	rm -rf "$TMP"
}

# Each iteration of the live run reads one byte from a FIFO that only the
# test writes: the test lets the run go on by bursts of iterations and
# reads while each burst commits, so the reads are as many as the bursts
# however fast or slow the machine, and the run ends only after them.
@test "concurrency: export and compare while a run writes see whole iterations" {
	local cmd="cmd=dd if=$TMP/go of=/dev/null bs=1 count=1 status=none" burst

	mkfifo "$TMP/go"
	exec 7<>"$TMP/go"
	iterations_go 3
	sp run command -p "$cmd" -i 3 --name base -q
	"$SP" run command -p "$cmd" -i 150 --name live -q 2>"$TMP/err-live" 7>&- &
	runner=$!
	iterations_go 1
	wait_for live_has 1
	reads=0
	for burst in 1 5 20 50 73; do
		iterations_go "$burst"
		read_live
	done
	wait_ok "$runner" live
	runner=
	exec 7>&-
	[ "$reads" -eq 5 ]
	[ "$(iterations_of live)" -eq 150 ]
	sp export live -o "$TMP/live.json"
	whole_export "$TMP/live.json"
	[ "$(json "len(d['runs'][0]['benchmarks'][0]['metrics'][0]['samples'])" "$TMP/live.json")" -eq 150 ]
}
