#!/usr/bin/env bats
# schedperf db init|upgrade|check on both backends: a store made on
# purpose, an older one brought up to date, and what check says of a
# store that is current, older, newer, damaged or not a store at all.
# The PostgreSQL half uses a real throwaway server (tests/pg-server.sh).

load helpers
pg_file
pg_each_test

current_version() {	# the version a new SQLite store gets
	sp --db "$TMP/fresh.db" db init -q
	sqlite3 "$TMP/fresh.db" 'PRAGMA user_version'
}

@test "db: init, check and upgrade an SQLite store" {
	local v
	v=$(current_version)
	run sp db check
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"no store at '$TMP/store.db'"*"schedperf db init"* ]]
	[ ! -e "$TMP/store.db" ]
	run sp db upgrade
	[ "$status" -eq 2 ]
	[ ! -e "$TMP/store.db" ]
	run sp db init
	[ "$status" -eq 0 ]
	[ "$output" = "$TMP/store.db: created a store (SQLite, schema version $v)" ]
	[ "$(sqlite3 "$TMP/store.db" 'PRAGMA user_version')" -eq "$v" ]
	run sp db init
	[ "$status" -eq 0 ]
	[[ "$output" == *"already; nothing to do" ]]
	run sp db check
	[ "$status" -eq 0 ]
	[[ "$output" == *"backend:        SQLite"* ]]
	[[ "$output" == *"schema version: $v"* ]]
	[[ "$output" == *"state:          current"* ]]
	# an older store: check says so and changes nothing; upgrade brings it up
	sqlite3 "$TMP/v1.db" <"$BATS_TEST_DIRNAME/../data/store-v1.sql"
	before=$(sha256sum <"$TMP/v1.db")
	run sp --db "$TMP/v1.db" db check
	[ "$status" -eq 0 ]
	[[ "$output" == *"schema version: 1"*"state:          older"*"db upgrade"* ]]
	[ "$(sha256sum <"$TMP/v1.db")" = "$before" ]
	run sp --db "$TMP/v1.db" db init
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"schema version 1 already"*"db upgrade"* ]]
	run sp --db "$TMP/v1.db" db upgrade
	[ "$status" -eq 0 ]
	[ "$output" = "$TMP/v1.db: upgraded from schema version 1 to $v" ]
	[ "$(sqlite3 "$TMP/v1.db" 'PRAGMA user_version')" -eq "$v" ]
	run sp --db "$TMP/v1.db" db check
	[[ "$output" == *"state:          current"* ]]
	run sp --db "$TMP/v1.db" db upgrade
	[ "$status" -eq 0 ]
	[[ "$output" == *"already; nothing to do" ]]
	run sp db frob
	[ "$status" -eq 2 ]
	assert_one_line_error
}

# pg_advisory_locks APP WHERE N: N advisory locks on $PG of sessions of
# application APP, held or awaited as WHERE says (of pg_locks l).
pg_advisory_locks() {
	[ "$(psql -qXAt "$PG" -c "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a
		USING (pid) WHERE l.locktype = 'advisory' AND a.application_name = '$1'
		AND $2")" = "$3" ]
}

# upgrade_race LOCATION: six db upgrades of LOCATION at once; their lines in $TMP/race.
upgrade_race() {
	local pids=() i

	for i in 1 2 3 4 5 6; do
		"$SP" --db "$1" db upgrade >"$TMP/race-$i" 2>&1 3>&- &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || { cat "$TMP/race-$((i + 1))"; return 1; }
	done
	cat "$TMP"/race-? >"$TMP/race"
}

