#!/usr/bin/env bats
# Faults of the machine: a full and a read-only file system under
# the store, a damaged store, a store locked by another writer, process
# creation refused, parameters the machine cannot hold. Each must end with
# one clear line and exit 3, and leave a store that PRAGMA integrity_check
# accepts, holding whole iterations only. Most need root; they skip without.

load helpers

teardown() {
	if [ -n "${LOCKER:-}" ]; then
		exec 5>&-
		kill "$LOCKER" 2>/dev/null
	fi
	if [ -n "${MNT:-}" ] && mountpoint -q "$MNT"; then
		umount "$MNT" || umount -l "$MNT"
	fi
	[ -n "${CGROUP:-}" ] && rmdir "$CGROUP" 2>/dev/null
	rm -rf "$TMP"
}

# fault WANT ARGS...: run schedperf with a time limit that only a hang
# reaches (timeout's exit 124); expect exit WANT and exactly one
# "schedperf: " line on stderr (left in $TMP/err).
fault() {
	local want=$1 rc=0 nr
	shift
	timeout 300 "$SP" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	nr=$(wc -l <"$TMP/err")
	if [ "$rc" -ne "$want" ] || [ "$nr" -ne 1 ] || ! grep -q '^schedperf: ' "$TMP/err"; then
		echo "schedperf $*: exit $rc (expected $want), stderr ($nr lines):"
		head -c 1000 "$TMP/err"
		return 1
	fi
}

err_has() {
	grep -q -- "$1" "$TMP/err" || { echo "stderr lacks '$1': $(cat "$TMP/err")"; return 1; }
}

integrity_ok() {	# integrity_ok DB
	[ "$(sqlite3 "$1" 'PRAGMA integrity_check')" = ok ]
}

