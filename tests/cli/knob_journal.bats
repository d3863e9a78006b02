#!/usr/bin/env bats
# The machine's knob journal and lock (src/runner/knob_journal.h,
# src/runner/knob_guard.h): a setting an ab killed by SIGKILL left changed is
# journalled where every schedperf process on the machine sees it, whatever
# its store; every command that measures puts it back (a worker's job) or
# refuses (a person); nothing takes it for an original; ab --restore puts
# it back under the lock. Killed at every point, on SQLite and PostgreSQL,
# with two stores and a worker.

load helpers
load sysctl

# The every-point test of a worker's ab job (below, last), the file's
# longest, starts here and runs on the second CPU while the tests before it
# run, in a store, journal and knob lock of its own (the file's), on a
# sysctl no other test changes, under a lock of its own; its test waits for
# it. So does the initdb of the test whose server stops mid-ab.
setup_file() {
	local bg=$BATS_FILE_TMPDIR/jobs own

	pg_setup_file
	mkdir "$bg"
	(
		# its status once its teardown is done
		trap 'rc=$?; set +e; worker_points_end; echo "$rc" >"$bg/rc"' EXIT
		set -e
		worker_points "$bg"
	) </dev/null >"$bg/log" 2>&1 3>&- &
	echo "$!" >"$bg/pid"
	own=$(mktemp -d /tmp/schedperf-pg.XXXXXX)	# the server's user must reach it
	echo "$own" >"$BATS_FILE_TMPDIR/own-pg"
	(
		"$BATS_TEST_DIRNAME/../pg-server.sh" start "$own" && rc=0 || rc=$?
		echo "$rc" >"$BATS_FILE_TMPDIR/own-pg.rc"
	) </dev/null >/dev/null 2>"$BATS_FILE_TMPDIR/own-pg.err" 3>&- &
}

# What setup_file started, when its test did not end it (filtered, failed): the background
# killed, its sysctl put back once no process of it is left to write; the server stopped.
teardown_file() {
	local bg=$BATS_FILE_TMPDIR/jobs pid pids own

	if [ ! -s "$bg/rc" ]; then
		pid=$(cat "$bg/pid") && pids=$(descendants "$pid")
		kill -9 "$pid" $pids 2>/dev/null || true
		SCHEDPERF_DB=$bg/store.db WAIT_LIMIT=60 \
			wait_for refute process_on_this_store '(^|/)schedperf( |$)' || true
		[ ! -s "$bg/original" ] || cat "$bg/original" >"$BURST_FILE"
		# its databases, however far it got: pg_new_db's names in setup_file
		for db in $(psql_in postgres "SELECT datname FROM pg_database
				WHERE datname LIKE 't\_$$\_\_%'"); do
			psql_in postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
		done
	fi
	own=$(cat "$BATS_FILE_TMPDIR/own-pg")
	if [ -d "$own" ]; then
		WAIT_LIMIT=120 wait_for test -s "$BATS_FILE_TMPDIR/own-pg.rc" || true
		"$BATS_TEST_DIRNAME/../pg-server.sh" stop "$own"
	fi
	pg_teardown_file
}

# The background's sysctl, as harmless as sysctl.bash's, which tests change meanwhile.
BURST=kernel.printk_ratelimit_burst
BURST_FILE=/proc/sys/kernel/printk_ratelimit_burst

teardown() {
	[ -z "${PID:-}" ] || kill -9 "$PID" 2>/dev/null || true
	[ -z "${HOLDER:-}" ] || kill -9 "$HOLDER" 2>/dev/null || true
	[ -z "${GROUP:-}" ] || rmdir "$GROUP" 2>/dev/null || true
	[ -z "${PRINTK:-}" ] || printf '%s\n' "$PRINTK" >/proc/sys/kernel/printk
	sysctl_teardown
	for db in ${PGDBS:-}; do
		psql_in postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
	done
	rm -rf "$TMP"
}

new_pg_stores() {	# X and Y: two new PostgreSQL stores, their databases XDB and YDB
	XDB=$(pg_new_db)
	YDB=$(pg_new_db)
	PGDBS="$XDB $YDB"
	X=$(pg_url "$XDB")
	Y=$(pg_url "$YDB")
}

copy_of() {	# copy_of STORE: the rows of its copy of the journal
	case "$1" in
	postgresql:*) psql -qXAt "$1" -c 'SELECT count(*) FROM knob_journal' ;;
	*) sqlite_copy "$1" ;;
	esac
}

copied() {	# copied STORE: its copy holds a setting
	[ "$(copy_of "$1" 2>/dev/null)" = 1 ]
}

# An ab on store $1 in the background (PID) that changes $KNOB for ever;
# returns once it has changed it and copied its journal to the store.
start_ab_on() {
	"$SP" --db "$1" ab command "${NOISY_CMD[@]}" --a "sysctl:$KNOB=$A" \
		--b "sysctl:$KNOB=$B" --max-samples 100000 --name bg >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	wait_for knob_changed
	wait_for copied "$1"
}

machine_id() {	# as src/util/machine.c reads it
	cat /etc/machine-id 2>/dev/null || hostname
}

# jobs_show_copy STORE PATTERN: on PostgreSQL, what `jobs` lists after the
# jobs as changed and not put back matches PATTERN (empty: nothing listed).
jobs_show_copy() {
	[[ "$1" == postgresql:* ]] || return 0
	run sp --db "$1" jobs
	[ "$status" -eq 0 ]
	if [ -z "$2" ]; then
		[ "${#lines[@]}" -eq 1 ]
	else
		[ "${lines[1]}" = "Changed by an ab and not put back yet:" ]
		[[ "${lines[2]}" == $2 ]]
	fi
}

