#!/usr/bin/env bats
# The PostgreSQL store: the same commands and results as on SQLite, runs
# moved between them, a server that stops mid-run, a read-only role.
# A real server (tests/pg-server.sh), each test in its own database.

load helpers
pg_file
pg_each_test

# same_compare ARGS...: `compare a b ARGS` prints the same on SQLite and on
# PostgreSQL, and exits the same: 0, or 1 for a worse verdict; never
# with an error, which would print nothing on both.
same_compare() {
	local rc1=0 rc2=0

	sp compare a b "$@" >"$TMP/c1" || rc1=$?
	sp --db "$PG" compare a b "$@" >"$TMP/c2" || rc2=$?
	[ "$rc1" -le 1 ] || { echo "compare a b $*: exit $rc1"; return 1; }
	[ "$rc2" -eq "$rc1" ] || { echo "compare a b $*: exit $rc2 on PostgreSQL, $rc1 on SQLite"; return 1; }
	[ -s "$TMP/c1" ]
	cmp "$TMP/c1" "$TMP/c2"
}

@test "postgres: SQLite -> export -> import into PostgreSQL -> compare is identical" {
	sp run pipe -p loops=1000 -i 3 --warmup 1 --name a -q
	sp run pipe -p loops=1000 -i 2 --name a -q
	# with profiles where this user may sample (a note and none where not)
	sp run pipe -p loops=2000 -i 3 --name b -q --monitors profile 2>/dev/null
	sp export a b -o "$TMP/one.json"
	sp --db "$PG" import "$TMP/one.json"
	sp --db "$PG" export a b > "$TMP/two.json"
	cmp "$TMP/one.json" "$TMP/two.json"
	same_compare --format text
	same_compare --format json
	# and back: PostgreSQL -> SQLite gives the same file again
	sp --db "$PG" export a b | sp --db "$TMP/back.db" import -
	sp --db "$TMP/back.db" export a b | cmp - "$TMP/one.json"
}

@test "postgres: a sample of -0 is stored as 0, as on SQLite, and exported the same" {
	printf '{"schema": "schedperf-results/1", "runs": [{"name": "z", "started": "2020-01-01T00:00:00Z", "complete": true, "environment": {}, "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s", "better": "lower", "samples": [1, -0.0, -0], "warmup": [-0.0]}]}]}]}' >"$TMP/z.json"
	sp import "$TMP/z.json" >/dev/null
	sp --db "$PG" import "$TMP/z.json" >/dev/null
	sp export z >"$TMP/sqlite.json"
	sp --db "$PG" export z | cmp - "$TMP/sqlite.json"
	! grep -qF -- -0.0 "$TMP/sqlite.json"
}

@test "postgres: a hand-edited NaN or infinite sample is a damaged store, exit 3, as on SQLite" {
	sp --db "$PG" run pipe -p loops=10 -i 3 --name a -q
	sp --db "$PG" run pipe -p loops=10 -i 3 --name b -q
	for v in NaN Infinity -Infinity; do
		psql_in "$PGDB" "UPDATE samples SET value = '$v'"
		run "$SP" --db "$PG" compare --format json a b
		[ "$status" -eq 3 ]
		assert_one_line_error
		[[ "$output" == *"a sample of metric '"*"' is "*" number: "* ]]
	done
	[[ "$output" == *"' is -inf, not a finite number: "* ]]
}