# Every stored iteration is whole: a successful one has a value for each
# metric of its benchmark that any iteration of the benchmark has.
whole_iterations() {	# whole_iterations DB
	local partial
	partial=$(sqlite3 "$1" "
		WITH per_iteration AS (
			SELECT i.id, i.benchmark_id, count(s.metric_id) AS n
			FROM iterations i LEFT JOIN samples s ON s.iteration_id = i.id
			WHERE i.failure IS NULL GROUP BY i.id)
		SELECT count(*) FROM per_iteration p
		WHERE p.n < (SELECT max(n) FROM per_iteration q
			     WHERE q.benchmark_id = p.benchmark_id) OR p.n = 0")
	[ "$partial" -eq 0 ] || { echo "$partial partial iterations"; return 1; }
}

iterations_of() {	# iterations_of DB RUN
	sqlite3 "$1" "SELECT count(*) FROM iterations i JOIN benchmarks be ON be.id = i.benchmark_id
		JOIN batches b ON b.id = be.batch_id JOIN runs r ON r.id = b.run_id
		WHERE r.name = '$2' AND i.failure IS NULL"
}

# lock_store [SQL]: a sqlite3 process takes the store's write lock (BEGIN
# EXCLUSIVE), runs SQL, and holds the lock until unlock_store.
lock_store() {
	rm -f "$TMP/lock.fifo"
	mkfifo "$TMP/lock.fifo"
	sqlite3 "$SCHEDPERF_DB" <"$TMP/lock.fifo" >"$TMP/locker.out" 2>&1 3>&- &
	LOCKER=$!
	exec 5>"$TMP/lock.fifo"
	printf '.timeout 20000\nBEGIN EXCLUSIVE;\n%s\n' "${1:-}" >&5
	wait_for store_locked
}

# Locked when another writer cannot begin (no busy wait: fails at once).
store_locked() {
	! sqlite3 "$SCHEDPERF_DB" 'BEGIN IMMEDIATE; ROLLBACK;' 2>/dev/null
}

unlock_store() {	# end of input: the sqlite3 process rolls back and exits
	exec 5>&-
	wait "$LOCKER" || true
	LOCKER=
}

mount_tmpfs() {		# mount_tmpfs SIZE: a small file system at $MNT
	MNT="$TMP/mnt"
	mkdir -p "$MNT"
	mount -t tmpfs -o "size=$1" tmpfs "$MNT" 2>/dev/null ||
		skip "cannot mount a tmpfs here (needs root): $(id -un)"
}

@test "faults: a full file system: exit 3, the iterations before it kept whole" {
	mount_tmpfs 400k
	local db="$MNT/store.db" avail
	"$SP" --db "$db" run pipe -p loops=10 -i 2 --name before -q
	# Leave room for the batch and a few iterations, then let it fill up.
	avail=$(df -k --output=avail "$MNT" | tail -1)
	dd if=/dev/zero of="$MNT/fill" bs=1k count=$((avail - 160)) 2>/dev/null || true
	fault 3 --db "$db" run pipe -p loops=10 -i 500 --name full -q
	err_has "disk is full"
	err_has "free disk space"
	# the batch's resume names the store it is in
	err_has "; then finish batch 2 with: schedperf run --resume --name full --db $db)\$"
	integrity_ok "$db"
	whole_iterations "$db"
	[ "$(iterations_of "$db" before)" -eq 2 ]
	[ "$(iterations_of "$db" full)" -ge 1 ]
	[ "$(iterations_of "$db" full)" -lt 500 ]
	[ "$(sqlite3 "$db" "SELECT complete FROM batches b JOIN runs r ON r.id = b.run_id
		WHERE r.name = 'full'")" -eq 0 ]
	# With room again, the store is usable and the batch can be finished.
	rm -f "$MNT/fill"
	run sp --db "$db" runs
	[ "$status" -eq 0 ]
	# Opening a store on a full file system is refused cleanly too.
	avail=$(df -k --output=avail "$MNT" | tail -1)
	dd if=/dev/zero of="$MNT/fill" bs=1k count="$avail" 2>/dev/null || true
	fault 3 --db "$MNT/other.db" run pipe -p loops=10 -i 1 --name x -q
	rm -f "$MNT/fill"
	integrity_ok "$db"
}

# big_results FILE N: a results document of one run, "big", of N samples.
big_results() {
	"$PYTHON" - "$1" "$2" <<-'PY'
	import json, sys
	samples = [1 + i / 7 for i in range(int(sys.argv[2]))]
	metric = {"name": "m", "unit": "s", "better": "lower", "samples": samples}
	run = {"name": "big", "started": "2026-01-01T00:00:00Z", "complete": True,
	       "environment": {}, "benchmarks": [{"workload": "w", "params": {},
	                                          "metrics": [metric]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [run]}, open(sys.argv[1], "w"))
	PY
}

# fill_disk KB: leave KB kilobytes free at $MNT.
fill_disk() {
	local avail
	avail=$(df -k --output=avail "$MNT" | tail -1)
	[ "$avail" -le "$1" ] ||
		dd if=/dev/zero of="$MNT/fill" bs=1k count=$((avail - $1)) 2>/dev/null || true
}

@test "faults: a full file system stops a bisection interrupted, its message how to go on" {
	command -v git >/dev/null || skip "no git"
	mount_tmpfs 16m
	git init -q "$TMP/repo"
	cd "$TMP/repo"
	git config user.email test@example.com
	git config user.name test
	for t in 0.01 0.03; do
		printf '#!/bin/sh\nsleep %s\n' "$t" >prog.sh
		chmod +x prog.sh
		git add prog.sh
		git commit -q -m "sleep $t"
	done
	# the 12th sample fills the file system, the store on it: a commit fails
	local db="$MNT/it's.db" count="$TMP/count"
	fault 3 --db "$db" bisect command -p shell=1 -p "cmd=c=\$((\$(cat '$count' 2>/dev/null ||
		echo 0) + 1)); echo \$c >'$count'; [ \$c -ne 12 ] ||
		dd if=/dev/zero of='$MNT/fill' bs=64k 2>/dev/null; ./prog.sh" \
		--good HEAD~1 --bad HEAD --max-samples 20 -q
	err_has "disk is full"
	# as Ctrl-C's, the command to go on with it, the store named
	[[ "$(cat "$TMP/err")" == *"(free disk space and run again; the bisection is kept: $(
		)go on with: schedperf bisect --resume --db '$MNT/it'\''s.db')" ]]
	rm -f "$MNT/fill"
	# (its last save may have found no room: --list says what the row may not)
	"$SP" --db "$db" bisect --list | grep -q " 1  interrupted "
	run "$SP" --db "$db" bisect --resume -q
	[ "$status" -le 1 ] || { echo "$output"; return 1; }
	[ "$(sqlite3 "$db" "SELECT state FROM bisections")" = done ]
	integrity_ok "$db"
}