refused() {	# refused: the one line of a person's command that found the leftover
	assert_one_line_error
	[[ "$output" == *"sysctl $KNOB is $LEFT, not its original $ORIGINAL: an ab (process "*") changed it and was killed before it put it back, and this command would measure under it (run 'schedperf ab --restore' first)" ]]
}

# kill_restore X Y: an ab on store X killed by SIGKILL; on store Y every
# command that measures refuses, and nothing takes the leftover for an
# original; ab --restore with Y puts it back; X's copy goes when X is next
# used to measure here.
kill_restore() {
	local x=$1 y=$2

	sysctl_setup
	# a good run bisect-step can decide against: a value that never varies
	sp --db "$y" run command -p 'cmd=echo 100' -p 'metric_regex=([0-9]+)' -i 8 --name good -q
	start_ab_on "$x"
	kill_ab "schedperf --db $x ab"
	LEFT=$(cat "$KNOB_FILE")
	knob_changed
	[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ]
	[ "$(copy_of "$x")" -eq 1 ]
	jobs_show_copy "$x" "machine $(machine_id): sysctl $KNOB, original $ORIGINAL, since "*" by process "*
	run sp --db "$y" ab command -p cmd=true --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" \
		--max-samples 7
	[ "$status" -eq 3 ]
	refused
	run sp --db "$y" ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7
	[ "$status" -eq 3 ]
	refused
	run sp --db "$y" run command -p cmd=true -i 1 --name r
	[ "$status" -eq 3 ]
	refused
	run sp --db "$y" bisect-step command -p 'cmd=echo 100' -p 'metric_regex=([0-9]+)' \
		--good good --name step
	[ "$status" -eq 255 ]
	refused
	if command -v git >/dev/null; then
		git init -q "$TMP/repo"
		git -C "$TMP/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m one
		git -C "$TMP/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m two
		cd "$TMP/repo"
		run sp --db "$y" bisect command -p cmd=true --build true --good HEAD~1 --bad HEAD
		[ "$status" -eq 3 ]
		refused
		cd "$BATS_TEST_DIRNAME"
	fi
	# nothing was put back, nothing taken for an original, nothing stored
	knob_is "$LEFT"
	[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ]
	[ "$(copy_of "$y")" -eq 0 ]
	sp --db "$y" runs --format json >"$TMP/runs.json"
	[ "$(json '[r["name"] for r in d]' "$TMP/runs.json")" = "['good']" ]
	# ab --restore with any store: the machine's journal
	run sp --db "$y" ab --restore
	[ "$status" -eq 0 ]
	[ "$output" = "restored sysctl $KNOB = $ORIGINAL" ]
	knob_is "$ORIGINAL"
	[ -z "$(machine_journal)" ]
	# X's copy says what X's ab did until X is next used to measure here
	[ "$(copy_of "$x")" -eq 1 ]
	sp --db "$x" run command -p cmd=true -i 1 --name r -q
	[ "$(copy_of "$x")" -eq 0 ]
	jobs_show_copy "$x" ""
	# a side of the killed ab is no run to finish: it sampled until a verdict
	# (a side may not have begun when the ab was killed)
	for side in a b; do
		run sp --db "$x" run --resume --name "bg-$side"
		[ "$status" -eq 2 ]
		[[ "$output" == *"the batch is a side of an ab or a bisect-step"* ||
		   "$output" == *"has no incomplete batch"* ]]
	done
	run sp --db "$y" ab --restore
	[ "$status" -eq 0 ]
	[[ "$output" == "nothing to restore: this machine's journal ("*") holds no changed setting" ]]
	# and the next ab reads the true original
	run sp --db "$y" ab command -p cmd=true --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" \
		--max-samples 7
	[ "$status" -eq 0 ]
	knob_is "$ORIGINAL"
}

@test "knobs: an ab killed on one store: every command that measures refuses on another; ab --restore puts it back" {
	kill_restore "$TMP/x.db" "$TMP/y.db"
}

@test "knobs: the same on PostgreSQL" {
	new_pg_stores
	kill_restore "$X" "$Y"
}

# After a kill: the sysctl is at its original, or the journal holds the
# original; a person's run refuses or measures the original; ab --restore
# leaves the machine as it was; the killed ab's store is whole, and its copy
# of the journal goes at its next use here.
person_after_kill() {
	local v

	v=$(cat "$KNOB_FILE")
	if [ "$v" != "$ORIGINAL" ]; then
		[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ] || return 1
		LEFT=$v
		run sp --db "$Y" run command -p 'cmd=cat /proc/sys/kernel/printk_ratelimit' \
			-p 'metric_regex=([0-9]+)' -i 1 --name measured
		[ "$status" -eq 3 ] && refused || return 1
	fi
	sp --db "$Y" ab --restore -q || return 1
	knob_is "$ORIGINAL" && [ -z "$(machine_journal)" ] || return 1
	sp --db "$Y" run command -p 'cmd=cat /proc/sys/kernel/printk_ratelimit' \
		-p 'metric_regex=([0-9]+)' -i 1 --name measured -q || return 1
	sp --db "$X" run command -p cmd=true -i 1 --name r -q || return 1
	[ "$(copy_of "$X")" -eq 0 ] || return 1
}

