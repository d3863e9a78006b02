#!/usr/bin/env bats
# The command table, help, list and the errors of doc/design.md.

load helpers

@test "--version prints the version" {
	run sp --version
	[ "$status" -eq 0 ]
	[[ "$output" == "schedperf "[0-9]* ]]
}

@test "help lists every command; help COMMAND equals COMMAND --help" {
	run sp help
	[ "$status" -eq 0 ]
	for c in run compare list runs show export import env; do
		[[ "$output" == *"  $c "* ]]
	done
	a=$(sp help compare)
	b=$(sp compare --help)
	[ "$a" = "$b" ]
	[[ "$a" == *"usage: schedperf compare"* ]]
}

@test "no command: one line, exit 2" {
	run sp
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "unknown command: one line, exit 2" {
	run sp frobnicate
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"unknown command 'frobnicate'"* ]]
}

@test "unknown option: one line, exit 2" {
	run sp run pipe --no-such-option
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp --bogus list
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "list shows each workload with parameters and metrics" {
	run sp list
	[ "$status" -eq 0 ]
	[[ "$output" == *messaging* ]]
	[[ "$output" == *"groups "*"default 10"*"1..10000"* ]]
	[[ "$output" == *"ipc "*"socket|pipe"* ]]
	[[ "$output" == *"usec_per_op"*"better=lower"* ]]
	[[ "$output" == *"ops_per_sec"*"better=higher"* ]]
	run sp list pipe
	[ "$status" -eq 0 ]
	[[ "$output" != *messaging* ]]
	run sp list nosuch
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "unknown workload: one line, exit 2, nothing stored" {
	run sp run nosuch
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"unknown workload 'nosuch'"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
}

@test "unknown parameter names the ones the workload takes" {
	run sp run pipe -p nosuch=1
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"unknown parameter 'nosuch'"*"loops"* ]]
}

@test "bad values name the parameter, its range and the value" {
	run sp run pipe -p loops=0
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"'loops'"*"'0'"*"1..1000000000"* ]]
	run sp run pipe -p loops=12abc
	[ "$status" -eq 2 ]
	run sp run pipe -p mode=fibre
	[ "$status" -eq 2 ]
	[[ "$output" == *"process|thread"* ]]
	run sp run pipe -p loops
	[ "$status" -eq 2 ]
	run sp run pipe -p loops=1 -p loops=2
	[ "$status" -eq 2 ]
	run sp run pipe -i 0
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp run pipe -i many
	[ "$status" -eq 2 ]
	[ ! -e "$SCHEDPERF_DB" ]
}

@test "missing run: one line, exit 2" {
	sp run pipe -p loops=1000 -i 1 --name a --quiet
	run sp compare a nosuch
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"no run named 'nosuch'"* ]]
	run sp show nosuch
	[ "$status" -eq 2 ]
	run sp export nosuch
	[ "$status" -eq 2 ]
}

@test "a file that is not a store: one line, exit 2, left as it was" {
	echo "this is not a database, not even close to one......" > "$TMP/junk.db"
	run sp --db "$TMP/junk.db" runs
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"not a schedperf store: it is not an SQLite database"* ]]
	run sp --db "$TMP" runs
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"it is a directory"* ]]
	run sp --db "$TMP/no/such/dir/x.db" runs
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "a store whose schema version was set to 0 is refused saying so, not as missing its tables" {
	sp run pipe -p loops=10 -i 1 --name a -q
	sqlite3 "$SCHEDPERF_DB" 'PRAGMA user_version = 0' >/dev/null
	run sp runs
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"it has schedperf's tables, but its schema version (PRAGMA user_version) is 0"* ]]
	[[ "$output" != *"tables are missing"* ]]
	# without its tables, that is what it says
	sqlite3 "$TMP/bare.db" "PRAGMA application_id = 1399023696; PRAGMA user_version = 0;
		CREATE TABLE runs (id INTEGER PRIMARY KEY);" >/dev/null
	run sp --db "$TMP/bare.db" runs
	[ "$status" -eq 2 ]
	[[ "$output" == *"its schedperf tables are missing"* ]]
}

@test "a store with a newer schema is refused, exit 3, left untouched" {
	sqlite3 "$TMP/new.db" "PRAGMA application_id = 1399023696; PRAGMA user_version = 99;
		CREATE TABLE runs (id INTEGER PRIMARY KEY);" >/dev/null
	local before
	before=$(sha256sum <"$TMP/new.db")
	run sp --db "$TMP/new.db" runs
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"schema version 99 is newer"* ]]
	run sp --db "$TMP/new.db" run pipe -p loops=10 -i 1 -q
	[ "$status" -eq 3 ]
	assert_one_line_error
	[ "$(sha256sum <"$TMP/new.db")" = "$before" ]
	[ "$(sqlite3 "$TMP/new.db" 'PRAGMA journal_mode')" = delete ]
}

@test "--db, SCHEDPERF_DB and the default ./schedperf.db" {
	sp run pipe -p loops=1000 -i 1 --name x --quiet
	[ -e "$SCHEDPERF_DB" ]
	sp --db "$TMP/other.db" run pipe -p loops=1000 -i 1 --name y --quiet
	run sp runs --db "$TMP/other.db"
	[ "$status" -eq 0 ]
	[[ "$output" == *y* ]]
	[[ "$output" != *" x "* ]]
	cd "$TMP"
	SCHEDPERF_DB= "$SP" run pipe -p loops=1000 -i 1 --name z --quiet
	[ -e "$TMP/schedperf.db" ]
}