@test "faults: import into a full file system: exit 3, nothing of the file kept" {
	mount_tmpfs 16m
	local db="$MNT/store.db" before
	"$SP" --db "$db" run pipe -p loops=10 -i 2 --name before -q
	big_results "$TMP/big.json" 20000
	before=$(sqlite3 "$db" .dump | sha256sum)
	# a fifth of the room its 20,000 samples take, packed (16 hex digits each):
	# the file is one transaction
	fill_disk 64
	fault 3 --db "$db" import "$TMP/big.json"
	err_has "disk is full"
	rm -f "$MNT/fill"
	integrity_ok "$db"
	[ "$(sqlite3 "$db" .dump | sha256sum)" = "$before" ]
	# with room again, the same file goes in whole
	"$SP" --db "$db" import "$TMP/big.json"
	[ "$(sqlite3 "$db" "SELECT sum(present) FROM packed_samples")" -eq 20000 ]
	[ "$(iterations_of "$db" before)" -eq 2 ]
}

@test "faults: a version 1 store on a full file system: the upgrade fails whole" {
	mount_tmpfs 4m
	local db="$MNT/store.db" before current
	sqlite3 "$db" <"$BATS_TEST_DIRNAME/../data/store-v1.sql"
	before=$(sqlite3 "$db" .dump | sha256sum)
	fill_disk 0
	fault 3 --db "$db" run pipe -p loops=10 -i 1 --name new -q
	err_has "disk is full"
	# read as it was, through an upgraded copy in memory
	"$SP" --db "$db" export v1-pipe v1-fw >"$TMP/v1.json"
	same_json "$TMP/v1.json" "$BATS_TEST_DIRNAME/../data/store-v1.json"
	rm -f "$MNT/fill"
	integrity_ok "$db"
	[ "$(sqlite3 "$db" 'PRAGMA user_version')" -eq 1 ]
	[ "$(sqlite3 "$db" .dump | sha256sum)" = "$before" ]
	# with room, the next write upgrades it to the version a new store has
	"$SP" --db "$db" run pipe -p loops=10 -i 1 --name new -q
	"$SP" --db "$TMP/new.db" run pipe -p loops=10 -i 1 --name new -q
	current=$(sqlite3 "$TMP/new.db" 'PRAGMA user_version')
	[ "$(sqlite3 "$db" 'PRAGMA user_version')" -eq "$current" ]
	[ "$current" -gt 1 ]
	integrity_ok "$db"
	"$SP" --db "$db" export v1-pipe v1-fw >"$TMP/v1.json"
	same_json "$TMP/v1.json" "$BATS_TEST_DIRNAME/../data/store-v1.json"
}

@test "faults: a store on a full file system is read: runs, show, db check, export elsewhere" {
	mount_tmpfs 300k
	local db="$MNT/store.db" c before
	"$SP" --db "$db" run pipe -p loops=10 -i 2 --name a -q
	before=$(sha256sum <"$db")
	fill_disk 0
	for c in runs "show a" "db check"; do
		# shellcheck disable=SC2086
		"$SP" --db "$db" $c >"$TMP/out" 2>"$TMP/err" ||
			{ echo "$c: $(cat "$TMP/err")"; return 1; }
	done
	"$SP" --db "$db" export a >"$TMP/a.json"
	[ "$(json "len(d['runs'][0]['benchmarks'][0]['metrics'][0]['samples'])" "$TMP/a.json")" -eq 2 ]
	[ "$(sha256sum <"$db")" = "$before" ]
	rm -f "$MNT/fill"
	integrity_ok "$db"
}