# Every value the runs named "measured" sampled is the original.
measured_original() {
	[ "$(sp --db "$1" export measured | "$PYTHON" -c 'import json, sys
print(sorted({v for r in json.load(sys.stdin)["runs"] for b in r["benchmarks"]
              for m in b["metrics"] if m["name"] == "value" for v in m["samples"]}))')" = \
	  "[$ORIGINAL.0]" ]
}

# The abs every_point kills below run the fewest blocks an ab may (3 at
# --alpha 0.49): every point is an ab run up to it, and each block changes
# the sysctl as the one before did.
@test "knobs: an ab killed at every point, two SQLite stores: refused or restored, never lost" {
	command -v strace >/dev/null || skip "no strace"
	sysctl_setup
	X=$TMP/x.db Y=$TMP/y.db
	every_point person_after_kill "$SP" --db "$X" ab command -p cmd=true \
		--a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" --alpha 0.49 --max-samples 3 -q
	echo "# killed at $POINTS points" >&3
	[ "$POINTS" -ge 20 ]
	measured_original "$Y"
	[ "$(sqlite3 "$X" 'PRAGMA integrity_check')" = ok ]
}

@test "knobs: an ab copies the journal into its store before its first change" {
	command -v strace >/dev/null || skip "no strace"
	sysctl_setup
	X=$TMP/x.db
	# killed on entering its first write of the sysctl, which is not made
	strace -f -qq -o "$TMP/strace" -P "$KNOB_FILE" -e trace=write \
		-e inject=write:signal=KILL:when=1 "$SP" --db "$X" ab command -p cmd=true \
		--a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" --max-samples 7 -q || true
	grep -q 'write(' "$TMP/strace"
	knob_is "$ORIGINAL"
	# both journals have it: `jobs` shows what the machine's journal holds
	[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ]
	[ "$(sqlite3 "$X" "SELECT kind || ' ' || name || ' ' || original FROM knob_journal")" = \
	  "sysctl $KNOB $ORIGINAL" ]
	# and the next command here finds it at its original and forgets it in both
	sp --db "$X" run command -p cmd=true -i 1 --name r -q
	[ -z "$(machine_journal)" ]
	[ "$(sqlite_copy "$X")" -eq 0 ]
}

@test "knobs: a worker killed during an ab job: the next job, a run, puts the sysctl back and measures the original" {
	sysctl_setup
	new_pg_stores
	sp --db "$X" submit ab command "${NOISY_CMD[@]}" --a "sysctl:$KNOB=$A" \
		--b "sysctl:$KNOB=$B" --max-samples 100000 >/dev/null
	"$SP" --db "$X" worker --once >/dev/null 2>"$TMP/err" &
	PID=$!
	wait_for knob_changed
	wait_for copied "$X"
	kill -9 "$PID"
	wait "$PID" 2>/dev/null || true
	PID=
	wait_for refute process_on_this_store "schedperf -q ab"
	v=$(cat "$KNOB_FILE")
	[ "$v" != "$ORIGINAL" ]
	[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ]
	sp --db "$Y" submit command -p 'cmd=cat /proc/sys/kernel/printk_ratelimit' \
		-p 'metric_regex=([0-9]+)' -i 2 --name measured >/dev/null
	run sp --db "$Y" worker --once
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "schedperf: put back sysctl $KNOB = $ORIGINAL (it was $v): "* ]]
	[ "${lines[1]}" = "job 1: done" ]
	knob_is "$ORIGINAL"
	[ -z "$(machine_journal)" ]
	measured_original "$Y"
	[ "$(psql_in "$YDB" "SELECT count(*) FROM environment WHERE key LIKE 'knob.%'")" -eq 0 ]
}

@test "knobs: what cannot be put back is refused with why; other boots' and unchanged entries go" {
	sysctl_setup
	# a kind this machine cannot read (no debugfs here, or no such feature)
	journal_entry feature NO_SUCH_FEATURE_EVER NO_SUCH_FEATURE_EVER
	run sp run command -p cmd=true -i 1
	[ "$status" -eq 3 ]
	assert_one_line_error
	# (a journal of before it named the command: "a schedperf command")
	[[ "$output" == "schedperf: feature NO_SUCH_FEATURE_EVER, which a schedperf command (process 1, started 2026-12-01T00:00:00Z) changed and never put back, cannot be read: "* ]]
	run sp ab --restore
	[ "$status" -eq 3 ]
	[ "$(machine_journal)" = "feature NO_SUCH_FEATURE_EVER NO_SUCH_FEATURE_EVER" ]
	# a job refuses too, and so does a worker, which claims nothing
	run env SCHEDPERF_JOB=7:claim "$SP" run command -p cmd=true -i 1
	[ "$status" -eq 3 ]
	# a kind this schedperf does not know (a later one's)
	journal_entry cgroup cpu.weight 100
	run sp ab --restore
	[ "$status" -eq 3 ]
	[[ "$output" == *"a knob of kind 'cgroup' is journalled, which this schedperf does not know"* ]]
	# a journal that cannot be read refuses every command that measures
	echo '{"schema": "schedperf-knobs/1", "settings": [' >"$JOURNAL"
	run sp run command -p cmd=true -i 1
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == "schedperf: the knob journal $JOURNAL cannot be read: "* ]]
	# an entry of an earlier boot: the reboot put it back
	journal_entry sysctl "$KNOB" 12345 another-boot
	sp run command -p cmd=true -i 1 -q
	knob_is "$ORIGINAL"
	[ ! -e "$JOURNAL" ]
	# one whose setting is at its original (killed before its first change)
	journal_entry sysctl "$KNOB" "$ORIGINAL"
	sp run command -p cmd=true -i 1 -q
	[ ! -e "$JOURNAL" ]
	# ab --restore says so, a line for it as for every setting it deals with
	journal_entry sysctl "$KNOB" "$ORIGINAL"
	run sp ab --restore
	[ "$status" -eq 0 ]
	[[ "$output" == "schedperf: sysctl $KNOB, which "*" is at its original $ORIGINAL already: nothing to put back" ]]
	[ ! -e "$JOURNAL" ]
}