@test "db upgrade: of six at once one upgrades, the others find it done" {
	v=$(current_version)
	sqlite3 "$TMP/race.db" <"$BATS_TEST_DIRNAME/../data/store-v1.sql"
	# all six read version 1 before any can write: a reader holds the write lock
	mkfifo "$TMP/go"
	"$PYTHON" -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open(sys.argv[2], "w").close()
open(sys.argv[3]).read()
c.rollback()' "$TMP/race.db" "$TMP/locked" "$TMP/go" 3>&- &
	local holder=$!
	wait_for test -e "$TMP/locked"
	upgrade_race "$TMP/race.db" &
	local racer=$!
	opened() { [ "$(ls -l /proc/[0-9]*/fd 2>/dev/null | grep -c "$TMP/race.db\$")" -ge 7 ]; }
	wait_for opened
	echo >"$TMP/go"
	wait "$holder"
	wait "$racer"
	[ "$(grep -c "^$TMP/race.db: upgraded from schema version 1 to $v\$" "$TMP/race")" -eq 1 ]
	[ "$(grep -c "^$TMP/race.db: a store of schema version $v already; nothing to do\$" \
		"$TMP/race")" -eq 5 ] || { cat "$TMP/race"; false; }
	[ "$(sqlite3 "$TMP/race.db" 'PRAGMA user_version')" -eq "$v" ]
}

@test "db: a store's path with a newline or a terminal escape is printed escaped, one line" {
	local db=$TMP/$'n\nx\e[31m.db' shown="$TMP/n\\x0ax\\x1b[31m.db"
	run sp --db "$db" db init
	[ "$status" -eq 0 ]
	[ "$output" = "$shown: created a store (SQLite, schema version $(current_version))" ]
	run sp --db "$db" db check
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "store:          $shown" ]
	[ "${#lines[@]}" -eq 4 ]
	run sp --db "$db" db upgrade
	[ "$status" -eq 0 ]
	[ "$output" = "$shown: a store of schema version $(current_version) already; nothing to do" ]
	rm -f "$db"*
	sqlite3 "$db" <"$BATS_TEST_DIRNAME/../data/store-v1.sql"
	run sp --db "$db" db upgrade
	[ "$status" -eq 0 ]
	[ "$output" = "$shown: upgraded from schema version 1 to $(current_version)" ]
}