@test "faults: a read-only file system: writes exit 3 naming it, reads work" {
	mount_tmpfs 4m
	local db="$MNT/store.db" before
	"$SP" --db "$db" run pipe -p loops=10 -i 2 --name a -q
	"$SP" --db "$db" run pipe -p loops=10 -i 2 --name b -q
	"$SP" --db "$db" export a b -o "$TMP/rw.json"
	# a store whose -wal file still holds commits (copied while a
	# writer had it open): immutable reading would miss them
	cp "$db" "$MNT/src.db"
	/usr/bin/python3 - "$MNT/src.db" "$MNT/late.db" <<-'PY'
	import shutil, sqlite3, sys
	src, dst = sys.argv[1], sys.argv[2]
	c = sqlite3.connect(src)
	c.execute("PRAGMA wal_autocheckpoint = 0")
	c.execute("INSERT INTO runs (name) VALUES ('late')")
	c.commit()
	shutil.copy(src, dst)
	shutil.copy(src + "-wal", dst + "-wal")
	c.close()
	PY
	[ -s "$MNT/late.db-wal" ]
	rm -f "$MNT"/src.db*
	before=$(sqlite3 "$db" .dump | sha256sum)
	mount -o remount,ro "$MNT" || skip "cannot remount read-only"
	fault 3 --db "$db" run pipe -p loops=10 -i 2 --name b -q
	err_has "read-only file system"
	err_has "writable"
	fault 3 --db "$db" import "$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	err_has "read-only file system"
	fault 2 --db "$MNT/new.db" runs
	err_has "no store at"
	# Nobody can change it, so it is read without its -shm file.
	"$SP" --db "$db" export a b | cmp - "$TMP/rw.json"
	run "$SP" --db "$db" runs
	[ "$status" -eq 0 ]
	[[ "$output" == *b* ]]
	run "$SP" --db "$db" compare a b --format json
	[ "$status" -eq 0 ]
	"$SP" --db "$db" show a >/dev/null
	fault 3 --db "$MNT/late.db" runs
	err_has "read-only file system"
	[ ! -e "$MNT/store.db-shm" ]
	mount -o remount,rw "$MNT"
	integrity_ok "$db"
	[ "$(sqlite3 "$db" .dump | sha256sum)" = "$before" ]
}

@test "faults: a damaged store: every command fails with exit 3, naming the damage" {
	sp run pipe -p loops=10 -i 3 --name a -q
	sp run pipe -p loops=10 -i 3 --name b -q
	local good="$TMP/good.db" c
	cp "$SCHEDPERF_DB" "$good"
	# Overwrite the batches table's page with 0xff bytes: every command reads
	# it (a run's name alone is read from its index, never from its table)
	local page size
	page=$(sqlite3 "$SCHEDPERF_DB" "SELECT rootpage FROM sqlite_master WHERE name = 'batches'")
	size=$(sqlite3 "$SCHEDPERF_DB" "PRAGMA page_size")
	head -c "$size" /dev/zero | tr '\0' '\377' |
		dd of="$SCHEDPERF_DB" bs=1 seek=$(((page - 1) * size)) conv=notrunc 2>/dev/null
	for c in "runs" "show a" "export a" "compare a b" \
		 "run pipe -p loops=10 -i 1 --name a -q" \
		 "import $BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"; do
		# shellcheck disable=SC2086
		fault 3 $c || { echo "command: $c"; return 1; }
		err_has "malformed" || { echo "command: $c"; return 1; }
	done
	# A damaged header behind SQLite's magic string.
	cp "$good" "$SCHEDPERF_DB"
	head -c 84 /dev/zero | tr '\0' 'x' | dd of="$SCHEDPERF_DB" bs=1 seek=16 conv=notrunc \
		2>/dev/null
	fault 3 runs
	err_has "not a database"
	err_has "integrity_check"
	fault 3 run pipe -p loops=10 -i 1 --name a -q
	# Without the magic string, it is no SQLite file at all: not a store.
	head -c 16 /dev/zero | tr '\0' 'x' | dd of="$SCHEDPERF_DB" bs=1 conv=notrunc 2>/dev/null
	fault 2 runs
	err_has "not a schedperf store"
	fault 2 run pipe -p loops=10 -i 1 --name a -q
	# A file truncated in the middle.
	cp "$good" "$SCHEDPERF_DB"
	truncate -s 10000 "$SCHEDPERF_DB"
	fault 3 export a
}