@test "postgres: an import's samples are packed; hand-edited, they are a damaged store, exit 3" {
	sp --db "$PG" run pipe -p loops=10 -i 3 --name a -q
	sp --db "$PG" export a > "$TMP/a.json"
	# as run b, without the records of its iterations: packed
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["runs"][0]["name"] = "b"
for b in d["runs"][0]["benchmarks"]: b.pop("iterations", None)
json.dump(d, open(sys.argv[2], "w"))' "$TMP/a.json" "$TMP/b.json"
	sp --db "$PG" import "$TMP/b.json"
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM packed_samples')" -gt 0 ]
	sp --db "$PG" export b > "$TMP/b2.json"
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1])) == json.load(open(sys.argv[2]))' \
		"$TMP/b.json" "$TMP/b2.json"
	run "$SP" --db "$PG" db check
	[ "$status" -eq 0 ]
	# the last part of all, pages of parts after the first (db check's)
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM packed_samples')" -gt 16 ]
	psql_in "$PGDB" "UPDATE packed_samples SET hex = substr(hex, 2) WHERE (metric_id, part) =
		(SELECT metric_id, part FROM packed_samples ORDER BY 1 DESC, 2 DESC LIMIT 1)"
	run "$SP" --db "$PG" compare --format json a b
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"the packed samples of metric '"*"are not whole values"* ]]
	# db check reads them as a load does: damage, exit 1
	run "$SP" --db "$PG" db check
	[ "$status" -eq 1 ]
	[[ "$output" == *"state:          damaged"* ]]
	[[ "${lines[-1]}" == "schedperf: db check: store '"*"is damaged: the packed samples of $(
		)metric '"*"' of run 'b' are not whole values (restore the store from a backup)" ]]
	psql_in "$PGDB" "DELETE FROM packed_samples;
		INSERT INTO packed_samples SELECT metric_id, 0, false, 1, '3ff0000000000000'
		FROM samples LIMIT 1"
	run "$SP" --db "$PG" db check
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == *"of run 'a' are stored beside rows of its samples ("* ]]
}

@test "postgres: run, runs, show and --resume work as on SQLite" {
	sp --db "$PG" run pipe -p loops=1000 -i 2 --name x -q
	sp --db "$PG" run pipe -p loops=1000 -i 2 --name x -q
	run sp --db "$PG" runs
	[ "$status" -eq 0 ]
	[[ "$output" == *"x "*" 2 "* ]]
	run sp --db "$PG" show x
	[ "$status" -eq 0 ]
	[[ "$output" == *"pipe cpus=any loops=1000"* ]]
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM iterations')" -eq 4 ]
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM batches WHERE complete')" -eq 2 ]
	# a second import of the same batches is refused whole
	sp --db "$PG" export x > "$TMP/x.json"
	run sp --db "$PG" import "$TMP/x.json"
	[ "$status" -eq 2 ]
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM batches')" -eq 2 ]
	run sp --db "$PG" run --resume --name x
	[ "$status" -eq 2 ]
	# reading a database with no store creates nothing in it
	other=$(pg_new_db)
	run sp --db "$(pg_url "$other")" runs
	[ "$status" -eq 2 ]
	[ "$(psql_in "$other" "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0 ]
	psql_in postgres "DROP DATABASE $other"
}

@test "postgres: a failure that quotes bytes not UTF-8 is stored, escaped, as on SQLite" {
	# the program's last line of standard error is the failure's reason
	cmd='sh -c "printf \"bad \\377\\376 end\\n\" >&2; exit 3"'
	# its only iteration failed: exit 1, the failure stored
	run sp --db "$PG" run command -p cmd="$cmd" -i 1 --name bytes -q
	[ "$status" -eq 1 ]
	run sp run command -p cmd="$cmd" -i 1 --name bytes -q
	[ "$status" -eq 1 ]
	[ "$(psql_in "$PGDB" 'SELECT failure FROM iterations')" = \
		"$(sqlite3 "$SCHEDPERF_DB" 'SELECT failure FROM iterations')" ]
	[[ "$(psql_in "$PGDB" 'SELECT failure FROM iterations')" == *'bad \xff\xfe end'* ]]
	sp --db "$PG" export bytes | sp --db "$TMP/copy.db" import -
}