@test "knobs: a journal entry no schedperf writes (a path out of its kind's place) is refused" {
	echo kept >"$TMP/file"
	mkdir "$TMP/dir"
	for entry in "sysfs $TMP/file" "sysfs /sys/../$TMP/file" "sysctl ../../..$TMP/file" \
		"scratch-cgroup $TMP/dir"; do
		journal_entry $entry absent
		run sp ab --restore
		[ "$status" -eq 3 ] || { echo "$entry: $status: $output"; return 1; }
		[[ "$output" == *"is not a name this schedperf journals"* ]]
		[ "$(cat "$TMP/file")" = kept ]
		[ -d "$TMP/dir" ]
	done
}

# kill_bg PATTERN: SIGKILL the command run in the background ($PID, then
# $killed), and wait until no process of this store's matches PATTERN.
kill_bg() {
	kill -9 "$PID"
	wait "$PID" 2>/dev/null || true
	killed=$PID
	PID=
	wait_for refute process_on_this_store "$1"
}

@test "knobs: what a killed run --knob left changed is said to be a run's, not an ab's" {
	sysctl_setup
	"$SP" run command -p 'cmd=sleep 0.02' -i 10000 --knob "sysctl:$KNOB=$A" --name left \
		--no-monitors -q >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	wait_for knob_changed
	kill_bg "run command"
	run sp run command -p cmd=true -i 1
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == "schedperf: sysctl $KNOB is $A, not its original $ORIGINAL: a run (process $killed, started "*") changed it and was killed before it put it back, and this command would measure under it (run 'schedperf ab --restore' first)" ]]
	run sp ab --restore
	[ "$status" -eq 0 ]
	knob_is "$ORIGINAL"
}

@test "knobs: ab --restore shows a value's tabs as \\t: one line a setting" {
	[ -w /proc/sys/kernel/printk ] || skip "kernel.printk is not writable here (needs root)"
	sysctl_hold
	PRINTK=$(cat /proc/sys/kernel/printk)
	[[ "$PRINTK" == *$'\t'* ]] || skip "kernel.printk has no tab here"
	# what a killed ab left: the console's level changed, its original journalled
	journal_entry sysctl kernel.printk "${PRINTK//$'\t'/\\t}"
	printf '1 %s\n' "${PRINTK#*$'\t'}" >/proc/sys/kernel/printk
	run sp ab --restore
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "${lines[0]}" = "restored sysctl kernel.printk = ${PRINTK//$'\t'/\\t}" ]
	[ "$(cat /proc/sys/kernel/printk)" = "$PRINTK" ]
	# a job puts it back before it measures, saying so on one line too
	journal_entry sysctl kernel.printk "${PRINTK//$'\t'/\\t}"
	printf '1 %s\n' "${PRINTK#*$'\t'}" >/proc/sys/kernel/printk
	run env SCHEDPERF_JOB=7:claim "$SP" run command -p cmd=true -i 1 -q
	[ "$(cat /proc/sys/kernel/printk)" = "$PRINTK" ]
	[[ "${lines[0]}" == "schedperf: put back sysctl kernel.printk = ${PRINTK//$'\t'/\\t} (it was 1\\t"*"): a schedperf command (process 1, "* ]]
}

# not_utf8_restore STORE: an original that is not UTF-8, which JSON cannot
# hold as it is: the domain name of a UTS namespace of the test's own (the
# machine's is never touched) set to bytes 0xff 0xfe, changed by an ab on
# STORE killed by SIGKILL. The machine's journal holds it (as hex), `jobs`
# shows a PostgreSQL store's copy (as \xHH) and ab --restore puts it back
# byte for byte.
not_utf8_restore() {
	command -v unshare >/dev/null || skip "no unshare"
	unshare -u true 2>/dev/null || skip "no UTS namespaces here"
	run unshare -u sh -c 'printf "\377\376 odd" >/proc/sys/kernel/domainname || exit 1
		original=$(od -An -tx1 /proc/sys/kernel/domainname) db=$1
		shift
		"$0" --db "$db" ab command "$@" --a sysctl:kernel.domainname=a \
			--b sysctl:kernel.domainname=b --max-samples 100000 >/dev/null 2>&1 3>&- &
		pid=$!
		copied() {	# a PostgreSQL store has its copy (SQLite: no jobs to show it)
			case $db in
			postgresql:*) "$0" --db "$db" jobs 2>/dev/null | grep -q domainname ;;
			esac
		}
		until [ "$(od -An -tx1 /proc/sys/kernel/domainname)" != "$original" ] && copied; do
			kill -0 $pid || exit 1
			sleep 0.05
		done
		{ kill -9 $pid; wait $pid; } 2>/dev/null
		# its iteration holds the lock until its guardian kills it (sysctl.bash, kill_ab)
		until flock -nx "$SCHEDPERF_TEST_RUNDIR/schedperf-knobs.lock" true; do
			sleep 0.05
		done
		grep -c "\"original_hex\": \"fffe206f6464\"" \
			"$SCHEDPERF_TEST_RUNDIR/schedperf-knobs.journal"
		case $db in postgresql:*) "$0" --db "$db" jobs | tail -1 ;; esac
		"$0" ab --restore
		od -An -tx1 /proc/sys/kernel/domainname' "$SP" "$1" "${NOISY_CMD[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 1 ]
	if [[ "$1" == postgresql:* ]]; then
		[[ "${lines[1]}" == 'machine '*': sysctl kernel.domainname, original '\
'\xff\xfe odd, since '* ]]
		lines=("${lines[0]}" "${lines[@]:2}")
	fi
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[1]}" = 'restored sysctl kernel.domainname = \xff\xfe odd' ]
	[ "$(echo ${lines[2]})" = "ff fe 20 6f 64 64 0a" ]
	[ ! -e "$JOURNAL" ]
}