@test "db and a reader: a file of /proc, its size 0 but not empty, is not a store (2)" {
	for cmd in runs "db check" "db init" "db upgrade" "run pipe -p loops=10 -i 1 -q"; do
		run sp --db /proc/self/status $cmd
		[ "$status" -eq 2 ] || { echo "$cmd: $output"; false; }
		assert_one_line_error
		[[ "$output" == *"'/proc/self/status': it is not a schedperf store: it is a $(
			)file the kernel makes as it is read (/proc, /sys), not a file on disk ("* ]]
	done
	# a file of size 0 on disk is still empty
	: >"$TMP/empty.db"
	run sp --db "$TMP/empty.db" runs
	[ "$status" -eq 2 ]
	[[ "$output" == *"it is an empty file"* ]]
}

@test "SCHEDPERF_BUSY_TIMEOUT_MS that is not a number of ms up to an hour is refused (2)" {
	sp run pipe -p loops=10 -i 1 --name a -q
	for v in abc -1 5000x 1e309 99999999999999999999 ' 5' 3600001; do
		for cmd in "db check" runs "run pipe -p loops=10 -i 1 --name b -q"; do
			SCHEDPERF_BUSY_TIMEOUT_MS=$v run sp $cmd
			[ "$status" -eq 2 ] || { echo "'$v' $cmd: $output"; false; }
			assert_one_line_error
			[ "$output" = "schedperf: SCHEDPERF_BUSY_TIMEOUT_MS is '$v', not a whole $(
				)number of milliseconds from 0 to 3600000 (give one, or unset it for $(
				)the default, 10000)" ]
		done
	done
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM runs')" -eq 1 ]
	for v in '' 0 3600000; do
		SCHEDPERF_BUSY_TIMEOUT_MS=$v run sp runs
		[ "$status" -eq 0 ] || { echo "'$v': $output"; false; }
	done
}

@test "db: the man page's FILES entry names this schema version and every older one" {
	sp --db "$TMP/v.db" db init >/dev/null
	v=$(sp --db "$TMP/v.db" db check | sed -n 's/^schema version: *//p')
	[ "$v" -ge 13 ]
	man=$(tr '\n' ' ' < "$BATS_TEST_DIRNAME/../../doc/schedperf.1")
	[[ "$man" == *"schema version $v in PRAGMA user_version"* ]]
	for old in $(seq 1 $((v - 1))); do
		[[ "$man" =~ [\(\ ]$old:\ before\  ]] || { echo "no $old"; false; }
	done
}

@test "db check: not a store (2), newer (3), damaged (1), on a read-only file" {
	echo "hello" >"$TMP/text"
	run sp --db "$TMP/text" db check
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"not a schedperf store"* ]]
	sqlite3 "$TMP/other.db" "CREATE TABLE t (x)"
	run sp --db "$TMP/other.db" db check
	[ "$status" -eq 2 ]
	assert_one_line_error
	sp run pipe -p loops=10 -i 2 --name a -q
	cp "$TMP/store.db" "$TMP/newer.db"
	sqlite3 "$TMP/newer.db" "PRAGMA user_version = 99"
	run sp --db "$TMP/newer.db" db check
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"schema version 99 is newer"* ]]
	run sp --db "$TMP/newer.db" db upgrade
	[ "$status" -eq 3 ]
	[ "$(sqlite3 "$TMP/newer.db" 'PRAGMA user_version')" -eq 99 ]
	# damage: a column gone, references that lead nowhere
	cp "$TMP/store.db" "$TMP/column.db"
	sqlite3 "$TMP/column.db" "ALTER TABLE batches DROP COLUMN job_claim"
	before=$(sha256sum <"$TMP/column.db")
	run sp --db "$TMP/column.db" db check
	[ "$status" -eq 1 ]
	[[ "$output" == *"state:          damaged"* ]]
	[[ "${lines[-1]}" == "schedperf: db check: store '$TMP/column.db' is damaged: "*"column batches.job_claim TEXT is missing"* ]]
	run sp --db "$TMP/column.db" db upgrade
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"is damaged, nothing was changed: "*"is missing (restore it from a $(
		)backup, or export its runs with the schedperf that made it)" ]]
	[ "$(grep -o ' (' <<<"$output" | wc -l)" -eq 1 ]
	[ "$(sha256sum <"$TMP/column.db")" = "$before" ]
	cp "$TMP/store.db" "$TMP/orphan.db"
	sqlite3 "$TMP/orphan.db" "INSERT INTO iterations (benchmark_id, seq, warmup) VALUES (9999, 0, 0)"
	run sp --db "$TMP/orphan.db" db check
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == *"table iterations has rows whose references lead nowhere"* ]]
	# an older store's upgrade by a writer, which does not check first, is rolled back
	sqlite3 "$TMP/v1-orphan.db" <"$BATS_TEST_DIRNAME/../data/store-v1.sql"
	sqlite3 "$TMP/v1-orphan.db" "INSERT INTO iterations (benchmark_id, seq, warmup) $(
		)VALUES (9999, 0, 0)"
	run sp --db "$TMP/v1-orphan.db" runs
	[ "$status" -eq 3 ]
	assert_one_line_error
	[ "$output" = "schedperf: cannot upgrade store '$TMP/v1-orphan.db', nothing was $(
		)changed: table iterations has rows whose references lead nowhere (see them $(
		)with 'sqlite3 FILE \"PRAGMA foreign_key_check\"')" ]
	[ "$(sqlite3 "$TMP/v1-orphan.db" 'PRAGMA user_version')" -eq 1 ]
	# parameters that every reader would take as none, and export refuses
	for params in '{not json' '[1,2]' '{"loops":1}'; do
		cp "$TMP/store.db" "$TMP/params.db"
		sqlite3 "$TMP/params.db" "UPDATE benchmarks SET params = '$params'"
		run sp --db "$TMP/params.db" db check
		[ "$status" -eq 1 ] || { echo "$params: $output"; false; }
		[[ "${lines[-1]}" == *"damaged: the parameters of a pipe benchmark of run "*"are $(
			)not a JSON object of strings (restore the store from a backup)" ]]
		# and every reader refuses them: none takes them for a benchmark of no parameters
		for cmd in "show a" "report a -o $TMP/r.txt" "history" "detect" "runs" "export a"; do
			run sp --db "$TMP/params.db" $cmd
			[ "$status" -eq 3 ] || { echo "$params $cmd: $output"; false; }
			assert_one_line_error
			[[ "$output" == *"the parameters of a pipe benchmark of run 'a' are not a JSON $(
				)object of strings: "*"(restore it from a copy)" ]]
		done
	done
	# a batch's start that is not an ISO 8601 time, which export refuses: one check for both
	for started in "'yesterday'" "'2026-02-30T00:00:00Z'" "'x' || char(27) || '[31m'"; do
		cp "$TMP/store.db" "$TMP/started.db"
		sqlite3 "$TMP/started.db" "UPDATE batches SET started = $started"
		run sp --db "$TMP/started.db" db check
		[ "$status" -eq 1 ] || { echo "$started: $output"; false; }
		[[ "$output" == *"state:          damaged"* ]]
		[[ "${lines[-1]}" == *"is damaged: the start of a batch of run 'a', '"*"', is not $(
			)an ISO 8601 time (YYYY-MM-DDTHH:MM:SS...) (restore the store from a backup)" ]]
		run sp --db "$TMP/started.db" export a -o "$TMP/started.json"
		[ "$status" -eq 3 ] || { echo "$started: $output"; false; }
		[[ "$output" == *"): started: "*", which import would refuse ("* ]]
	done
	[[ "$output" != *$'\e'* ]]
	# another spelling of a time is one: damage to neither
	sqlite3 "$TMP/started.db" "UPDATE batches SET started = '2026-01-01T10:00:00+02:00'"
	run sp --db "$TMP/started.db" db check
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	# a sample no reader takes: text or a blob read as 0.0 once, an infinity
	for v in "'abc'" "'12abc'" "x'00'" 9e999 -9e999; do
		cp "$TMP/store.db" "$TMP/sample.db"
		sqlite3 "$TMP/sample.db" "UPDATE samples SET value = $v WHERE (iteration_id, $(
			)metric_id) = (SELECT iteration_id, metric_id FROM samples LIMIT 1)"
		run sp --db "$TMP/sample.db" db check
		[ "$status" -eq 1 ] || { echo "$v: $output"; false; }
		[[ "$output" == *"state:          damaged"* ]]
		[[ "${lines[-1]}" == *"is damaged: a sample of metric '"*"' of run 'a' is "*$(
			)" (restore the store from a backup)" ]]
	done
	[[ "${lines[-1]}" == *"' is -inf, not a finite number ("* ]]
	# a page of the file overwritten
	cp "$TMP/store.db" "$TMP/torn.db"
	pages=$(sqlite3 "$TMP/torn.db" 'PRAGMA page_count')
	[ "$pages" -ge 3 ]
	size=$(sqlite3 "$TMP/torn.db" 'PRAGMA page_size')
	head -c "$size" /dev/urandom | dd of="$TMP/torn.db" bs="$size" seek=$((pages - 1)) conv=notrunc 2>/dev/null
	run sp --db "$TMP/torn.db" db check
	[ "$status" -ne 0 ]
	[[ "${lines[-1]}" == schedperf:* ]]
	# check reads only: a store on a read-only file
	chmod 444 "$TMP/store.db"
	run sp db check
	[ "$status" -eq 0 ]
	[[ "$output" == *"state:          current"* ]]
	[ ! -e "$TMP/store.db-wal" ]
}