@test "faults: a store locked by another writer: bounded wait, then exit 3" {
	sp run pipe -p loops=10 -i 2 --name a -q
	local before
	before=$(sqlite3 "$SCHEDPERF_DB" .dump | sha256sum)
	lock_store "INSERT INTO runs (name) VALUES ('locker');"
	export SCHEDPERF_BUSY_TIMEOUT_MS=300
	# The lock is held until unlock_store: ending with exit 3 before then
	# (fault's time limit would make it 124) is the bounded wait. (A run
	# waits on: the tests of gated_run below.)
	fault 3 import "$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	err_has "locked"
	err_has "write lock"
	# Readers are not blocked by a writer (WAL).
	run sp runs
	[ "$status" -eq 0 ]
	unlock_store
	integrity_ok "$SCHEDPERF_DB"
	[ "$(sqlite3 "$SCHEDPERF_DB" .dump | sha256sum)" = "$before" ]
}

# commit_waits_for_lock: a run, $runner, whose measured iteration's commit
# waits for the lock of lock_store past the busy timeout; $n iterations
# were stored before it. Three stored, the next held while another writer
# takes the lock, then let go.
commit_waits_for_lock() {
	SCHEDPERF_BUSY_TIMEOUT_MS=300 "$SP" run pipe -p loops=20000 -i 3000 --name long -q \
		2>"$TMP/err" 3>&- &
	runner=$!
	wait_for hold_iteration_after 3 "$runner"
	n=$(iterations_of "$SCHEDPERF_DB" long)
	lock_store
	release_iteration
	wait_for grep -q "waiting for the store's write lock" "$TMP/err"
}

@test "faults: a lock held across a run: the measured iteration waits for it, and is stored" {
	local runner n
	commit_waits_for_lock
	[ "$(iterations_of "$SCHEDPERF_DB" long)" -eq "$n" ]
	refute all_gone "$runner"
	unlock_store
	# the held iteration is stored, and the run goes on
	wait_for sh -c "[ \"\$(sqlite3 '$SCHEDPERF_DB' 'SELECT count(*) FROM iterations WHERE failure IS NULL')\" -ge $((n + 2)) ]"
	kill -INT "$runner"
	runner_ends 130
	# the wait said once; then only the interruption
	[ "$(wc -l <"$TMP/err")" -eq 2 ] || { cat "$TMP/err"; return 1; }
	grep -q "^schedperf: interrupted: " "$TMP/err"
	integrity_ok "$SCHEDPERF_DB"
	whole_iterations "$SCHEDPERF_DB"
}

@test "faults: Ctrl-C ends a commit that waits for the lock; the iterations before it stay" {
	local runner n
	commit_waits_for_lock
	kill -INT "$runner"
	runner_ends 130
	unlock_store
	grep -q "^schedperf: interrupted: $n completed iterations are kept" "$TMP/err" ||
		{ cat "$TMP/err"; return 1; }
	integrity_ok "$SCHEDPERF_DB"
	whole_iterations "$SCHEDPERF_DB"
	[ "$(iterations_of "$SCHEDPERF_DB" long)" -eq "$n" ]
}