@test "knobs: an original that is not UTF-8 is journalled and put back byte for byte" {
	not_utf8_restore "$TMP/x.db"
}

@test "knobs: the same on PostgreSQL, whose copy of the journal holds only UTF-8" {
	new_pg_stores
	not_utf8_restore "$X"
}

# The copy of an original holding a '\' and a byte not UTF-8 (0xff, then
# the text \x41) is read back as those bytes: jobs shows the '\' doubled,
# and the text \xff\x41 is not taken for the original, the bytes are.
@test "knobs: the PostgreSQL copy tells the text \\xHH from a byte not UTF-8" {
	command -v unshare >/dev/null || skip "no unshare"
	unshare -u true 2>/dev/null || skip "no UTS namespaces here"
	new_pg_stores
	run unshare -u sh -c 'printf "\377\\\\x41" >/proc/sys/kernel/domainname || exit 1
		original=$(od -An -tx1 /proc/sys/kernel/domainname) db=$1
		shift
		"$0" --db "$db" ab command "$@" --a sysctl:kernel.domainname=a \
			--b sysctl:kernel.domainname=b --max-samples 100000 >/dev/null 2>&1 3>&- &
		pid=$!
		until [ "$(od -An -tx1 /proc/sys/kernel/domainname)" != "$original" ] &&
		      "$0" --db "$db" jobs 2>/dev/null | grep -q domainname; do
			kill -0 $pid || exit 1
			sleep 0.05
		done
		{ kill -9 $pid; wait $pid; } 2>/dev/null
		# its iteration holds the lock until its guardian kills it (sysctl.bash, kill_ab)
		until flock -nx "$SCHEDPERF_TEST_RUNDIR/schedperf-knobs.lock" true; do
			sleep 0.05
		done
		printf "%s" "\\xff\\x41" >/proc/sys/kernel/domainname
		"$0" --db "$db" jobs | tail -1
		printf "\377\\\\x41" >/proc/sys/kernel/domainname
		"$0" --db "$db" jobs | tail -1
		"$0" ab --restore >/dev/null
		od -An -tx1 /proc/sys/kernel/domainname' "$SP" "$X" "${NOISY_CMD[@]}"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" == 'machine '*': sysctl kernel.domainname, original \xff\\x41, since '* ]]
	[[ "${lines[0]}" != *"back at its original now"* ]]
	[[ "${lines[1]}" == *'original \xff\\x41, since '*'; back at its original now' ]]
	[[ "${lines[2]}" == *"is at its original "*" already: nothing to put back" ]]
	[ "$(echo ${lines[3]})" = "ff 5c 78 34 31 0a" ]
	[ ! -e "$JOURNAL" ]
}

# gone_entries: a journal of a sysctl and a sysfs file (a cgroup's) that
# are no longer there, as after a module's unload or the group's removal.
gone_entries() {
	local boot=$(cat /proc/sys/kernel/random/boot_id)

	cat >"$JOURNAL" <<-EOF
	{"schema": "schedperf-knobs/1", "settings": [
	 {"kind": "sysctl", "name": "kernel.schedperf_unloaded", "original": "1", "boot": "$boot",
	  "pid": 1, "start": 1, "started": "2026-12-01T00:00:00Z", "command": "run"},
	 {"kind": "sysfs", "name": "/sys/fs/cgroup/cpu/schedperf-removed/cpu.shares",
	  "original": "1024", "boot": "$boot", "pid": 1, "start": 1,
	  "started": "2026-12-01T00:00:00Z"}]}
	EOF
}

gone_said() {	# gone_said: the two lines that say the entries went, and no other
	# (but the note a loaded machine adds on disturbed iterations)
	local said=()
	for line in "${lines[@]}"; do
		[[ "$line" == *"iterations disturbed"* ]] || said+=("$line")
	done
	lines=("${said[@]}")
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "schedperf: sysctl kernel.schedperf_unloaded, which a run (process 1, started 2026-12-01T00:00:00Z) changed and never put back: /proc/sys/kernel/schedperf_unloaded is gone; nothing to put back" ]
	[ "${lines[1]}" = "schedperf: sysfs /sys/fs/cgroup/cpu/schedperf-removed/cpu.shares, which a schedperf command (process 1, started 2026-12-01T00:00:00Z) changed and never put back: /sys/fs/cgroup/cpu/schedperf-removed/cpu.shares is gone; nothing to put back" ]
}

is_stopped() {	# is_stopped PID: the process is stopped (SIGSTOP took effect)
	[ "$(awk '{ print $3 }' "/proc/$1/stat")" = T ]
}