@test "postgres: profiles are stored, shown, compared and exported as on SQLite" {
	can_sample
	for name in a b; do
		flock "$GETPPID_LOCK" "$SP" --db "$PG" run poundtime -p call=getppid -p threads=2 \
			-p calls=100000 -i 2 --monitors profile --profile-frequency 1000 \
			--name $name -q 2>/dev/null
	done
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM profiles WHERE NOT extra AND samples > 0')" -eq 4 ]
	# every symbol stored is read back: show lists each distinct one once
	symbols=$(psql_in "$PGDB" "SELECT count(DISTINCT (s.name, s.dso)) FROM profile_symbols s
		JOIN profiles p ON p.id = s.profile_id JOIN benchmarks k ON k.id = p.benchmark_id
		JOIN batches b ON b.id = k.batch_id JOIN runs r ON r.id = b.run_id WHERE r.name = 'a'")
	[ "$symbols" -gt 0 ]
	run sp --db "$PG" show a --profile --top 1000000
	[ "$status" -eq 0 ]
	[[ "$output" == *"2 profiles of timed iterations"* ]]
	[[ "$output" == *getppid*"[kernel.kallsyms]"* ]]
	[ "$(grep -cE '^ +[0-9.]+ +[0-9.]+  ' <<<"$output")" -eq "$symbols" ]
	run sp --db "$PG" compare a b --profile --top 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"percentage points against a"* ]]
	# PostgreSQL -> export -> SQLite -> export is byte-identical, profiles too
	sp --db "$PG" export a b > "$TMP/one.json"
	sp --db "$TMP/back.db" import "$TMP/one.json"
	sp --db "$TMP/back.db" export a b | cmp - "$TMP/one.json"
	sp --db "$PG" show a --profile > "$TMP/s1"
	sp --db "$TMP/back.db" show a --profile > "$TMP/s2"
	cmp "$TMP/s1" "$TMP/s2"
	# a batch's profiles go with it
	psql_in "$PGDB" "DELETE FROM batches"
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM profile_symbols')" -eq 0 ]
}

# Wait (no timer) until query $2 on $1 gives at least $3, the runner alive.
wait_count() {
	until [ "$(psql -qXAt "$1" -c "$2" 2>/dev/null || echo 0)" -ge "$3" ]; do
		kill -0 "$runner" 2>/dev/null || { echo "the run ended early: $(cat "$TMP/err")"; return 1; }
		sleep 0.05
	done
}

# The advisory locks that sessions named $1 hold or wait for ($2: a condition on l.granted).
locks_of() {
	echo "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)
	      WHERE l.locktype = 'advisory' AND a.application_name = '$1' AND $2"
}

@test "postgres: the server stopped mid-run: exit 3, iterations kept, --resume finishes" {
	local own url
	own=$(mktemp -d /tmp/schedperf-pg.XXXXXX)	# the server's user must reach it
	"$BATS_TEST_DIRNAME/../pg-server.sh" start "$own" >/dev/null
	url="postgresql:///postgres?host=$own&user=postgres"
	SCHEDPERF_BUSY_TIMEOUT_MS=600000 "$SP" --db "$url" run pipe -p loops=100 -i 20 \
		--name r -q >"$TMP/out" 2>"$TMP/err" &
	runner=$!
	wait_count "$url" "SELECT count(*) FROM iterations" 3
	# Hold the run at its next commit: another session takes the store's
	# write lock while the runner is stopped, so that it queues first.
	kill -STOP "$runner"
	mkfifo "$TMP/hold"
	PGAPPNAME=holder psql -qXAt "$url" <"$TMP/hold" >/dev/null 2>&1 &
	exec 9>"$TMP/hold"
	echo "SELECT pg_advisory_lock(6008761022114056532);" >&9
	wait_count "$url" "$(locks_of holder true)" 1 || { kill -CONT "$runner"; false; }
	kill -CONT "$runner"
	wait_count "$url" "$(locks_of schedperf 'NOT l.granted')" 1
	[ "$(psql -qXAt "$url" -c "$(locks_of holder l.granted)")" -eq 1 ]
	"$BATS_TEST_DIRNAME/../pg-server.sh" pause "$own"
	exec 9>&-
	rc=0
	wait "$runner" || rc=$?
	"$BATS_TEST_DIRNAME/../pg-server.sh" resume "$own"
	[ "$rc" -eq 3 ] || { echo "exit $rc: $(cat "$TMP/err")"; false; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ] || { cat "$TMP/err"; false; }
	grep -q "^schedperf: .*store .postgresql:///postgres?host=.*connection" "$TMP/err"
	# the store says what is wrong; run says how to finish its batch
	[[ "$(cat "$TMP/err")" == *"(check that the server runs, then run the command again; then \
finish batch 1 with: schedperf run --resume --name r --db '$url')" ]]
	kept=$(psql -qXAt "$url" -c 'SELECT count(*) FROM iterations')
	[ "$kept" -ge 3 ]
	[ "$kept" -lt 20 ]
	# every kept iteration is whole: it has its samples
	[ "$(psql -qXAt "$url" -c 'SELECT count(*) FROM iterations i WHERE failure IS NULL AND
		NOT EXISTS (SELECT 1 FROM samples s WHERE s.iteration_id = i.id)')" -eq 0 ]
	sp --db "$url" run --resume --name r -q
	[ "$(psql -qXAt "$url" -c 'SELECT count(*) FROM iterations WHERE failure IS NULL')" -eq 20 ]
	[ "$(psql -qXAt "$url" -c 'SELECT count(*) FROM batches WHERE complete')" -eq 1 ]
	"$BATS_TEST_DIRNAME/../pg-server.sh" stop "$own"
}

@test "postgres: a read-only role can compare but not write" {
	local role="analyst_$$_$RANDOM"
	sp --db "$PG" run pipe -p loops=1000 -i 2 --name a -q
	sp --db "$PG" run pipe -p loops=1000 -i 2 --name b -q
	# the GRANTs of schedperf(1), "PostgreSQL"
	psql_in "$PGDB" "CREATE ROLE $role LOGIN;
		GRANT CONNECT ON DATABASE $PGDB TO $role;
		GRANT USAGE ON SCHEMA public TO $role;
		GRANT SELECT ON ALL TABLES IN SCHEMA public TO $role"
	ro=$(pg_url "$PGDB" "$role")
	run sp --db "$ro" compare a b
	[ "$status" -eq 0 ]
	[[ "$output" == *usec_per_op* ]]
	run sp --db "$ro" runs
	[ "$status" -eq 0 ]
	run sp --db "$ro" run pipe -p loops=1000 -i 1 --name c -q
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"permission denied"* ]]
	run sp --db "$ro" import "$TMP/nothing.json"
	[ "$status" -ne 0 ]
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM batches')" -eq 2 ]
	psql_in "$PGDB" "DROP OWNED BY $role; DROP ROLE $role"
}