# Make the PostgreSQL store in $1 one of schema version 3, as the first
# PostgreSQL stores were: without the job queue of version 4, the knob
# journal of version 5, the interference of version 6, the CPU profiles of
# version 8, the bisections of version 10, the kernel jobs of version 11,
# the packed samples of version 13, and what came later.
pg_make_v3() {
	psql_in "$1" "DROP TABLE jobs CASCADE; DROP TABLE knob_journal; DROP TABLE culprits;
		DROP TABLE profile_symbols, profiles; DROP INDEX iterations_failed;
		DROP TABLE bisections; DROP TABLE packed_samples;
		ALTER TABLE batches DROP COLUMN job_id, DROP COLUMN job_claim;
		ALTER TABLE iterations DROP COLUMN cpu_taken, DROP COLUMN cpu_steal,
		DROP COLUMN cpu_available, DROP COLUMN disturbed, DROP COLUMN rerun,
		DROP COLUMN started, DROP COLUMN ended;
		UPDATE schedperf_schema SET version = 3"
}

@test "db: init, check and upgrade a PostgreSQL store; a read-only role can check" {
	local v role="reader_$$_$RANDOM"
	v=$(current_version)
	run sp --db "$PG" db check
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"no store at 'postgresql:///$PGDB?host="*"schedperf db init"* ]]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0 ]
	run sp --db "$PG" db init
	[ "$status" -eq 0 ]
	[[ "$output" == *": created a store (PostgreSQL, schema version $v)" ]]
	[ "$(psql_in "$PGDB" 'SELECT version FROM schedperf_schema')" -eq "$v" ]
	run sp --db "$PG" db check
	[ "$status" -eq 0 ]
	[[ "$output" == *"backend:        PostgreSQL"*"schema version: $v"*"state:          current"* ]]
	sp --db "$PG" run pipe -p loops=10 -i 2 --name a -q
	pg_make_v3 "$PGDB"
	run sp --db "$PG" db check
	[ "$status" -eq 0 ]
	[[ "$output" == *"schema version: 3"*"state:          older"* ]]
	# a role that may only read: check runs, upgrade is refused
	psql_in "$PGDB" "CREATE ROLE $role LOGIN;
		GRANT CONNECT ON DATABASE $PGDB TO $role;
		GRANT USAGE ON SCHEMA public TO $role;
		GRANT SELECT ON ALL TABLES IN SCHEMA public TO $role"
	run sp --db "$(pg_url "$PGDB" "$role")" db check
	[ "$status" -eq 0 ]
	[[ "$output" == *"schema version: 3"* ]]
	run sp --db "$(pg_url "$PGDB" "$role")" db upgrade
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"permission denied"* ]]
	[ "$(psql_in "$PGDB" 'SELECT version FROM schedperf_schema')" -eq 3 ]
	run sp --db "$PG" db upgrade
	[ "$status" -eq 0 ]
	[[ "$output" == *": upgraded from schema version 3 to $v" ]]
	run sp --db "$PG" db check
	[[ "$output" == *"state:          current"* ]]
	run sp --db "$PG" runs
	[[ "$output" == *"a "* ]]
	# the tables the upgrade made are not the role's to read until granted: check
	# reads the packed samples, and says why it cannot
	run sp --db "$(pg_url "$PGDB" "$role")" db check
	[ "$status" -eq 3 ]
	[[ "${lines[-1]}" == *"permission denied for table packed_samples"* ]]
	psql_in "$PGDB" "GRANT SELECT ON ALL TABLES IN SCHEMA public TO $role"
	run sp --db "$(pg_url "$PGDB" "$role")" db check
	[ "$status" -eq 0 ]
	psql_in "$PGDB" "DROP OWNED BY $role; DROP ROLE $role"
}