shares_changed() {
	[ "$(cat "$GROUP/cpu.shares")" != 1024 ]
}

# cgroup_ab NAME: an ab NAME in the background (PID) that changes $GROUP's
# cpu.shares, a sysfs file, until stopped; returns once it has.
cgroup_ab() {
	GROUP=/sys/fs/cgroup/cpu/schedperf-test-$$-$BATS_TEST_NUMBER
	mkdir "$GROUP"
	"$SP" ab command "${NOISY_CMD[@]}" --a "sysfs:$GROUP/cpu.shares=512" \
		--b "sysfs:$GROUP/cpu.shares=256" --max-samples 100000 --name "$1" -q \
		>"$TMP/out" 2>"$TMP/err" &
	PID=$!
	wait_for shares_changed
}

@test "knobs: a setting whose file is gone is dropped with a line saying so: nothing is blocked" {
	[ -w /sys/fs/cgroup/cpu ] || skip "no writable cgroup v1 cpu controller here"
	# every command that measures, and ab --restore, drops them and goes on
	gone_entries
	run sp run command -p cmd=true -i 1 -q
	[ "$status" -eq 0 ]
	gone_said
	[ ! -e "$JOURNAL" ]
	gone_entries
	run env SCHEDPERF_JOB=7:claim "$SP" ab --restore
	[ "$status" -eq 0 ]
	gone_said
	[ ! -e "$JOURNAL" ]
	gone_entries
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7 -q
	[ "$status" -eq 0 ]
	gone_said
	[ ! -e "$JOURNAL" ]
	# an ab killed by SIGKILL, its cgroup removed after: ab --restore drops it
	cgroup_ab killed
	kill_bg "ab command"
	[ "$(machine_journal)" = "sysfs $GROUP/cpu.shares 1024" ]
	rmdir "$GROUP"
	run sp ab --restore
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "schedperf: sysfs $GROUP/cpu.shares, which an ab (process $killed, started "*") changed and never put back: $GROUP/cpu.shares is gone; nothing to put back" ]]
	[ -z "$(machine_journal)" ]
	sp run command -p cmd=true -i 1 -q
	# the group removed while the ab runs: its own put-back drops it, and
	# says so (stopped meanwhile, so that SIGINT is what ends it, not its
	# next write to the file that went)
	cgroup_ab interrupted
	kill -STOP "$PID"
	wait_for is_stopped "$PID"
	rmdir "$GROUP"
	kill -INT "$PID"
	kill -CONT "$PID"
	rc=0
	wait "$PID" || rc=$?
	PID=
	[ "$rc" -eq 130 ]
	grep -qxF "schedperf: sysfs $GROUP/cpu.shares: $GROUP/cpu.shares is gone; nothing to put back" "$TMP/err"
	[ -z "$(machine_journal)" ]
	sp run command -p cmd=true -i 1 -q
}

@test "knobs: one lock: a run waits for an ab, an ab for a run; SIGINT while waiting exits 130" {
	sysctl_setup
	# a run started while an ab changes the sysctl waits for it, then measures the original
	"$SP" ab command "${NOISY_CMD[@]}" --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" \
		--max-samples 100000 --name ab -q 2>"$TMP/ab.err" &
	PID=$!
	wait_for knob_changed
	"$SP" run command -p 'cmd=cat /proc/sys/kernel/printk_ratelimit' \
		-p 'metric_regex=([0-9]+)' -i 3 --name measured >/dev/null 2>"$TMP/err" &
	runner=$!
	wait_for grep -q . "$TMP/err"
	[ "$(cat "$TMP/err")" = "schedperf: waiting for ab process $PID to end: it changes sysctl $KNOB on this machine ($KNOB_LOCK)" ]
	kill -TERM "$PID"
	wait "$PID" || true
	PID=
	wait "$runner"
	measured_original "$SCHEDPERF_DB"
	# an ab waits while another command measures; SIGINT ends the wait: 130, nothing changed
	(exec 7<>"$KNOB_LOCK"; flock -s 7; exec sleep 600) 3>&- &
	HOLDER=$!
	wait_for refute flock -n -x "$KNOB_LOCK" true
	"$SP" --db "$TMP/new.db" ab command -p cmd=true --a "sysctl:$KNOB=$A" \
		--b "sysctl:$KNOB=$B" --max-samples 7 2>"$TMP/err" &
	PID=$!
	wait_for grep -q "waiting until no other schedperf command measures" "$TMP/err"
	kill -INT "$PID"
	rc=0
	wait "$PID" || rc=$?
	PID=
	[ "$rc" -eq 130 ]
	[ "$(sed -n 2p "$TMP/err")" = "schedperf: interrupted while waiting for the lock on this machine's settings ($KNOB_LOCK): nothing was changed" ]
	knob_is "$ORIGINAL"
	[ ! -e "$TMP/new.db" ]
	[ -z "$(machine_journal)" ]
	# ab --restore waits too: interrupted once it says so, however long it took to
	"$SP" ab --restore 2>"$TMP/restore.err" &
	PID=$!
	wait_for grep -q "waiting until no other schedperf command measures" "$TMP/restore.err"
	kill -INT "$PID"
	rc=0
	wait "$PID" || rc=$?
	PID=
	[ "$rc" -eq 130 ]
	grep -q "interrupted while waiting for the lock" "$TMP/restore.err"
	# a SIGINT that lands before the wait begins (while the note is written:
	# strace holds each write 1 s) ends it too, not only one that cuts it short
	# (LeakSanitizer cannot run under ptrace: the wait above is checked by it)
	if command -v strace >/dev/null; then
		ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 timeout -s KILL 60 \
			strace -f -qq -o /dev/null -e trace=write -e inject=write:delay_exit=1000000 \
			"$SP" ab --restore 2>"$TMP/traced.err" &
		PID=$!
		wait_for grep -q "waiting until no other schedperf command measures" "$TMP/traced.err"
		kill -INT "$(pgrep -P "$(pgrep -P "$PID")")"
		rc=0
		wait "$PID" || rc=$?
		PID=
		[ "$rc" -eq 130 ]
		grep -q "interrupted while waiting for the lock" "$TMP/traced.err"
	fi
	# while a command holds it shared, a run measures beside it
	sp run command -p cmd=true -i 1 -q
}