@test "postgres: interference and disturbed samples round-trip; compare as on SQLite" {
	"$PYTHON" - "$TMP/d.json" <<'PY'
import json, sys
def batch(name, day, samples, disturbed):
    its = [{"warmup": True, "cpu_taken": 0.0, "cpu_available": 0.5, "started": 1e9, "ended": 1e9 + 0.5}]
    for k, d in enumerate(disturbed):
        it = {"cpu_taken": 0.25 if d else 0.0, "cpu_steal": 0.125 if d else 0.0,
              "cpu_available": 1.0, "started": 1e9 + k + 1, "ended": 1e9 + k + 1.75}
        if d:
            it["disturbed"] = True
            it["culprits"] = [{"name": "stress-ng", "pid": 4242, "cpu": 0.2},
                              {"name": "kworker/1:2", "pid": 77, "cpu": 0.03125}]
        its.append(it)
    return {"name": name, "started": "2026-02-%02dT00:00:00Z" % day, "complete": True,
            "environment": {}, "benchmarks": [{"workload": "pipe", "params": {},
            "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower",
                         "source": "workload", "samples": samples, "warmup": [11.0]}],
            "iterations": its}]}
base = [10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 10.0]
new = [10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 13.0, 13.1, 12.9, 13.0]
runs = [batch("a", 1, base, [False] * 10), batch("b", 2, new, [False] * 6 + [True] * 4)]
json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
PY
	sp import "$TMP/d.json"
	sp --db "$PG" import "$TMP/d.json"
	[ "$(psql_in "$PGDB" 'SELECT count(*), count(cpu_taken), sum(disturbed::int) FROM iterations')" = "22|22|4" ]
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM culprits')" -eq 8 ]
	sp export a b > "$TMP/one.json"
	sp --db "$PG" export a b > "$TMP/two.json"
	cmp "$TMP/one.json" "$TMP/two.json"
	same_json "$TMP/d.json" "$TMP/two.json"
	same_compare
	same_compare --exclude-disturbed
	same_compare --format json
	same_compare --exclude-disturbed --format json
	run sp --db "$PG" compare a b
	[[ "$output" == *"worse (!disturbed 4/20)"* ]]
	run sp --db "$PG" compare a b --exclude-disturbed
	[[ "$output" == *"(4 disturbed left out)"* ]]
	run sp --db "$PG" show b --samples
	[[ "$output" == *"4/10 iterations disturbed, median 25 % of CPU taken by others: stress-ng (pid 4242), kworker/1:2 (pid 77)"* ]]
}