@test "db upgrade on PostgreSQL: of six at once one upgrades, the others find it done" {
	v=$(current_version)
	sp --db "$PG" run pipe -p loops=10 -i 1 --name a -q
	pg_make_v3 "$PGDB"
	# all six read version 3 before any can write: a session (as postgres.bats's
	# lock_pg) holds the write lock until all six wait for it
	mkfifo "$TMP/hold"
	PGAPPNAME=holder psql -qXAt "$PG" <"$TMP/hold" >/dev/null 2>&1 3>&- &
	local holder=$!
	exec 9>"$TMP/hold"
	echo "SELECT pg_advisory_lock(6008761022114056532);" >&9
	wait_for pg_advisory_locks holder l.granted 1
	SCHEDPERF_BUSY_TIMEOUT_MS=600000 upgrade_race "$PG" 9>&- &
	local racer=$!
	wait_for pg_advisory_locks schedperf 'NOT l.granted' 6
	exec 9>&-	# end of input: the session ends, and its lock with it
	wait "$holder"
	wait "$racer"
	[ "$(grep -c ": upgraded from schema version 3 to $v\$" "$TMP/race")" -eq 1 ]
	[ "$(grep -c ": a store of schema version $v already; nothing to do\$" "$TMP/race")" -eq 5 ] ||
		{ cat "$TMP/race"; false; }
}