@test "knobs: without the tests' directory the lock and journal are /run's" {
	sysctl_setup
	command -v unshare >/dev/null || skip "no unshare"
	unshare -m true 2>/dev/null || skip "no mount namespaces here"
	# a private /run: the machine's own is never touched
	run unshare -m sh -c 'mount -t tmpfs none /run || exit 1
		unset SCHEDPERF_TEST_RUNDIR
		"$0" ab command -p "cmd=sleep 0.05" --a "sysctl:$1=$2" --b "sysctl:$1=$3" \
			--max-samples 100000 >/dev/null 2>&1 &
		pid=$!
		while [ "$(cat /proc/sys/kernel/printk_ratelimit)" = "$4" ]; do sleep 0.05; done
		{ kill -9 $pid; wait $pid; } 2>/dev/null
		until flock -n -x /run/schedperf-knobs.lock true; do sleep 0.05; done	# as above
		stat -c "%n %a" /run/schedperf-knobs.lock /run/schedperf-knobs.journal
		"$0" -q run command -p cmd=true -i 1
		echo "run: $?"
		"$0" ab --restore' "$SP" "$KNOB" "$A" "$B" "$ORIGINAL"
	echo "$output"
	[ "${lines[0]}" = "/run/schedperf-knobs.lock 644" ]
	[ "${lines[1]}" = "/run/schedperf-knobs.journal 644" ]
	[[ "${lines[2]}" == "schedperf: sysctl $KNOB is "*"(run 'schedperf ab --restore' first)" ]]
	[ "${lines[3]}" = "run: 3" ]
	[ "${lines[4]}" = "restored sysctl $KNOB = $ORIGINAL" ]
	knob_is "$ORIGINAL"
}

@test "knobs: each side's batch records its setting and the original in its environment" {
	sysctl_setup
	sp ab command -p cmd=true --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" --max-samples 7 \
		--name sides -q
	for side in a b; do
		want=$([ $side = a ] && echo "$A" || echo "$B")
		[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT e.value FROM environment e JOIN batches b
			ON b.id = e.batch_id JOIN runs r ON r.id = b.run_id
			WHERE r.name = 'sides-$side' AND e.key = 'knob.sysctl.$KNOB'")" = \
		  "$want (original $ORIGINAL)" ]
	done
	# a run measured after it is not marked
	sp run command -p cmd=true -i 1 --name after -q
	[ -z "$(sqlite3 "$SCHEDPERF_DB" "SELECT e.key FROM environment e JOIN batches b
		ON b.id = e.batch_id JOIN runs r ON r.id = b.run_id
		WHERE r.name = 'after' AND e.key LIKE 'knob.%'")" ]
	# compare shows the difference
	run sp compare sides-a sides-b
	[[ "$output" == *"knob.sysctl.$KNOB"* ]]
}

@test "knobs: the PostgreSQL server stops mid-ab: the sysctl is back, no --resume advice, the next ab runs" {
	sysctl_setup
	local own url
	own=$(cat "$BATS_FILE_TMPDIR/own-pg")	# started by setup_file
	wait_for test -s "$BATS_FILE_TMPDIR/own-pg.rc"
	cat "$BATS_FILE_TMPDIR/own-pg.err"
	[ "$(cat "$BATS_FILE_TMPDIR/own-pg.rc")" -eq 0 ]
	url="postgresql:///postgres?host=$own&user=postgres"
	"$SP" --db "$url" ab command "${NOISY_CMD[@]}" --a "sysctl:$KNOB=$A" \
		--b "sysctl:$KNOB=$B" --max-samples 100000 --name p >/dev/null 2>"$TMP/err" &
	PID=$!
	wait_for copied "$url"
	"$BATS_TEST_DIRNAME/../pg-server.sh" pause "$own"
	rc=0
	wait "$PID" || rc=$?
	PID=
	"$BATS_TEST_DIRNAME/../pg-server.sh" resume "$own"
	cat "$TMP/err"
	[ "$rc" -eq 3 ]
	knob_is "$ORIGINAL"
	[ -z "$(machine_journal)" ]
	refute grep -q -- "--resume" "$TMP/err"
	grep -q "^schedperf: warning: the settings are restored; the store's copy" "$TMP/err"
	[ "$(tail -1 "$TMP/err" | grep -c "the connection to the server is lost")" -eq 1 ]
	# its copy stays until the next ab here, which is not refused and removes it
	[ "$(psql -qXAt "$url" -c 'SELECT count(*) FROM knob_journal')" -eq 1 ]
	run sp --db "$url" ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7
	[ "$status" -eq 0 ]
	[ "$(psql -qXAt "$url" -c 'SELECT count(*) FROM knob_journal')" -eq 0 ]
	"$BATS_TEST_DIRNAME/../pg-server.sh" stop "$own"
}