@test "postgres: a run measures interference; disturbed iterations are kept, marked and rerun" {
	sp --db "$PG" run pipe -p loops=1000 -i 2 --warmup 1 --name m -q
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM iterations WHERE cpu_available > 0 AND
		cpu_taken >= 0 AND started < ended')" -eq 3 ]
	need_rt
	loops=$(pipe_loops 0.1)
	start_burner
	local burner=$BURNER
	run sp --db "$PG" run pipe -p loops="$loops" --cpus 0 -i 2 --rerun-disturbed 1 --name r -q
	stop_burner
	[ "$status" -eq 0 ]
	[[ "$output" == *"4/4 iterations disturbed"*"(2 rerun)"* ]]
	[ "$(psql_in "$PGDB" "SELECT count(*), sum(i.disturbed::int), sum(i.rerun::int)
		FROM iterations i JOIN benchmarks k ON k.id = i.benchmark_id
		JOIN batches b ON b.id = k.batch_id JOIN runs r ON r.id = b.run_id
		WHERE r.name = 'r'")" = "4|4|2" ]
	# this test's burner by its pid: another suite's may run beside it, named alike
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM culprits WHERE name = 'cpuburner' AND
		pid = $burner")" -eq 4 ]
	sp --db "$PG" export r | sp import -
	sp export r | cmp - <(sp --db "$PG" export r)
}