@test "db check on PostgreSQL: not a store (2), newer (3), damaged (1)" {
	other=$(pg_new_db)
	psql_in "$other" "CREATE TABLE t (x int)"
	run sp --db "$(pg_url "$other")" db check
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"not a schedperf store"* ]]
	psql_in postgres "DROP DATABASE $other"
	sp --db "$PG" db init -q
	sp --db "$PG" run pipe -p loops=1000 -i 1 --warmup 0 --name p --quiet
	psql_in "$PGDB" "UPDATE benchmarks SET params = '[1]'"
	run sp --db "$PG" db check
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == *"the parameters of a pipe benchmark of run 'p' are not a JSON "* ]]
	psql_in "$PGDB" "UPDATE benchmarks SET params = '{}'"
	started=$(psql_in "$PGDB" "SELECT started FROM batches" | head -1)
	psql_in "$PGDB" "UPDATE batches SET started = 'yesterday'"
	run sp --db "$PG" db check
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == *"the start of a batch of run 'p', 'yesterday', is not an ISO 8601 "* ]]
	psql_in "$PGDB" "UPDATE batches SET started = '$started'"
	for v in NaN Infinity -Infinity; do
		psql_in "$PGDB" "UPDATE samples SET value = '$v'"
		run sp --db "$PG" db check
		[ "$status" -eq 1 ] || { echo "$v: $output"; false; }
		[[ "${lines[-1]}" == *"is damaged: a sample of metric '"*"' of run 'p' is "* ]]
	done
	[[ "${lines[-1]}" == *"' is -inf, not a finite number ("* ]]
	psql_in "$PGDB" "UPDATE samples SET value = 1"
	psql_in "$PGDB" "UPDATE schedperf_schema SET version = 99"
	run sp --db "$PG" db check
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"schema version 99 is newer"* ]]
	psql_in "$PGDB" "UPDATE schedperf_schema SET version = $(current_version)"
	psql_in "$PGDB" "DROP TABLE packed_samples"
	run sp --db "$PG" db check
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == *"is damaged: table packed_samples of schema version"*"is missing"* ]]
	psql_in "$PGDB" "DROP TABLE samples"
	run sp --db "$PG" db check
	[ "$status" -eq 1 ]
	[[ "$output" == *"state:          damaged"* ]]
	[[ "${lines[-1]}" == "schedperf: db check: store '"*"is damaged: table samples of schema version"*"is missing"* ]]
	run sp --db "$PG" db upgrade
	[ "$status" -eq 3 ]
	[[ "$output" == *"is damaged, nothing was changed"* ]]
}