@test "knobs: a lock that cannot be made says how to fix it, never 'run as root' to root" {
	run env SCHEDPERF_TEST_RUNDIR="$TMP/missing" "$SP" ab --restore
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"schedperf-knobs.lock: No such file or directory (its directory does not exist: create it)" ]]
	if [ "$(id -u)" = 0 ]; then
		[[ "$output" != *"run as root"* ]]
	fi
}

@test "knobs: a user who may not make the lock is told to run as root, not that it is missing" {
	command -v setpriv >/dev/null || skip "setpriv missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	# a /run all may enter and only root may write, as the machine's, without the lock
	export SCHEDPERF_TEST_RUNDIR="$TMP/run"
	mkdir "$SCHEDPERF_TEST_RUNDIR"
	chmod 755 "$TMP" "$SCHEDPERF_TEST_RUNDIR"
	run setpriv --reuid=nobody --regid=nogroup --clear-groups "$SP" ab --restore
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"cannot open the lock $SCHEDPERF_TEST_RUNDIR/schedperf-knobs.lock: $(
		)Permission denied (run as root)" ]]
}

# After a kill of a worker's ab job (or of the worker): the sysctl is at its
# original or journalled; the next job, a run on the other store, puts it
# back and measures the original, unmarked.
job_after_kill() {
	local v

	v=$(cat "$KNOB_FILE")
	if [ "$v" != "$ORIGINAL" ]; then
		[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ] || return 1
	fi
	sp --db "$Y" submit command -p "cmd=cat $KNOB_FILE" \
		-p 'metric_regex=([0-9]+)' -i 1 --name measured >/dev/null || return 1
	run sp --db "$Y" worker --once
	[ "$status" -eq 0 ] && [ "${lines[-1]}" = "job $((++YJOBS)): done" ] || return 1
	if [ "$v" != "$ORIGINAL" ]; then
		[[ "${lines[0]}" == "schedperf: put back sysctl $KNOB = $ORIGINAL (it was $v): an ab (process "*") changed it and was killed before it put it back, and this worker's jobs measure" ]] || return 1
	fi
	knob_is "$ORIGINAL" && [ -z "$(machine_journal)" ] || return 1
	# the next ab job queued on X reads the true original
	sp --db "$X" submit --max-attempts 1 ab command -p cmd=true --a "sysctl:$KNOB=$A" \
		--b "sysctl:$KNOB=$B" --alpha 0.49 --max-samples 3 >/dev/null
}

# worker_points DIR: the every-point test of a worker's ab job, in the
# background (setup_file) on $BURST, its files in DIR: "skip: WHY" in its
# log when it cannot run; its test checks the rest.
worker_points() {
	TMP=$1 SP=$SCHEDPERF
	export SCHEDPERF_DB=$TMP/store.db
	command -v strace >/dev/null || { echo "skip: no strace"; return 0; }
	KNOB=$BURST KNOB_FILE=$BURST_FILE SYSCTL_LOCK=/tmp/schedperf-tests-sysctl-burst.lock
	[ -w "$KNOB_FILE" ] || { echo "skip: $KNOB is not writable here (needs root)"; return 0; }
	sysctl_hold
	ORIGINAL=$(cat "$KNOB_FILE")
	echo "$ORIGINAL" >"$TMP/original"
	A=$((ORIGINAL + 1)) B=$((ORIGINAL + 2)) YJOBS=0
	new_pg_stores
	sp --db "$X" submit --max-attempts 1 ab command -p cmd=true --a "sysctl:$KNOB=$A" \
		--b "sysctl:$KNOB=$B" --alpha 0.49 --max-samples 3 >/dev/null
	every_point job_after_kill "$SP" --db "$X" worker --once
	echo "# killed at $POINTS points"
	[ "$POINTS" -ge 20 ]
	measured_original "$Y"
	# no env key marks a knob away from its original in any measured batch
	[ "$(psql_in "$YDB" "SELECT count(*) FROM environment WHERE key LIKE 'knob.%'")" -eq 0 ]
	# every ab job either failed (killed) or is done, its copy gone
	[ "$(psql_in "$XDB" "SELECT count(*) FROM jobs WHERE command = 'ab' AND state NOT IN ('done', 'failed', 'queued')")" -eq 0 ]
	sp --db "$X" run command -p cmd=true -i 1 --name r -q
	[ "$(pg_copy "$XDB")" -eq 0 ]
}

worker_points_end() {	# its teardown, as a test's
	sysctl_teardown
	for db in ${PGDBS:-}; do
		psql_in postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
	done
}

background_over() {	# background_over DIR: it wrote its status, or is gone
	[ -s "$1/rc" ] || ! kill -0 "$(cat "$1/pid")" 2>/dev/null
}

@test "knobs: a worker's ab job killed at every point, two PostgreSQL stores: the next job restores" {
	local bg=$BATS_FILE_TMPDIR/jobs

	WAIT_LIMIT=540 wait_for background_over "$bg"	# below make check's limit of a test
	cat "$bg/log"
	[ -s "$bg/rc" ] || { echo "killed: no status (teardown_file puts back what it left)"; false; }
	! grep -q '^skip: ' "$bg/log" || skip "$(sed -n 's/^skip: //p' "$bg/log")"
	grep '^# killed at' "$bg/log" >&3
	[ "$(cat "$bg/rc")" -eq 0 ]
}