@test "postgres: a version 5 store is refused for reading, then upgraded in place by a write" {
	sp --db "$PG" run pipe -p loops=1000 -i 2 --name old -q
	sp --db "$PG" export old > "$TMP/old.json"
	# version 5 as it was: no interference columns, no culprits, no cap on
	# claims, no profiles, no job commands, a journal for one machine, no
	# bisections, no kernel jobs, no packed samples
	psql_in "$PGDB" "ALTER TABLE iterations DROP COLUMN cpu_taken, DROP COLUMN cpu_steal,
		DROP COLUMN cpu_available, DROP COLUMN disturbed, DROP COLUMN rerun,
		DROP COLUMN started, DROP COLUMN ended;
		DROP TABLE culprits; ALTER TABLE jobs DROP COLUMN max_attempts;
		DROP TABLE profile_symbols, profiles; DROP TABLE bisections;
		DROP TABLE packed_samples;
		ALTER TABLE jobs DROP COLUMN command, DROP COLUMN result, DROP COLUMN kernel,
		DROP COLUMN home_kernel, DROP COLUMN boot_deadline,
		DROP CONSTRAINT jobs_state_check, ADD CONSTRAINT jobs_state_check CHECK (state IN
		('queued', 'running', 'done', 'failed', 'cancelled'));
		ALTER TABLE knob_journal DROP COLUMN machine, ADD UNIQUE (kind, name);
		DROP INDEX iterations_failed;
		UPDATE schedperf_schema SET version = 5"
	run sp --db "$PG" runs
	[ "$status" -eq 3 ]
	[[ "$output" == *"schema version 5 is older"* ]]
	sp --db "$PG" run pipe -p loops=1000 -i 1 --name new -q
	[ "$(psql_in "$PGDB" 'SELECT version FROM schedperf_schema')" -eq \
	  "$(sed -n 's/^#define STORE_SCHEMA_VERSION //p' "$BATS_TEST_DIRNAME/../../src/store/store.h")" ]
	# the old iterations have nothing measured: NULL, never zero
	[ "$(psql_in "$PGDB" 'SELECT count(*) FROM iterations WHERE cpu_taken IS NULL AND
		NOT disturbed AND NOT rerun')" -eq 2 ]
	"$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1]))
for b in d["runs"][0]["benchmarks"]: b.pop("iterations")
json.dump(d, open(sys.argv[2], "w"))' "$TMP/old.json" "$TMP/old-bare.json"
	sp --db "$PG" export old > "$TMP/upgraded.json"
	same_json "$TMP/old-bare.json" "$TMP/upgraded.json"
}

@test "postgres: batches of benchmarks of every shape are read back as on SQLite" {
	mixed_batches "$TMP/mixed.json"
	sp import "$TMP/mixed.json"
	sp --db "$PG" import "$TMP/mixed.json"
	sp --db "$PG" export a b > "$TMP/pg.json"
	same_json "$TMP/mixed.json" "$TMP/pg.json"
	sp export a b | cmp - "$TMP/pg.json"
	sp show a --samples > "$TMP/show1"
	sp --db "$PG" show a --samples > "$TMP/show2"
	cmp "$TMP/show1" "$TMP/show2"
}

@test "postgres: hand-edited seqs at the ends of its integers are read, as on SQLite" {
	sp run pipe -p loops=10 -i 3 --name a -q
	sp run pipe -p loops=10 -i 2 --name b -q
	sp export a b | sp --db "$PG" import -
	sp --db "$PG" export a b >"$TMP/before.json"
	# the first and last iterations of a's benchmark: their span overflows 32 bits
	psql -qXAt -v ON_ERROR_STOP=1 "$PG" -c "UPDATE iterations SET seq = -2147483648 WHERE id =
		(SELECT min(id) FROM iterations); UPDATE iterations SET seq = 2147483647 WHERE id =
		(SELECT max(id) FROM iterations WHERE benchmark_id =
		 (SELECT benchmark_id FROM iterations ORDER BY id LIMIT 1))"
	sp --db "$PG" show a >/dev/null
	sp --db "$PG" compare a b >/dev/null
	sp --db "$PG" export a b >"$TMP/after.json"
	same_json "$TMP/after.json" "$TMP/before.json"
}

# lock_pg: another session ($holder, named holder) takes the store's write
# lock, as an import does, and holds it until unlock_pg.
lock_pg() {
	rm -f "$TMP/hold"
	mkfifo "$TMP/hold"
	PGAPPNAME=holder psql -qXAt "$PG" <"$TMP/hold" >/dev/null 2>&1 3>&- &
	holder=$!
	exec 9>"$TMP/hold"
	echo "SELECT pg_advisory_lock(6008761022114056532);" >&9
	wait_for pg_query_is "$(locks_of holder l.granted)" 1
}

unlock_pg() {	# end of input: the session ends, and its lock with it
	exec 9>&-
	wait "$holder"
}

pg_query_is() {	# pg_query_is SQL VALUE: SQL on the store gives VALUE
	[ "$(psql -qXAt "$PG" -c "$1")" = "$2" ]
}

@test "postgres: a measured iteration waits for a write lock held past the busy timeout, and is stored" {
	SCHEDPERF_BUSY_TIMEOUT_MS=300 "$SP" --db "$PG" run pipe -p loops=20000 -i 3000 --name r -q \
		2>"$TMP/err" 3>&- &
	runner=$!
	wait_count "$PG" "SELECT count(*) FROM iterations" 3
	# an iteration held, so that the run's next write is its commit (the
	# write before an iteration gives up after the busy timeout)
	wait_for hold_iteration "$runner"
	local holder n
	lock_pg
	release_iteration
	wait_for grep -q "waiting for the store's write lock" "$TMP/err"
	n=$(psql -qXAt "$PG" -c 'SELECT count(*) FROM iterations')
	unlock_pg
	wait_count "$PG" "SELECT count(*) FROM iterations" $((n + 2))
	kill -INT "$runner"
	runner_ends 130
	# said once, then only the interruption; no iteration missing
	[ "$(wc -l <"$TMP/err")" -eq 2 ] || { cat "$TMP/err"; return 1; }
	[ "$(psql -qXAt "$PG" -c 'SELECT count(*) = max(seq) + 1 FROM iterations')" = t ]
}

# pg_ctrl_c_in_wait MESSAGE ARGS...: schedperf ARGS waits for the write lock
# of lock_pg with a lock timeout no test outwaits; Ctrl-C ends it at once,
# exit 130 with the one line "interrupted: MESSAGE" (were it to end only
# when the timeout is over, runner_ends would give up first). The store is
# $PG, or $RUN_PG for schedperf only.
pg_ctrl_c_in_wait() {
	local runner msg=$1
	shift
	SCHEDPERF_BUSY_TIMEOUT_MS=600000 "$SP" --db "${RUN_PG:-$PG}" "$@" >"$TMP/out" \
		2>"$TMP/err" 3>&- &
	runner=$!
	wait_for pg_query_is "$(locks_of schedperf 'NOT l.granted')" 1
	kill -INT "$runner"
	runner_ends 130
	[ "$(cat "$TMP/err")" = "schedperf: interrupted: $msg" ] || { cat "$TMP/err"; return 1; }
}

@test "postgres: Ctrl-C ends a wait for the write lock at once, not at the lock timeout" {
	local holder
	sp --db "$PG" run pipe -p loops=10 -i 1 --name a -q
	lock_pg
	pg_ctrl_c_in_wait "nothing was stored" run pipe -p loops=10 -i 1 --name g -q
	pg_ctrl_c_in_wait "nothing was imported (an import is one transaction)" \
		import "$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	unlock_pg
	run sp --db "$PG" db check
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	pg_query_is "SELECT count(*) FROM runs" 1
	pg_query_is "SELECT count(*) FROM batches" 1
	# no session of schedperf's left on this store: the server ends each
	# when it sees its client gone, soon but not at once on a loaded machine
	wait_for pg_query_is "SELECT count(*) FROM pg_stat_activity
		WHERE application_name = 'schedperf' AND datname = current_database()" 0
}

@test "postgres: Ctrl-C ends a wait for the write lock whose cancel cannot reach the server" {
	local holder proxy port
	sp --db "$PG" db init >/dev/null
	lock_pg
	# a server over TCP whose cancel connection is never accepted
	"$PYTHON" "$BATS_TEST_DIRNAME/../data/one_connection_proxy.py" \
		"$(ls "$SCHEDPERF_TEST_PGHOST"/.s.PGSQL.* | grep -v '\.lock$')" >"$TMP/port" 3>&- 9>&- &
	proxy=$!
	wait_for test -s "$TMP/port"
	port=$(cat "$TMP/port")
	# libpq 15's cancel waits out tcp_user_timeout, then the wait is given
	# up: the URL's 1 s, over schedperf's 10 (open.c), which the test would
	# only wait out
	RUN_PG="postgresql://postgres@127.0.0.1:$port/$PGDB?tcp_user_timeout=1000" \
		pg_ctrl_c_in_wait "nothing was stored" run pipe -p loops=10 -i 1 --name g -q
	unlock_pg
	# the server ends the session whose wait it no longer serves
	wait_for pg_query_is "SELECT count(*) FROM pg_stat_activity
		WHERE application_name = 'schedperf'" 0
	wait_for all_gone "$proxy"
	pg_query_is "SELECT count(*) FROM batches" 0
}

@test "postgres: a run's begin and its end wait for a write lock held past the busy timeout" {
	can_sample
	local runner holder
	sp --db "$PG" db init >/dev/null
	lock_pg
	SCHEDPERF_DB=$PG gated_run -i 1 --profile-iterations 1 --no-monitors --name g
	wait_for noted "the batch it begins"
	pg_query_is "SELECT count(*) FROM batches" 0
	unlock_pg
	let_go 1 0
	# the extra iteration fails, keeping no profile: the next write ends the batch
	wait_for arrived 2
	lock_pg
	let_go 2 1
	wait_for noted "the end of its batch"
	pg_query_is "SELECT count(*) FROM batches WHERE complete" 0
	refute all_gone "$runner"
	unlock_pg
	runner_ends 0
	[ "$(grep -c "waiting for the store's write lock" "$TMP/err")" -eq 2 ]
	pg_query_is "SELECT count(*) FROM iterations WHERE failure IS NULL" 1
	pg_query_is "SELECT count(*) FROM batches WHERE complete" 1
}