count() {	# count TABLE [WHERE]
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM $1 ${2:+WHERE $2}"
}

# references_ok: no row of the store refers to one that is not there.
references_ok() {
	[ -z "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA foreign_key_check')" ]
}

@test "faults: a lock held across a run's begin, benchmark start, profile and end: each waits" {
	can_sample
	local runner
	sp db init >/dev/null
	lock_store
	# four benchmarks, each a measured iteration (K odd) and an extra one
	gated_run -p better=lower,higher -p shell=0,1 -i 1 --profile-iterations 1 \
		--no-monitors --name g
	wait_for noted "the batch it begins"
	[ "$(count batches)" -eq 0 ]
	unlock_store
	let_go 1 0
	# the extra iteration fails, keeping no profile: the next write starts benchmark 2
	wait_for arrived 2
	lock_store
	let_go 2 1
	wait_for noted "the benchmark it starts"
	[ "$(count benchmarks)" -eq 1 ]
	unlock_store
	let_go 3 0
	wait_for arrived 4
	lock_store
	let_go 4 0
	wait_for noted "the profile of the iteration just measured"
	[ "$(count profiles)" -eq 0 ]
	unlock_store
	let_go 5 0
	let_go 6 1
	let_go 7 0
	wait_for arrived 8
	lock_store
	let_go 8 1
	wait_for noted "the end of its batch"
	[ "$(count batches 'complete = 1')" -eq 0 ]
	refute all_gone "$runner"
	unlock_store
	runner_ends 0
	[ "$(grep -c "waiting for the store's write lock" "$TMP/err")" -eq 4 ]
	[ "$(count iterations 'failure IS NULL')" -eq 4 ]
	[ "$(count profiles)" -eq 1 ]
	[ "$(count batches 'complete = 1')" -eq 1 ]
	integrity_ok "$SCHEDPERF_DB"
	references_ok
	whole_iterations "$SCHEDPERF_DB"
}

@test "faults: Ctrl-C ends a run's begin that waits for the lock: exit 130, nothing stored" {
	local runner
	sp db init >/dev/null
	lock_store
	gated_run -i 1 --name g
	wait_for noted "the batch it begins"
	kill -INT "$runner"
	runner_ends 130
	unlock_store
	[ "$(wc -l <"$TMP/err")" -eq 2 ] || { cat "$TMP/err"; return 1; }
	grep -q "^schedperf: interrupted: nothing was stored$" "$TMP/err"
	[ "$(count runs)" -eq 0 ]
	[ "$(count batches)" -eq 0 ]
	integrity_ok "$SCHEDPERF_DB"
}

# in_lock_wait PID: PID has the store open and catches SIGINT, which a
# writing command does before its first write: a SIGINT now finds it in
# that write's wait for the lock, or before it.
in_lock_wait() {
	local mask

	mask=$(awk '/^SigCgt:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	[ -n "$mask" ] && (((0x$mask & 2) != 0)) &&
		ls -l "/proc/$1/fd" 2>/dev/null | grep -qF -- "$SCHEDPERF_DB"
}

# ctrl_c_in_wait MESSAGE ARGS...: schedperf ARGS waits for the lock of
# lock_store with a busy timeout no test outwaits; Ctrl-C ends it at once,
# exit 130 with the one line "interrupted: MESSAGE". (Were it to end only
# when the timeout is over, runner_ends would give up first.)
ctrl_c_in_wait() {
	local runner msg=$1
	shift
	SCHEDPERF_BUSY_TIMEOUT_MS=600000 "$SP" "$@" >"$TMP/out" 2>"$TMP/err" 3>&- 5>&- &
	runner=$!
	wait_for in_lock_wait "$runner"
	kill -INT "$runner"
	runner_ends 130
	[ "$(cat "$TMP/err")" = "schedperf: interrupted: $msg" ] || { cat "$TMP/err"; return 1; }
}

@test "faults: Ctrl-C ends a wait for the lock at once, not at the busy timeout" {
	sp run pipe -p loops=10 -i 1 --name a -q
	lock_store
	ctrl_c_in_wait "nothing was stored" run pipe -p loops=10 -i 1 --name g -q
	ctrl_c_in_wait "nothing was imported (an import is one transaction)" \
		import "$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	unlock_store
	run sp db check
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	integrity_ok "$SCHEDPERF_DB"
	whole_iterations "$SCHEDPERF_DB"
	[ "$(count runs)" -eq 1 ]
	[ "$(count batches)" -eq 1 ]
}

@test "faults: Ctrl-C ends a benchmark start that waits for the lock; --resume finishes the batch" {
	can_sample
	local runner
	gated_run -p better=lower,higher -i 1 --profile-iterations 1 --no-monitors --name g
	let_go 1 0
	wait_for arrived 2
	lock_store
	let_go 2 1
	wait_for noted "the benchmark it starts"
	kill -INT "$runner"
	runner_ends 130
	unlock_store
	grep -q "^schedperf: interrupted: 1 completed iterations are kept" "$TMP/err" ||
		{ cat "$TMP/err"; return 1; }
	[ "$(count benchmarks)" -eq 1 ]
	[ "$(count batches 'complete = 1')" -eq 0 ]
	integrity_ok "$SCHEDPERF_DB"
	references_ok
	# the batch goes on from benchmark 2
	let_go 3 0
	let_go 4 0
	sp run --resume --name g -q >/dev/null 2>&1 3>&-
	[ "$(count iterations 'failure IS NULL')" -eq 2 ]
	[ "$(count batches 'complete = 1')" -eq 1 ]
	integrity_ok "$SCHEDPERF_DB"
	references_ok
	whole_iterations "$SCHEDPERF_DB"
}

# The hint names the store, made absolute, and the run, quoted for a shell:
# one without --db finished the batch in ./schedperf.db, where it is not.
@test "faults: Ctrl-C's resume hint names the store, and works as printed from elsewhere" {
	local runner resume
	mkdir "$TMP/here" "$TMP/elsewhere"
	cd "$TMP/here"
	gated_run -i 2 --no-monitors --name "it's a b" --db rel.db
	wait_for arrived 1
	kill -INT "$runner"
	runner_ends 130
	resume="schedperf run --resume --name 'it'\\''s a b' --db $TMP/here/rel.db"
	[ "$(cat "$TMP/err")" = "schedperf: interrupted: 0 completed iterations are kept; batch 1 \
of run 'it's a b' is marked incomplete (finish it with: $resume)" ] ||
		{ cat "$TMP/err"; return 1; }
	let_go 2 0
	let_go 3 0
	cd "$TMP/elsewhere"
	eval "\"\$SP\" ${resume#schedperf } -q" 3>&-
	SCHEDPERF_DB="$TMP/here/rel.db"
	[ "$(count iterations 'failure IS NULL')" -eq 2 ]
	[ "$(count batches 'complete = 1')" -eq 1 ]
}

@test "faults: ab waits for a lock held at its begin, saying so, and measures once it is free" {
	local runner
	sp db init >/dev/null
	lock_store
	SCHEDPERF_BUSY_TIMEOUT_MS=300 "$SP" ab command -p cmd=true --a env:AB=a --b env:AB=b \
		--max-samples 7 --name t >"$TMP/out" 2>"$TMP/err" 3>&- 5>&- &
	runner=$!
	wait_for noted "the batches it begins"
	[ "$(count batches)" -eq 0 ]
	refute all_gone "$runner"
	unlock_store
	runner_ends 0
	[ "$(count batches 'complete = 1')" -eq 2 ]
	[ "$(count iterations 'failure IS NULL')" -eq 14 ]
	integrity_ok "$SCHEDPERF_DB"
	references_ok
}

@test "faults: process creation refused by a process limit: refused before it starts" {
	command -v setpriv >/dev/null && command -v prlimit >/dev/null ||
		skip "setpriv or prlimit missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	local dir
	dir=$(mktemp -d)
	chmod 1777 "$dir"
	# root ignores RLIMIT_NPROC: run as nobody, whose limit is then enforced.
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$SP" --db "$dir/store.db" run pipe -p loops=10 -i 1 --name ok -q ||
		{ rm -rf "$dir"; skip "cannot run as nobody here"; }
	local rc=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups prlimit --nproc=3:3 \
		"$SP" --db "$dir/store.db" run messaging -p groups=2 -p fds=4 -p loops=10 \
		-i 2 --name refused -q 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ] || { echo "exit $rc: $(cat "$TMP/err")"; rm -rf "$dir"; return 1; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	err_has "process limit"
	err_has "ulimit -u"
	integrity_ok "$dir/store.db"
	[ "$(iterations_of "$dir/store.db" refused)" -eq 0 ]
	[ "$(iterations_of "$dir/store.db" ok)" -eq 1 ]
	rm -rf "$dir"
}

@test "faults: process creation refused while running (cgroup pids.max): exit 3" {
	local root=
	if [ -w /sys/fs/cgroup/pids ]; then
		root=/sys/fs/cgroup/pids
	elif grep -qw pids /sys/fs/cgroup/cgroup.controllers 2>/dev/null &&
	     [ -w /sys/fs/cgroup ]; then
		root=/sys/fs/cgroup
	fi
	[ -n "$root" ] || skip "no writable cgroup pids controller"
	CGROUP="$root/schedperf-test-$$"
	mkdir "$CGROUP" 2>/dev/null || skip "cannot create a cgroup under $root"
	echo 6 >"$CGROUP/pids.max" || skip "cannot set pids.max"
	sp run pipe -p loops=10 -i 2 --name before -q
	local rc=0
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CGROUP" \
		"$SP" run messaging -p groups=1 -p fds=4 -p loops=10 -i 2 --name refused -q \
		>/dev/null 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ] || { echo "exit $rc: $(cat "$TMP/err")"; return 1; }
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	err_has "cannot fork"
	integrity_ok "$SCHEDPERF_DB"
	whole_iterations "$SCHEDPERF_DB"
	[ "$(iterations_of "$SCHEDPERF_DB" before)" -eq 2 ]
	# no iteration ran: no batch to resume is kept, and none is advised
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM runs WHERE name = 'refused'")" -eq 0 ]
	refute grep -q -- --resume "$TMP/err"
	# nor a store it made for that batch
	rc=0
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CGROUP" \
		"$SP" --db "$TMP/new.db" run messaging -p groups=1 -p fds=4 -p loops=10 -i 2 -q \
		>/dev/null 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ] || { echo "exit $rc: $(cat "$TMP/err")"; return 1; }
	err_has "cannot fork"
	[ ! -e "$TMP/new.db" ]
}

@test "faults: needs beyond the machine are refused before anything starts" {
	sp run pipe -p loops=10 -i 1 --name a -q
	local before
	before=$(sqlite3 "$SCHEDPERF_DB" .dump | sha256sum)
	# 20 million tasks.
	fault 3 run messaging -p groups=10000 -p fds=1000 -p loops=1
	err_has "kernel.threads-max"
	fault 3 run messaging -p groups=10000 -p fds=1000 -p mode=thread -p loops=1
	err_has "kernel.threads-max"
	# 8192 workers with 256 MiB of matrices each: 2 TiB.
	fault 3 run schbench -p message_threads=1 -p workers=8192 -p cache_kb=262144 -p runtime=1
	err_has "MiB of memory"
	err_has "MemAvailable"
	# One benchmark of a sweep beyond the machine refuses the whole plan.
	fault 3 run messaging -p groups=1,10000 -p fds=1000 -p loops=1
	[ "$(sqlite3 "$SCHEDPERF_DB" .dump | sha256sum)" = "$before" ]
	# Planning for another machine is still allowed.
	run sp run messaging -p groups=10000 -p fds=1000 --dry-run
	[ "$status" -eq 0 ]
}
