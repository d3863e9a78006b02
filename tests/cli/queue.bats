#!/usr/bin/env bats
# The job queue on PostgreSQL: submit, jobs, worker, cancel; workers killed
# with SIGKILL lose their jobs to the others, and every job is done once.

load helpers

# The outage tests stop or freeze a server of their own: each a copy of the
# one made here, its store's schema in, rather than an initdb and a db init
# of their own, which are most of their time on a loaded machine. The
# other tests share one database, emptied before each (empty_db), rather
# than each a database created and dropped: two calls of psql fewer a test.
setup_file() {
	pg_setup_file
	PGDB=$(pg_new_db)
	export PGDB
	OWN_TEMPLATE=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
	SCHEDPERF_DB=$("$BATS_TEST_DIRNAME/../pg-server.sh" start "$OWN_TEMPLATE") \
		"$SCHEDPERF" db init >/dev/null
	"$BATS_TEST_DIRNAME/../pg-server.sh" pause "$OWN_TEMPLATE"
	export OWN_TEMPLATE
}

teardown_file() {
	"$BATS_TEST_DIRNAME/../pg-server.sh" stop "$OWN_TEMPLATE"
	psql_in postgres "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" || true
	pg_teardown_file
}

# empty_db: $PGDB as a new database is, whatever the test before left in
# it: its connections ended (a process a failed test left), and its schema
# public made again as PostgreSQL makes it (the store's tables, their
# sequences and the grants on them go with the old one).
empty_db() {
	psql_in "$PGDB" "SET client_min_messages = warning;
		SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid();
		DROP SCHEMA public CASCADE;
		CREATE SCHEMA public AUTHORIZATION pg_database_owner;
		GRANT USAGE ON SCHEMA public TO PUBLIC;
		COMMENT ON SCHEMA public IS 'standard public schema'" >/dev/null
}

setup() {
	TMP=$(mktemp -d)
	SP="$SCHEDPERF"
	empty_db
	# the test's number in the URL, so that process_on_this_store finds no
	# process of another test's, whose store was the same database
	export SCHEDPERF_DB="$(pg_url "$PGDB")&application_name=queue-$BATS_TEST_NUMBER"
	workers=()
}

teardown() {
	for w in "${workers[@]}"; do kill -KILL "$w" 2>/dev/null || true; done
	own_pg_stop
	[ -z "${GROUP:-}" ] || rmdir "$GROUP" 2>/dev/null || true
	rm -rf "$TMP"
}

count() {	# count SQL: the number the query gives
	psql_in "$PGDB" "$1"
}

@test "queue: submit warns of a --machine that matches no machine the store has seen, and queues it" {
	local warn="schedperf: warning: submit: --machine 'lab9*' matches none of the machines $(
		)whose workers or batches this store has seen"
	local rest="until a worker of a machine it matches starts (check the pattern)"

	# * matches any machine, one yet to come too
	run sp submit pipe -p loops=10 -i 1 --no-monitors
	[ "$status" -eq 0 ]
	[ "$output" = 1 ]
	run sp submit --machine 'lab9*' pipe -p loops=10 -i 1 --no-monitors --repeat 2
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = 2 ]
	[ "${lines[1]}" = 3 ]
	[ "${lines[2]}" = "$warn (none yet): the jobs are queued, and wait $rest" ]
	# a batch's machine, and a worker's that claimed a job, are known
	sp run pipe -p loops=10 -i 1 --no-monitors --name here >/dev/null 2>&1
	count "UPDATE jobs SET worker = 'lab1' WHERE id = 1" >/dev/null
	for m in 'lab?' "$(hostname)" '*'; do
		run sp submit --machine "$m" pipe -p loops=10 -i 1 --no-monitors
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 1 ] || { echo "$m: $output"; false; }
	done
	run sp -q submit --machine 'lab9*' pipe -p loops=10 -i 1 --no-monitors
	[ "$status" -eq 0 ]
	[ "$output" = "$warn ($(printf '%s\n' lab1 "$(hostname)" | sort | paste -sd, |
		sed 's/,/, /')): the job is queued, and waits $rest" ]
	[ "$(count "SELECT count(*) FROM jobs WHERE machine = 'lab9*' AND state = 'queued'")" -eq 3 ]
}

@test "queue: submit checks the run, jobs lists, worker --once runs one" {
	run sp submit bogus
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"unknown workload 'bogus'"* ]]
	run sp submit --resume
	[ "$status" -eq 2 ]
	run sp submit --priority x pipe
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp submit pipe -p loops=10 -i 1 --no-monitors --name low --repeat 2
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '1\n2')" ]
	sp submit pipe -p loops=10 -i 1 --no-monitors --name high --priority 5 >/dev/null
	sp submit --machine 'no-such-host-*' pipe -i 1 --name never >/dev/null
	sp worker --once
	# the highest priority first
	[ "$(count "SELECT state FROM jobs WHERE id = 3")" = done ]
	[ "$(count "SELECT count(*) FROM jobs WHERE state = 'queued'")" -eq 3 ]
	sp jobs --format json > "$TMP/jobs.json"
	[ "$(json 'sorted(d[0].keys())[:8]' "$TMP/jobs.json")" = "['args', 'attempts', 'boot_deadline', 'command', 'id', 'kernel', 'machine', 'max_attempts']" ]
	[ "$(json '[j["max_attempts"] for j in d]' "$TMP/jobs.json")" = "[3, 3, 3, 3]" ]
	[ "$(json '[(j["id"], j["state"], j["attempts"], j["result_batch"] is not None) for j in d]' "$TMP/jobs.json")" = \
	  "[(1, 'queued', 0, False), (2, 'queued', 0, False), (3, 'done', 1, True), (4, 'queued', 0, False)]" ]
	[ "$(json 'd[2]["machine"]' "$TMP/jobs.json")" = "$(hostname)" ]
	sp worker --idle-exit 1 >/dev/null
	# the job for other machines stays queued
	[ "$(count "SELECT string_agg(state, ',' ORDER BY id) FROM jobs")" = "done,done,done,queued" ]
	run sp runs
	[[ "$output" == *"low "*" 2 "* ]]
	# no queue on SQLite
	run sp --db "$TMP/s.db" submit pipe -i 1
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"no job queue"* ]]
}

# jobs_lock WHICH: a lock on table jobs is held (WHICH "granted") or waited
# for ("NOT granted") in the test's database.
jobs_lock() {
	[ "$(count "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
		WHERE l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
		AND c.relname = 'jobs' AND $1")" -gt 0 ]
}

@test "queue: submit's check of a job has the store's password in no /proc/PID/environ" {
	local up holder submit child
	sp db init >/dev/null
	# trust authentication takes any password: the URL's is only carried
	up="postgresql://postgres:Hunter2Secret@/$PGDB?host=$SCHEDPERF_TEST_PGHOST$(
		)&application_name=queue-$BATS_TEST_NUMBER"
	# The check, ab's dry run, reads the queue for another job of its
	# --name: a lock the test holds on the jobs table keeps it waiting there.
	mkfifo "$TMP/sql"
	psql -qXAt -v ON_ERROR_STOP=1 "$(pg_url "$PGDB")" <"$TMP/sql" >/dev/null 3>&- &
	holder=$!
	exec 7>"$TMP/sql"
	echo "BEGIN; LOCK TABLE jobs IN ACCESS EXCLUSIVE MODE;" >&7
	wait_for jobs_lock granted
	SCHEDPERF_BUSY_TIMEOUT_MS=3600000 "$SP" --db "$up" submit ab pipe -p loops=10 \
		--a param:mode=process --b param:mode=thread --name pw >"$TMP/out" 2>&1 3>&- 7>&- &
	submit=$!
	wait_for jobs_lock "NOT granted"
	child=$(pgrep -P "$submit")
	tr '\0' '\n' <"/proc/$child/environ" >"$TMP/env"
	echo COMMIT >&7
	exec 7>&-
	wait "$holder"
	wait "$submit"
	cat "$TMP/env"
	# the dry run it was, waiting on the lock
	grep -qx SCHEDPERF_JOB_CHECK=1 "$TMP/env"
	refute grep -q Hunter2Secret "$TMP/env"
	# which store, without the password; the store itself came through a pipe
	grep -qxF "SCHEDPERF_DB=postgresql://postgres@/$PGDB?host=$SCHEDPERF_TEST_PGHOST$(
		)&application_name=queue-$BATS_TEST_NUMBER" "$TMP/env"
	grep -qx 'SCHEDPERF_JOB_DB_FD=[0-9]*' "$TMP/env"
	[ "$(cat "$TMP/out")" = 1 ]
	# and read it: a second job of that --name is refused by the check
	run sp --db "$up" submit ab pipe --a param:mode=process --b param:mode=thread --name pw
	[ "$status" -eq 2 ]
	[[ "$output" == *"job 1 (queued) stores its runs under that name already"* ]]
}

@test "queue: a job's workload program inherits none of the job's variables" {
	sp submit command -p shell=1 -p "cmd=env >'$TMP/job.env'" -i 1 --no-monitors \
		--name envless >/dev/null
	sp worker --once
	# the run read them: its batch is the job's
	[ "$(count "SELECT state FROM jobs")" = done ]
	[ "$(count "SELECT count(*) FROM batches WHERE job_id = 1 AND complete")" -eq 1 ]
	[ -s "$TMP/job.env" ]
	# with the job's claim, a program could store as the job
	refute grep -E '^SCHEDPERF_JOB(_PATIENCE|_DB_FD)?=' "$TMP/job.env"
}

@test "queue: a job its run completed while its lease was renewed is done; its run has a lease to exit" {
	# The run completes the job with its last results, then prints and
	# exits; a renewal in between finds the job done, not taken away.
	cat > "$TMP/linger.c" <<'EOF'
#include <stdlib.h>
#include <unistd.h>
static pid_t self;
static void linger(void)
{
	while (getpid() == self && getenv("LINGER_FOREVER"))
		pause();	/* a run that hangs after its last commit */
	if (getpid() == self)
		usleep(1000000);	/* a renewal or more, well within its lease */
}
__attribute__((constructor)) static void start(void)
{
	self = getpid();
	if (getenv("SCHEDPERF_JOB"))	/* the job's run, not the worker */
		atexit(linger);
}
EOF
	cc -shared -fPIC -o "$TMP/linger.so" "$TMP/linger.c"
	sp submit pipe -p loops=10 -i 1 --no-monitors >/dev/null
	run env LD_PRELOAD="$TMP/linger.so" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$SP" worker --once --lease 2
	[ "$status" -eq 0 ]
	[[ "$output" != *"no longer this worker's"* ]]
	[[ "$output" == *"job 1: done"* ]]
	[ "$(count "SELECT state || ' ' || (result_batch IS NOT NULL) FROM jobs")" = "done true" ]
	# one that never exits is stopped a lease later, and killed: the worker goes on
	sp submit pipe -p loops=10 -i 1 --no-monitors >/dev/null
	run env LD_PRELOAD="$TMP/linger.so" LINGER_FOREVER=1 \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		timeout 60 "$SP" worker --once --lease 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"job 2: its run completed it but had not exited 2 s later: it is stopped"* ]]
	[[ "$output" == *"job 2: done"* ]]
	[ "$(count "SELECT string_agg(state, ',' ORDER BY id) FROM jobs")" = "done,done" ]
}

@test "queue: a failed run fails its job with the reason; cancel" {
	printf -- '- workload: pipe\n  params: {loops: 10}\n  iterations: 1\n' > "$TMP/suite.yaml"
	sp submit --suite "$TMP/suite.yaml" --no-monitors --name gone >/dev/null
	rm "$TMP/suite.yaml"	# the worker cannot read it: the run fails
	sp submit pipe -p loops=10 -i 1 --no-monitors --name c >/dev/null
	sp cancel 2
	[ "$(count "SELECT state FROM jobs WHERE id = 2")" = cancelled ]
	run sp cancel 2
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp cancel 9999
	[ "$status" -eq 2 ]
	run sp cancel nope
	[ "$status" -eq 2 ]
	run sp worker --idle-exit 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"job 1 failed: "*"suite.yaml"* ]]
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = failed ]
	[[ "$(count "SELECT reason FROM jobs WHERE id = 1")" == *"suite.yaml"* ]]
	# a cancelled job never ran, a failed one left no batch in sight
	[ "$(count "SELECT state FROM jobs WHERE id = 2")" = cancelled ]
	run sp runs --format json
	[ "$output" = "[]" ]
}

@test "queue: a run job none of whose iterations succeeded fails, with the last failure's reason" {
	sp submit command -p cmd=false -i 2 --no-monitors --name nothing >/dev/null
	sp submit command -p cmd=true -i 1 --no-monitors --name something >/dev/null
	run sp worker --once
	[[ "$output" == *"job 1 failed: run 'nothing': no iteration succeeded"* ]]
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = failed ]
	[[ "$(count "SELECT reason FROM jobs WHERE id = 1")" == *"no iteration succeeded, so $(
		)nothing was measured, and the job's batch is not stored; the last failed: "* ]]
	# a job's batches are stored whole or not at all: no empty batch in sight, nor its run
	[ "$(count "SELECT count(*) FROM batches WHERE complete")" -eq 0 ]
	run sp runs --format json
	[ "$output" = "[]" ]
	run sp show nothing
	[ "$status" -eq 2 ]
	# nor does the batch hold the name: a job may take it again
	sp submit command -p cmd=true -i 1 --no-monitors --name nothing >/dev/null
	# a job with a success is done; so is one without --name, its kernel's run not joined
	sp submit command -p cmd=false -i 1 --no-monitors >/dev/null
	sp worker --once >/dev/null
	[ "$(count "SELECT state FROM jobs WHERE id = 2")" = done ]
	sp worker --once >/dev/null
	run sp worker --once
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id > 2 ORDER BY id")" = \
	  "$(printf 'done 1\nfailed 1')" ]
	sp runs --format json >"$TMP/runs.json"
	[ "$(json '[(r["name"], len(r["batches"])) for r in d]' "$TMP/runs.json")" = \
	  "[('something', 1), ('nothing', 1)]" ] || { cat "$TMP/runs.json"; false; }
}

iterations_stored() {	# iterations_stored N: at least N iterations are committed
	[ "$(count "SELECT count(*) FROM iterations")" -ge "$1" ]
}

@test "queue: cancelling a running job stops its run; its batch is never seen" {
	# its second iteration (mid_cmd) waits for $TMP/go, which never comes:
	# only the worker stopping the run ends it
	sp submit command -p shell=1 -p "cmd=$(mid_cmd)" -i 3 --no-monitors --name long >/dev/null
	"$SP" worker --once --lease 3 >"$TMP/out" 2>"$TMP/err" &
	workers+=($!)
	# wait for its first iteration, then cancel
	wait_for iterations_stored 1
	wait_for second_iteration_waits
	sp cancel 1
	wait_for all_gone "${workers[0]}"
	wait "${workers[0]}" || true
	grep -q "job 1: no longer this worker's" "$TMP/err"
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = cancelled ]
	[ "$(count "SELECT count(*) FROM batches WHERE complete")" -eq 0 ]
	run sp runs --format json
	[ "$output" = "[]" ]
}

# Wait (no timer) until $1 jobs are done, or no worker is left.
wait_done() {
	until [ "$(count "SELECT count(*) FROM jobs WHERE state = 'done'")" -ge "$1" ]; do
		kill -0 "${workers[@]}" 2>/dev/null || return 0
		sleep 0.1
	done
}

@test "queue: 4 workers, 30 jobs, 2 workers killed with SIGKILL: every job done once" {
	local rc2=0 rc3=0

	# a live worker whose renewal comes late on a loaded machine loses its
	# lease too: the cap on claims is not what this test is about
	sp submit pipe -p loops=10 -i 1 --no-monitors --name fleet --repeat 30 \
		--max-attempts 1000 >/dev/null
	# --idle-exit only ends the test if jobs are never done: the two workers
	# left are stopped once all are, not waited out idle. Each is a machine
	# of its own, with its own /run: one machine runs one worker.
	for i in 1 2 3 4; do
		mkdir "$TMP/run.$i"
		SCHEDPERF_TEST_RUNDIR="$TMP/run.$i" "$SP" worker --lease 2 --idle-exit 60 \
			>/dev/null 2>"$TMP/err.$i" &
		workers+=($!)
	done
	wait_done $((2 + RANDOM % 9))
	kill -KILL "${workers[0]}"
	wait_done $((13 + RANDOM % 9))
	kill -KILL "${workers[1]}"
	wait_done 30
	kill -TERM "${workers[2]}" "${workers[3]}"
	wait "${workers[2]}" || rc2=$?
	wait "${workers[3]}" || rc3=$?
	# stopped by the signal, not ended by an error
	[ "$rc2 $rc3" = "143 143" ] || { tail -n 5 "$TMP"/err.*; false; }
	[ "$(count "SELECT count(*) FROM jobs WHERE state = 'done'")" -eq 30 ] || {
		count "SELECT id, state, attempts, reason FROM jobs WHERE state <> 'done'"
		tail -n 5 "$TMP"/err.*
		return 1
	}
	# each job has its own complete batch, linked both ways; nothing twice
	[ "$(count "SELECT count(DISTINCT result_batch) FROM jobs")" -eq 30 ]
	[ "$(count "SELECT count(*) FROM batches WHERE complete")" -eq 30 ]
	[ "$(count "SELECT count(*) FROM jobs j JOIN batches b ON b.id = j.result_batch
		WHERE b.complete AND b.job_id = j.id")" -eq 30 ]
	# every complete batch whole: one benchmark, one iteration with its samples
	[ "$(count "SELECT count(*) FROM batches b JOIN benchmarks k ON k.batch_id = b.id
		JOIN iterations i ON i.benchmark_id = k.id WHERE b.complete
		AND EXISTS (SELECT 1 FROM samples s WHERE s.iteration_id = i.id)")" -eq 30 ]
	# readers see exactly those
	sp runs --format json > "$TMP/runs.json"
	[ "$(json 'sum(len(r["batches"]) for r in d)' "$TMP/runs.json")" -eq 30 ]
	[ "$(json 'all(b["complete"] for r in d for b in r["batches"])' "$TMP/runs.json")" = True ]
	# the runs of the killed workers die with them: SIGKILL takes effect
	# asynchronously, so wait for their end rather than look once
	wait_for no_fleet_run
}

# idle_worker: a worker that waits for jobs, its pid in $w once it holds
# the machine's lock ($lock)
idle_worker() {
	"$SP" worker --idle-exit 60 >/dev/null 2>"$TMP/err" &
	w=$!
	workers+=($w)
	wait_for grep -qx "$w" "$lock"
}

@test "queue: a second worker on a machine is refused at once, naming the first; SIGKILL frees the machine" {
	local lock=$SCHEDPERF_TEST_RUNDIR/schedperf-worker.lock w

	idle_worker
	run sp worker --once
	[ "$status" -eq 3 ]
	assert_one_line_error
	[ "$output" = "schedperf: worker: another worker (pid $w) runs on this machine and $(
		)holds $lock: two would measure at once and skew each other's jobs (stop that $(
		)one first, or leave this machine's jobs to it)" ]
	# (the first one idles: a job queued now could be its)
	kill -KILL "$w"
	wait "$w" || true
	sp submit pipe -p loops=10 -i 1 --no-monitors >/dev/null
	sp worker --once >/dev/null
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 1" ]
}

@test "queue: a worker started while a run by hand looks at its lock waits the look out" {
	local lock=$SCHEDPERF_TEST_RUNDIR/schedperf-worker.lock

	command -v strace >/dev/null || skip "no strace"
	sp submit pipe -p loops=10 -i 1 --no-monitors >/dev/null
	# a run's look holds the lock shared for a moment (here until the
	# worker found it held, as strace shows): no worker's, which is held
	# exclusively; refused, the worker said so
	: >"$lock"
	# (a failed test's teardown removes $TMP: the holder ends then too)
	flock -s -o "$lock" sh -c "touch '$TMP/held'
		while [ -e '$TMP/held' ] && [ ! -e '$TMP/tried' ]; do sleep 0.05; done" 3>&- &
	holder=$!
	wait_for test -e "$TMP/held"
	# (LeakSanitizer cannot run under ptrace)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -o "$TMP/strace" -P "$lock" -e trace=flock \
		"$SP" worker --once >/dev/null 3>&- &
	worker=$!
	wait_for grep -qE 'LOCK_EX\|LOCK_NB\) += -1 EAGAIN' "$TMP/strace"
	touch "$TMP/tried"
	# their pids: a bare wait waits for bats' own BATS_TEST_TIMEOUT watchdog too
	wait "$holder"
	wait "$worker"
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = done ]
}

# beside_worker FILE: the warning FILE holds, one per line, of a run by hand beside a worker
beside_worker() {
	grep -c 'warning: a worker.* runs jobs on this machine' "$1" || true
}

@test "queue: a run by hand beside a worker warns once that they disturb each other, and runs" {
	local lock=$SCHEDPERF_TEST_RUNDIR/schedperf-worker.lock w

	idle_worker
	sp run pipe -p loops=10 -i 2 --no-monitors --name beside >/dev/null 2>"$TMP/run.err"
	[ "$(beside_worker "$TMP/run.err")" -eq 1 ]
	grep -qxF "schedperf: warning: a worker (pid $w) runs jobs on this machine (it holds $(
		)$lock): its jobs and this measurement disturb each other (stop the worker $(
		)first, or submit this as a job)" "$TMP/run.err"
	[ "$(count "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id
		WHERE r.name = 'beside' AND b.complete")" -eq 1 ]
	# -q keeps warnings; a dry run measures nothing and says nothing of it
	sp -q ab command -p cmd=true --max-samples 7 --a env:AB=a --b env:AB=b \
		>/dev/null 2>"$TMP/ab.err"
	[ "$(beside_worker "$TMP/ab.err")" -eq 1 ]
	sp run pipe -i 1 --dry-run >/dev/null 2>"$TMP/dry.err"
	[ "$(beside_worker "$TMP/dry.err")" -eq 0 ]
	# a job's run, its variables as its worker sets them, is the worker's: not told
	run env SCHEDPERF_JOB=999:x "$SP" -q run pipe -i 1 --no-monitors
	[ "$status" -ne 0 ]
	[[ "$output" != *"warning: a worker"* ]]
	[[ "$output" == *999* ]]
	kill -TERM "$w"
	wait "$w" || true
	# its lock's file stays, held by no one: nothing to say
	[ -e "$lock" ]
	sp run pipe -p loops=10 -i 1 --no-monitors --name beside >/dev/null 2>"$TMP/run.err"
	[ "$(beside_worker "$TMP/run.err")" -eq 0 ]
	[ "$(count "SELECT count(*) FROM batches WHERE complete")" -eq 4 ]
}

no_fleet_run() {
	! process_on_this_store "schedperf -q run pipe -p loops=10 -i 1 --no-monitors --name fleet"
}

batch_iterations() {	# batch_iterations BATCH: iterations committed to BATCH
	count "SELECT count(*) FROM iterations i JOIN benchmarks k ON k.id = i.benchmark_id
		WHERE k.batch_id = $1"
}

# hold_iteration_in_job RUNNER: hold_iteration (helpers.bash) once RUNNER
# has committed an iteration; sets before to the iterations committed. A
# held run waits for its iteration outside any transaction: it commits
# nothing more until released.
hold_iteration_in_job() {
	hold_iteration "$1" || return 1
	before=$(count "SELECT count(*) FROM iterations")
	[ "$before" -ge 1 ] && return 0
	release_iteration
	return 1
}

# The killed worker's run and all its processes have ended, or the run has
# committed another iteration.
run_ended_or_went_on() {
	all_gone "${procs[@]}" || [ "$(batch_iterations "$batch")" -gt "$before" ]
}

lease_over() {
	[ "$(count "SELECT count(*) FROM jobs WHERE id = 1 AND lease_until < now()")" -eq 1 ]
}

# mid_cmd: the command of the job a worker is killed in: iteration N
# writes N to $TMP/n; the second then waits until $TMP/go exists.
mid_cmd() {
	printf 'n=$(($(cat %s/n 2>/dev/null || echo 0) + 1)); echo $n >%s/n; ' "$TMP" "$TMP"
	printf '[ $n -ne 2 ] || until [ -e %s/go ]; do sleep 0.01; done' "$TMP"
}

# gate_cmd: the command of a job whose iterations each wait until $TMP/go exists.
gate_cmd() {
	printf 'until [ -e %s/go ]; do sleep 0.01; done' "$TMP"
}

second_iteration_waits() {
	[ "$(cat "$TMP/n" 2>/dev/null)" = 2 ]
}

@test "queue: a worker killed mid-job takes its run along; the partial batch is never finished" {
	# each iteration counts itself in $TMP/n; the second waits for $TMP/go, so
	# that the run is mid-job, past a committed iteration, until the test
	# lets it go however loaded the machine (a run of quick iterations could
	# end before the test looked)
	sp submit command -p shell=1 -p "cmd=$(mid_cmd)" -i 8 --no-monitors --name mid >/dev/null
	# (a short lease: the test waits it out; no other worker contends for the
	# job, so a renewal that comes late under load keeps it all the same)
	"$SP" worker --once --lease 2 >/dev/null 2>"$TMP/err" &
	local w=$! runner
	workers+=($w)
	wait_for pgrep -P "$w" >/dev/null
	runner=$(pgrep -P "$w")
	wait_for second_iteration_waits
	hold_iteration_in_job "$runner"
	[ "$before" -eq 1 ]
	batch=$(count "SELECT id FROM batches WHERE job_id = 1")
	[ "$(batch_iterations "$batch")" -eq "$before" ]
	# the run, its iteration's guardian and the workload's processes
	procs=("$runner" $(descendants "$runner"))
	[ "${#procs[@]}" -ge 3 ]
	kill -KILL "$w"
	wait "$w" || true
	# an orphaned run would go on from here
	touch "$TMP/go"
	release_iteration
	wait_for run_ended_or_went_on
	all_gone "${procs[@]}"
	refute process_on_this_store "schedperf -q run command -p shell=1"
	[ "$(batch_iterations "$batch")" -eq "$before" ]
	[ "$(count "SELECT complete FROM batches WHERE id = $batch")" = f ]
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = running ]
	run sp runs --format json
	[ "$output" = "[]" ]
	# once its lease has run out (on the server's clock), jobs says so, and
	# another worker runs it again
	wait_for lease_over
	run sp jobs
	[[ "${lines[1]}" == "1      running "*"  lease over: its worker was lost" ]]
	sp jobs --format json >"$TMP/jobs.json"
	[ "$(json '[j["state"] for j in d]' "$TMP/jobs.json")" = "['running']" ]
	sp worker --once >/dev/null
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 2" ]
	[ "$(count "SELECT result_batch <> $batch FROM jobs WHERE id = 1")" = t ]
	# the partial batch went when the job was claimed again; only the new one is seen
	[ "$(count "SELECT count(*) FROM batches WHERE id = $batch")" -eq 0 ]
	[ "$(count "SELECT count(*) FROM batches WHERE complete")" -eq 1 ]
	sp runs --format json > "$TMP/runs.json"
	[ "$(json '[(r["name"], len(r["batches"])) for r in d]' "$TMP/runs.json")" = "[('mid', 1)]" ]
	[ "$(batch_iterations "$(count "SELECT result_batch FROM jobs WHERE id = 1")")" -eq 8 ]
}

@test "queue: a worker stopped by SIGTERM gives its job back at once, the attempt not counted" {
	# its iterations wait for $TMP/go: the signal finds the run under way,
	# however loaded the machine
	sp submit command -p shell=1 -p "cmd=$(gate_cmd)" -i 6 --no-monitors --name s \
		--max-attempts 1 >/dev/null
	"$SP" worker --once --lease 60 >/dev/null 2>"$TMP/err" 3>&- &
	local w=$! rc=0
	workers+=($w)
	# its run has begun its batch
	wait_for sh -c "[ \"\$(psql -qXAt '$SCHEDPERF_DB' -c 'SELECT count(*) FROM batches WHERE job_id = 1')\" -eq 1 ]"
	batch=$(count "SELECT id FROM batches WHERE job_id = 1")
	kill -TERM "$w"
	wait "$w" || rc=$?
	[ "$rc" -eq 143 ]
	grep -q "job 1: the worker was stopped by signal 15; the job is queued again" "$TMP/err"
	# queued now, not when its lease of 60 s is over, and its one attempt left
	[ "$(count "SELECT state || ' ' || attempts || ' ' || coalesce(worker, '-') ||
		' ' || coalesce(claim, '-') FROM jobs WHERE id = 1")" = "queued 0 - -" ]
	run sp jobs
	[[ "${lines[1]}" == "1      queued "*" 0/1 "* ]]
	# the next worker runs it from its start; the stopped run's batch goes then
	touch "$TMP/go"
	sp worker --once >/dev/null
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 1" ]
	[ "$(count "SELECT count(*) FROM batches WHERE id = $batch")" -eq 0 ]
	[ "$(batch_iterations "$(count "SELECT result_batch FROM jobs WHERE id = 1")")" -eq 6 ]
}

# Start a worker on the job queue; wait (no timer) until it has claimed
# job 1 for the $1-th time and its run has begun, then kill it with SIGKILL.
claim_and_kill() {
	"$SP" worker --once --lease 1 >/dev/null 2>"$TMP/err" &
	local w=$!
	workers+=($w)
	until [ "$(count "SELECT count(*) FROM jobs j JOIN batches b ON b.job_id = j.id AND
		b.job_claim = j.claim WHERE j.id = 1 AND j.state = 'running' AND j.attempts = $1")" -eq 1 ]; do
		kill -0 "$w" 2>/dev/null || { echo "worker ended: $(cat "$TMP/err")"; return 1; }
		sleep 0.05
	done
	kill -KILL "$w"
	wait "$w" || true
	# its lease runs out (on the server's clock)
	until [ "$(count "SELECT count(*) FROM jobs WHERE id = 1 AND lease_until < now()")" -eq 1 ]; do
		sleep 0.05
	done
}

@test "queue: a job whose worker keeps dying fails after --max-attempts claims" {
	run sp submit pipe -i 1 --max-attempts 0
	[ "$status" -eq 2 ]
	assert_one_line_error
	sp submit pipe -p loops=100000000 -i 1 --no-monitors --name killer --max-attempts 2 >/dev/null
	sp submit pipe -p loops=10 -i 1 --no-monitors --name fine >/dev/null
	claim_and_kill 1
	claim_and_kill 2
	# the next claim fails job 1 with the reason, and takes job 2
	sp worker --once >/dev/null
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = failed ]
	[ "$(count "SELECT attempts FROM jobs WHERE id = 1")" -eq 2 ]
	[[ "$(count "SELECT reason FROM jobs WHERE id = 1")" == "given up after 2 attempts: "*"worker running it was lost"*"--max-attempts"* ]]
	[ "$(count "SELECT state FROM jobs WHERE id = 2")" = done ]
	run sp jobs
	[[ "${lines[1]}" == *" failed "*" 2/2 "*"given up after 2 attempts"* ]]
	sp jobs --format json > "$TMP/jobs.json"
	[ "$(json '[(j["state"], j["attempts"], j["max_attempts"]) for j in d]' "$TMP/jobs.json")" = \
	  "[('failed', 2, 2), ('done', 1, 3)]" ]
	# nothing of its lost runs is seen
	run sp runs --format json
	[ "$(json '[r["name"] for r in d]' <(echo "$output"))" = "['fine']" ]
}

# Start a worker; once it has claimed job 1 for the $1-th time and its run
# has begun, kill the run alone with SIGKILL, as the OOM killer does.
kill_run() {
	"$SP" worker --once --lease 60 >/dev/null 2>"$TMP/err" 3>&- &
	local w=$!
	workers+=($w)
	wait_for sh -c "[ \"\$(psql -qXAt '$SCHEDPERF_DB' -c \"SELECT count(*) FROM jobs j
		JOIN batches b ON b.job_id = j.id AND b.job_claim = j.claim WHERE j.id = 1 AND
		j.state = 'running' AND j.attempts = $1\")\" -eq 1 ]"
	kill -KILL "$(pgrep -P "$w")"
	wait_for all_gone "$w"
}

@test "queue: a run killed by a signal (the OOM killer) is run again, as a lost worker's job" {
	sp submit command -p 'cmd=sleep 600' -i 1 --no-monitors --name ck --max-attempts 2 \
		>/dev/null
	kill_run 1
	grep -q "job 1: its run was killed by SIGKILL (by the OOM killer, say); the job is $(
		)queued again (1 of its 2 attempts used)" "$TMP/err"
	[ "$(count "SELECT state || ' ' || attempts || ' ' || coalesce(worker, '-') || ' ' ||
		coalesce(reason, '-') FROM jobs WHERE id = 1")" = "queued 1 - -" ]
	# killed again at its last attempt, it is given up
	kill_run 2
	grep -q "job 1 failed: its run was killed by SIGKILL (by the OOM killer, say), and that $(
		)was its last attempt (2 of 2)" "$TMP/err"
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "failed 2" ]
	[ "$(count "SELECT reason FROM jobs WHERE id = 1")" = "given up after 2 attempts: its $(
		)run was killed by SIGKILL (by the OOM killer, say) (find what kills it, or submit $(
		)it again with a larger --max-attempts)" ]
	run sp runs --format json
	[ "$output" = "[]" ]
}

@test "queue: a run interrupted by a signal not its worker's is run again; no one resumes its batch" {
	sp submit command -p shell=1 -p "cmd=$(gate_cmd)" -i 4 --no-monitors --name childterm \
		>/dev/null
	"$SP" worker --once --lease 60 >/dev/null 2>"$TMP/err" 3>&- &
	local w=$! rc=0
	workers+=($w)
	wait_for sh -c "[ \"\$(psql -qXAt '$SCHEDPERF_DB' -c 'SELECT count(*) FROM batches WHERE job_id = 1')\" -eq 1 ]"
	# SIGTERM to the run alone, as a user's kill does: it stops as at Ctrl-C
	kill -TERM "$(pgrep -P "$w")"
	wait_for all_gone "$w"
	wait "$w" || rc=$?
	[ "$rc" -eq 0 ]
	grep -q "job 1: its run was interrupted by SIGTERM; the job is queued again (1 of its 3 $(
		)attempts used)" "$TMP/err"
	refute grep -q -- "--resume" "$TMP/err"
	[ "$(count "SELECT state || ' ' || attempts || ' ' || coalesce(reason, '-') FROM jobs
		WHERE id = 1")" = "queued 1 -" ]
	# its batch is the job's: refused, once, with why, not a command that fails again
	run sp run --resume --name childterm
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: run 'childterm': its incomplete batch is job 1's, and a $(
		)job's batch is resumed by no one: a worker runs the job again from its start"* ]]
	touch "$TMP/go"
	sp worker --once >/dev/null
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 2" ]
	[ "$(batch_iterations "$(count "SELECT result_batch FROM jobs WHERE id = 1")")" -eq 4 ]
}

@test "queue: ab and bisect-step jobs are checked at submit, run, and keep their verdicts" {
	run sp submit ab pipe --a param:mode=thread
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"give both sides"* ]]
	run sp submit bisect-step pipe --good nosuch
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp submit ab --restore
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp submit ab
	[ "$status" -eq 2 ]
	assert_one_line_error
	# an option the user typed to submit is not said to be run's alone
	run sp submit --deadline 10 pipe
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: submit: option '--deadline' is neither submit's nor run's, $(
		)or lacks its value (see 'schedperf submit --help' and 'schedperf run --help')" ]]
	run sp submit ab pipe -Z --a param:mode=thread --b param:mode=process
	[ "$status" -eq 2 ]
	[[ "$output" == "schedperf: submit: option '-Z' is neither submit's nor ab's, "* ]]
	# b sleeps five times as long as a: worse on any machine, and the exit
	# status of --fail-on-regression (1) is the verdict's, not a failure
	sp submit ab command --a 'cmd:sleep 0.01' --b 'cmd:sleep 0.05' --seed 7 \
		--fail-on-regression >/dev/null
	# a good run a hundred times faster than the same command can be: bad (exit 1)
	sp run command -p 'cmd=sleep 0.01' -i 10 --no-monitors --name slow >/dev/null
	sp export slow > "$TMP/slow.json"
	"$PYTHON" - "$TMP/slow.json" "$TMP/fast.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["runs"]:
    r["name"] = "fast"
    for b in r["benchmarks"]:
        for m in b["metrics"]:
            # one value, so that no load makes the margin undecidable
            m["samples"] = [sorted(m["samples"])[len(m["samples"]) // 2] / 100] * len(m["samples"])
json.dump(d, open(sys.argv[2], "w"))
PY
	sp import "$TMP/fast.json" >/dev/null
	# the check reads the runs of the store given by --db, not $SCHEDPERF_DB's
	SCHEDPERF_DB="$TMP/elsewhere.db" sp --db "$SCHEDPERF_DB" submit bisect-step command \
		-p 'cmd=sleep 0.01' --good fast >/dev/null
	[ ! -e "$TMP/elsewhere.db" ]
	run sp worker --idle-exit 1
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'job 1: done\njob 2: done')" ]
	[ "$(count "SELECT string_agg(command || ' ' || state || ' ' || attempts, ',' ORDER BY id)
		FROM jobs")" = "ab done 1,bisect-step done 1" ]
	sp jobs --format json > "$TMP/jobs.json"
	[ "$(json '[j["command"] for j in d]' "$TMP/jobs.json")" = "['ab', 'bisect-step']" ]
	[ "$(json '(d[0]["result"]["verdict"], d[0]["result"]["direction"], d[0]["result"]["runs"])' \
		"$TMP/jobs.json")" = "('different', 'worse', ['ab-job-1-a', 'ab-job-1-b'])" ]
	[ "$(json '(d[1]["result"]["verdict"], d[1]["result"]["run"], d[1]["result"]["good"])' \
		"$TMP/jobs.json")" = "('bad', 'bisect-job-2', 'fast')" ]
	# both sides of the ab are the job's, complete; the job names the first
	[ "$(count "SELECT count(*) FROM batches WHERE job_id = 1 AND complete")" -eq 2 ]
	[ "$(count "SELECT count(*) FROM jobs j JOIN batches b ON b.id = j.result_batch
		JOIN runs r ON r.id = b.run_id WHERE j.id = 1 AND r.name = 'ab-job-1-a'")" -eq 1 ]
	run sp jobs
	[[ "${lines[1]}" == *" done "*" ab "*"verdict: different (b worse) "* ]]
	[[ "${lines[2]}" == *" done "*" bisect-step "*"verdict: bad "* ]]
	sp runs --format json > "$TMP/runs.json"
	[ "$(json 'sorted((r["name"], len(r["batches"])) for r in d)' "$TMP/runs.json")" = \
	  "[('ab-job-1-a', 1), ('ab-job-1-b', 1), ('bisect-job-2', 1), ('fast', 1), ('slow', 1)]" ]
}

# N jobs of one bisect-step --name would pool their samples in one run.
@test "queue: a bisect-step job's --name with --repeat N > 1 is refused" {
	run sp submit --repeat 2 bisect-step command -p cmd=true --good good --name same
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"bisect-step: --name same with --repeat 2: the jobs would pool their samples in one run"* ]]
	# nothing queued: the store is not even made
	[ "$(count "SELECT count(*) FROM pg_tables WHERE tablename = 'jobs'")" -eq 0 ]
	# nor with two submits: the second is refused while the first waits
	c=(-p 'cmd=echo v 5' -p 'metric_regex=v ([0-9]+)')
	sp run command "${c[@]}" -i 8 --name good --quiet
	sp submit bisect-step command "${c[@]}" --good good --name same >/dev/null
	run sp submit bisect-step command "${c[@]}" --good good --knob env:X=1 --name=same
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"bisect-step: --name same: job 1 (queued) stores its runs under that name already"* ]]
	sp submit bisect-step command "${c[@]}" --good good --name other >/dev/null
	# a job's own name is refused even when that job has another
	run sp submit bisect-step command "${c[@]}" --good good --name bisect-job-1
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ "$(count "SELECT count(*) FROM jobs")" -eq 2 ]
}

@test "queue: a job's --machine with a [...] set, which the queue takes literally, is refused" {
	for p in 'lab[12]' 'lab[' 'x]'; do
		run sp submit --machine "$p" pipe -i 1
		[ "$status" -eq 2 ]
		assert_one_line_error
		want="--machine '$p': a job's pattern matches workers' host names with * and ?"
		[[ "$output" == *"$want only"* ]]
		run sp bisect pipe --good a --bad b --kernel-tree "$TMP" --machine "$p" --build true
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"bisect: --machine '$p': a job's pattern"* ]]
	done
	[ "$(count "SELECT count(*) FROM pg_tables WHERE tablename = 'jobs'")" -eq 0 ]
	# runs and compare keep their sets
	run sp --db "$TMP/s.db" runs --machine 'lab[12]'
	[[ "$output" != *"a job's pattern"* ]]
	sp submit --machine 'lab?' pipe -i 1 >/dev/null
}

@test "queue: the run names of jobs that have no --name are refused to others, at submit and run" {
	# a run job taking the name of the next ab job's run made that job fail
	for n in ab-job-2-a ab-job-2-b bisect-job-2; do
		run sp submit pipe -i 1 --name $n
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"run name '$n' is kept for the runs of "*" job 2, which has no --name"* ]]
		run sp run pipe -i 1 --name $n
		[ "$status" -eq 2 ]
	done
	run sp submit ab pipe --a param:mode=process --b param:mode=thread --name ab-job-2
	[ "$status" -eq 2 ]
	[[ "$output" == *"ab: run name 'ab-job-2-a' is kept for the runs of ab job 2"* ]]
	run sp submit bisect-step pipe --good g --name bisect-job-7
	[ "$status" -eq 2 ]
	want="bisect-step: run name 'bisect-job-7' is kept for the runs of bisect-step job 7"
	[[ "$output" == *"$want"* ]]
	# names that only look alike are a user's
	sp submit pipe -i 1 --no-monitors -p loops=10 --name ab-job-2 >/dev/null
	sp submit pipe -i 1 --no-monitors -p loops=10 --name ab-job-2-c >/dev/null
	sp submit pipe -i 1 --no-monitors -p loops=10 --name bisect-job-2x >/dev/null
	sp submit ab pipe -p loops=10 --a param:mode=process --b param:mode=thread \
		--max-samples 7 >/dev/null
	for i in 1 2 3 4; do sp worker --once >/dev/null; done
	[ "$(count "SELECT string_agg(state, ',' ORDER BY id) FROM jobs")" = "done,done,done,done" ]
	run sp runs
	[[ "$output" == *"ab-job-4-a "* ]]
}

@test "queue: an ab job that fails names no run to look at; alone, ab names the side's" {
	# alone, a side failing its first iteration keeps no run, whichever side
	# ran first (--seed 1: b; --seed 2: a, whose sample of the block goes
	# with it), so none is named; once a whole block is kept, the failed
	# side's iterations are, and the reason says where
	for seed in 1 2; do
		run sp ab command --a cmd:true --b cmd:false --name none --seed "$seed"
		[ "$status" -eq 3 ]
		[[ "${lines[-1]}" == "schedperf: ab: side b failed on its first iteration: "* ]]
		[[ "${lines[-1]}" != *"schedperf show"* ]]
		run sp show none-a
		[ "$status" -eq 2 ]
	done
	run sp ab command --a cmd:true --b "cmd:sh -c '[ -e $TMP/ran ] && exit 1; : >$TMP/ran'" \
		--name alone --max-samples 20
	[ "$status" -eq 3 ]
	[[ "${lines[-1]}" == "schedperf: ab: 3 blocks in a row failed, "*"(see 'schedperf show "* ]]
	# the command as said (its --db names the test's store)
	shown=${lines[-1]##*schedperf show }
	eval "sp show ${shown%"')"}" >/dev/null
	# a job's failed run goes with its claim: nothing to show, so nothing named
	sp submit ab command --a cmd:true --b cmd:false >/dev/null
	run sp worker --once
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = failed ]
	reason=$(count "SELECT reason FROM jobs WHERE id = 1")
	[[ "$reason" == "ab: side b failed on its first iteration: "* ]]
	[[ "$reason" != *"schedperf show"* ]]
	run sp show ab-job-1-b
	[ "$status" -eq 2 ]
}

@test "queue: an ab job capped before any sample is done as the ab alone ends: verdict unknown, no run kept" {
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-time 1e-9 --name alone \
		--format json >"$TMP/alone.json"
	sp submit ab command -p cmd=true --a env:X=1 --b env:X=2 --max-time 1e-9 >/dev/null
	run sp worker --once
	[ "$status" -eq 0 ]
	[ "$output" = "job 1: done" ]
	[ "$(count "SELECT state || ' ' || coalesce(result_batch::text, 'none') || ' ' ||
		coalesce(reason, 'none') FROM jobs WHERE id = 1")" = "done none none" ]
	sp jobs --format json >"$TMP/jobs.json"
	# the job keeps the verdict the ab alone prints, but for its seed and time
	keep='{k: v for k, v in d.items() if k not in ("seed", "seconds")}'
	[ "$(json "$keep" "$TMP/alone.json")" = "$(json "(lambda d: $keep)(d[0][\"result\"])" "$TMP/jobs.json")" ]
	[ "$(json '(d[0]["result"]["verdict"], d[0]["result"]["runs"], d[0]["result"]["samples_a"])' \
		"$TMP/jobs.json")" = "('unknown', [], 0)" ]
	run sp jobs
	[[ "${lines[1]}" == *" done "*" ab "*"  verdict: unknown" ]]
	# and it stored nothing, as the ab alone
	[ "$(count "SELECT count(*) FROM runs") $(count "SELECT count(*) FROM batches")" = "0 0" ]
}

# Both sides of job 1's ab have begun and committed an iteration.
ab_sides_sampled() {
	[ "$(count "SELECT count(DISTINCT b.id) FROM batches b JOIN benchmarks k ON
		k.batch_id = b.id JOIN iterations i ON i.benchmark_id = k.id WHERE b.job_id = ${1:-1}")" -eq 2 ]
}

# kill_mid_ab NAME JOB: submit an ab job (id JOB) of --name NAME, and
# SIGKILL the worker that runs it once both sides have sampled.
kill_mid_ab() {
	local w
	sp submit ab command --a 'cmd:sleep 0.1' --b 'cmd:sleep 0.2' --max-samples 7 \
		--name "$1" >/dev/null
	"$SP" worker --once --lease 1 >/dev/null 2>"$TMP/err" &
	w=$!
	workers+=($w)
	wait_for ab_sides_sampled "$2"
	kill -KILL "$w"
	wait "$w" || true
	# the ab dies with its worker
	wait_for refute process_on_this_store "schedperf -q ab command"
}

@test "queue: a worker killed mid-ab loses both sides; the job's next run stores them whole" {
	kill_mid_ab mid 1
	[ "$(count "SELECT count(*) || ' ' || count(*) FILTER (WHERE complete) FROM batches
		WHERE job_id = 1")" = "2 0" ]
	run sp runs --format json
	[ "$output" = "[]" ]
	wait_for lease_over
	sp worker --once >/dev/null
	[ "$(count "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 2" ]
	# the lost sides went when the job was claimed again; the new two are whole
	[ "$(count "SELECT count(*) FROM batches")" -eq 2 ]
	[ "$(count "SELECT count(*) FROM batches b JOIN jobs j ON j.id = b.job_id AND
		b.job_claim = j.claim WHERE b.complete")" -eq 2 ]
	[ "$(count "SELECT result IS NOT NULL FROM jobs WHERE id = 1")" = t ]
	sp runs --format json > "$TMP/runs.json"
	[ "$(json 'sorted((r["name"], len(r["batches"])) for r in d)' "$TMP/runs.json")" = \
	  "[('mid-a', 1), ('mid-b', 1)]" ]
}

@test "queue: a job cancelled while its worker is dead leaves its --name free" {
	kill_mid_ab dead 1
	sp cancel 1
	[ "$(count "SELECT count(*) || ' ' || count(*) FILTER (WHERE complete) FROM batches
		WHERE job_id = 1")" = "2 0" ]
	# its unfinished sides are no one's: the name is free for a job and for ab
	# itself (whose commands need not be slow: they are not killed)
	sp submit ab command --a 'cmd:sleep 0.01' --b 'cmd:sleep 0.02' --max-samples 7 \
		--name dead >/dev/null
	sp worker --once >/dev/null
	[ "$(count "SELECT string_agg(state, ' ' ORDER BY id) FROM jobs")" = "cancelled done" ]
	sp runs --format json >"$TMP/runs.json"
	[ "$(json 'sorted((r["name"], len(r["batches"])) for r in d)' "$TMP/runs.json")" = \
	  "[('dead-a', 1), ('dead-b', 1)]" ]
	sp compare dead-a dead-b >/dev/null
	# and for an ab run by hand
	kill_mid_ab gone 3
	sp cancel 3
	sp ab command --a 'cmd:sleep 0.01' --b 'cmd:sleep 0.02' --max-samples 7 --name gone -q
	sp runs --format json >"$TMP/runs.json"
	[ "$(json '[len(r["batches"]) for r in d if r["name"].startswith("gone")]' "$TMP/runs.json")" = "[1, 1]" ]
}

@test "queue: an ab job's --name is its own: refused at submit when taken, and by the worker" {
	ab=(ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7)
	# one pair of runs for several jobs would pool them
	run sp submit --repeat 2 "${ab[@]}" --name dup
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ab: --name dup with --repeat 2: the jobs would pool their samples"* ]]
	[ "$(count "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0 ]
	sp submit --repeat 2 "${ab[@]}" >/dev/null	# each its ab-job-ID
	# another queued job of that name
	sp submit "${ab[@]}" --name dup >/dev/null
	run sp submit "${ab[@]}" --a env:Y=3 --name=dup
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ab: --name dup: job 3 (queued) stores its runs under that name already"* ]]
	run sp submit "${ab[@]}" --name ab-job-1
	[ "$status" -eq 2 ]
	[[ "$output" == *"ab: run name 'ab-job-1-a' is kept for the runs of ab job 1"* ]]
	for i in 1 2 3; do sp worker --once >/dev/null; done
	[ "$(count "SELECT string_agg(state, ' ' ORDER BY id) FROM jobs")" = "done done done" ]
	# runs that exist
	run sp submit "${ab[@]}" --a env:Y=9 --name dup
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ab: run dup-a exists already, and compare would pool its samples with this job's"* ]]
	sp submit pipe -p loops=10 -i 1 --name solo-b >/dev/null
	sp submit "${ab[@]}" --name solo >/dev/null	# queued before solo-b was stored
	sp worker --once >/dev/null	# the run
	# the worker refuses the ab whose runs were made meanwhile, and stores nothing
	run sp worker --once
	[ "$(count "SELECT state FROM jobs WHERE id = 5")" = failed ]
	[ "$(count "SELECT reason FROM jobs WHERE id = 5")" = \
	  "run solo-b exists already, and compare would pool its samples with this experiment's (give another --name)" ]
	[ "$(count "SELECT count(*) FROM batches WHERE job_id = 5")" -eq 0 ]
	[ "$(count "SELECT count(*) FROM runs r JOIN batches b ON b.run_id = r.id
		WHERE r.name IN ('solo-a', 'solo-b')")" -eq 1 ]
	# two jobs of one name submitted at once both pass submit: the second to run fails
	sp submit "${ab[@]}" --name twice >/dev/null
	psql_in "$PGDB" "INSERT INTO jobs (command, args, machine, machine_like, submitted, since)
		SELECT command, args, machine, machine_like, submitted, since FROM jobs WHERE id = 6"
	sp worker --once >/dev/null
	run sp worker --once
	[ "$(count "SELECT string_agg(state, ' ' ORDER BY id) FROM jobs WHERE id >= 6")" = "done failed" ]
	[[ "$(count "SELECT reason FROM jobs WHERE id = 7")" == "run twice-a exists already"* ]]
	sp runs --format json >"$TMP/runs.json"
	[ "$(json 'sorted((r["name"], len(r["batches"])) for r in d if r["name"].startswith("twice"))' "$TMP/runs.json")" = \
	  "[('twice-a', 1), ('twice-b', 1)]" ]
}

@test "queue: what would make a job no job is refused, however spelled; a run that stores nothing fails its job" {
	# a last option without its value must not take the check's --dry-run for it
	run sp submit ab command --a cmd:true --b cmd:false --name
	[ "$status" -eq 2 ]
	run sp submit pipe -p loops=10 -i 1 --name
	[ "$status" -eq 2 ]
	# getopt takes abbreviations: so does the refusal
	for no_job in --rest --restor --dry --dry-r --resu; do
		run sp submit pipe -p loops=10 -i 1 "$no_job"
		[ "$status" -eq 2 ] || { echo "$no_job: $status $output"; return 1; }
		assert_one_line_error
	done
	run sp submit --machine $'lab\n1' pipe -i 1
	[ "$status" -eq 2 ]
	assert_one_line_error
	# nothing ran, nothing was stored
	[ "$(count "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0 ]
	# a job that still says --dry-run (queued by an older submit, or by hand)
	sp db init >/dev/null
	count "INSERT INTO jobs (args, machine, machine_like, submitted, since) VALUES
		('[\"pipe\",\"-p\",\"loops=10\",\"-i\",\"1\",\"--dry-run\"]', '*', '%',
		 '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z')" >/dev/null
	run sp worker --once
	[[ "$output" == *"job 1 failed: the run ended without storing the job's results"* ]]
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = failed ]
}

@test "queue: submit run WORKLOAD is submit WORKLOAD, as jobs names its command" {
	sp submit run pipe -p loops=10 -i 1 --name r >/dev/null
	sp jobs --format json >"$TMP/jobs.json"
	[ "$(json '[(j["command"], j["args"][:3]) for j in d]' "$TMP/jobs.json")" = "[('run', ['pipe', '-p', 'loops=10'])]" ]
	run sp submit run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: submit: no run given: give a workload with its options, or --suite, as to 'schedperf run'"* ]]
	run sp submit run bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown workload 'bogus'"* ]]
}

@test "queue: a job given up after one attempt says so in the singular" {
	sp submit pipe -p loops=100000000 -i 1 --no-monitors --name killer --max-attempts 1 \
		>/dev/null
	claim_and_kill 1
	sp worker --once >/dev/null
	[ "$(count "SELECT state FROM jobs WHERE id = 1")" = failed ]
	[ "$(count "SELECT reason FROM jobs WHERE id = 1")" = "given up after 1 attempt: the $(
		)worker running it was lost before the run ended (on $(hostname)) (find what $(
		)kills it, or submit it again with a larger --max-attempts)" ]
}

@test "queue: a worker whose role may only read says it cannot claim a job, and why" {
	local role="reader_$$_$RANDOM"

	sp submit pipe -p loops=10 -i 1 >/dev/null
	psql_in "$PGDB" "CREATE ROLE $role LOGIN; GRANT CONNECT ON DATABASE $PGDB TO $role;
		GRANT USAGE ON SCHEMA public TO $role;
		GRANT SELECT ON ALL TABLES IN SCHEMA public TO $role"
	run sp worker --once --db "$(pg_url "$PGDB" "$role")"
	psql_in "$PGDB" "DROP OWNED BY $role; DROP ROLE $role"
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	assert_one_line_error
	[ "$output" = "schedperf: cannot claim a job in store '$(pg_url "$PGDB" "$role")': $(
		)permission denied for table jobs (this role lacks the right: grant it what $(
		)'man schedperf' shows under GRANT for a worker, a submitter or a reader)" ]
	[ "$(count "SELECT state FROM jobs")" = queued ]
}

@test "queue: submit of a command that is no job's says what a job is, and queues none" {
	for args in "bisect" "bisect command -p cmd=/bin/true --good a --bad b" \
		    "--machine m1 bisect --kernel-tree . --good a --bad b"; do
		run sp submit $args
		[ "$status" -eq 2 ] || { echo "$output"; false; }
		assert_one_line_error
		[ "$output" = "schedperf: submit: bisect is not a job command: a job is a run, an $(
			)ab or a bisect-step (queue one step with 'submit bisect-step ...', or $(
			)bisect kernels on the fleet with 'schedperf bisect --kernel-tree DIR $(
			)--machine PATTERN', which queues its own jobs)" ]
	done
	for cmd in compare worker submit help; do
		run sp submit "$cmd" a b
		[ "$status" -eq 2 ] || { echo "$output"; false; }
		assert_one_line_error
		[[ "$output" == "schedperf: submit: $cmd is not a job command: a job is a run, an $(
			)ab or a bisect-step (give 'submit [run] WORKLOAD ...', "*"or run $(
			)'schedperf $cmd' itself)" ]]
	done
	# a workload is a run's, whatever commands there are; the word run names it
	sp submit command -p cmd=/bin/true -i 1 >/dev/null
	run sp submit run compare
	[ "$status" -eq 2 ]
	[[ "$output" == *"unknown workload 'compare'"* ]]
	[ "$(count "SELECT count(*) FROM jobs")" -eq 1 ]
}

@test "queue: cancel checks every id first: one that cannot be cancelled cancels none" {
	sp submit pipe -p loops=10 -i 1 --name x >/dev/null
	sp submit pipe -p loops=10 -i 1 --name y >/dev/null
	for ids in "1 9999 2" "1 nope 2" "1 2 1"; do
		run sp cancel $ids
		[ "$status" -eq 2 ]
		assert_one_line_error
		[ "$(count "SELECT string_agg(state, ' ' ORDER BY id) FROM jobs")" = "queued queued" ]
	done
	sp cancel 1 2
	[ "$(count "SELECT string_agg(state, ' ' ORDER BY id) FROM jobs")" = "cancelled cancelled" ]
	run sp cancel 2
	[ "$status" -eq 2 ]
}

@test "queue: submit refuses what every worker would fail: --assume-cpus, paths relative to here" {
	mkdir "$TMP/bin"
	printf '#!/bin/sh\necho 1\n' >"$TMP/bin/prog"
	chmod +x "$TMP/bin/prog"
	printf -- '- workload: pipe\n  params:\n    loops: 10\n  iterations: 1\n' >"$TMP/s.yaml"
	cd "$TMP"
	run sp submit pipe -p loops=10 -i 1 --assume-cpus 4
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"--assume-cpus only plans a dry run"* ]]
	run sp submit pipe -p loops=10 -i 1 --assume 4
	[ "$status" -eq 2 ]
	for cmd in ./bin/prog bin/prog "bin/prog arg"; do
		run sp submit command -p "cmd=$cmd" -i 1
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"is relative to this directory"*"absolute path"* ]]
	done
	run sp submit ab command --a "cmd:./bin/prog" --b cmd:true
	[ "$status" -eq 2 ]
	[[ "$output" == *"'./bin/prog' is relative to this directory"* ]]
	for suite in s.yaml ./s.yaml; do
		run sp submit --suite "$suite"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"suite file '$suite' is relative to this directory"* ]]
	done
	[ "$(count "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")" -eq 0 ]
	# whole paths, names found in PATH and built-in suites are jobs
	sp submit command -p "cmd=$TMP/bin/prog" -i 1 >/dev/null
	sp submit command -p "cmd=true" -i 1 >/dev/null
	sp submit --suite "$TMP/s.yaml" >/dev/null
	sp submit --suite quick >/dev/null
	[ "$(count "SELECT count(*) FROM jobs")" -eq 4 ]
	# a program only the workers' machines have is theirs to check
	sp submit --machine other command -p cmd=/opt/only-on-worker/bench -i 1 >/dev/null
	sp submit --machine other command -p 'cmd=only-on-worker-bench 5' -i 1 >/dev/null
	sp submit --machine other ab command -p cmd=true --a env:PATH=/opt/worker/bin \
		--b env:X=1 >/dev/null
	[ "$(count "SELECT count(*) FROM jobs")" -eq 7 ]
	run sp run command -p cmd=/opt/only-on-worker/bench -i 1 --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"cannot run '/opt/only-on-worker/bench': no such executable file"* ]]
	# and so is a relative path when run here, not through a job
	sp run command -p cmd=./bin/prog -i 1 --no-monitors -q
}

@test "queue: submit checks a CPU list's form only; the worker fails a job whose CPUs its machine lacks" {
	# CPU 1000 is on no machine this test runs on, yet a worker's might have it
	for args in "pipe -p loops=10 -i 1 --no-monitors --cpus 0,1000" \
		    "ab pipe -p loops=10 --a cpus:1000 --b cpus:0" \
		    "ab pipe -p loops=10 --a cgroup:cpuset.cpus=0-1000 --b cpus:0"; do
		run sp submit $args
		[ "$status" -eq 0 ]
	done
	# a count of CPUs is the worker's too: one CPU here does not refuse cpus=cross
	run taskset -c 0 "$SP" submit pipe -p loops=10 -p cpus=cross -i 1 --no-monitors
	[ "$status" -eq 0 ]
	# the form is checked now, whatever the kind
	for args in "pipe --cpus 3-1" "pipe --cpus 0-x" "pipe --cpus ''" "ab pipe --a cpus:1- --b cpus:0" \
		    "ab pipe --a cgroup:cpuset.cpus=x --b cpus:0" \
		    "ab pipe --a cgroup:cpuset.mems=2-1 --b cpus:0"; do
		eval "run sp submit $args"
		[ "$status" -eq 2 ]
		assert_one_line_error
	done
	# and for the CPUs a set of schedperf's holds, 0 to 1023, whatever the machine
	for args in "pipe --cpus 0,1024" "ab pipe --a cpus:2000 --b cpus:0"; do
		run sp submit $args
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *": it names a CPU beyond the 1024 CPUs schedperf can address"* ]]
	done
	[ "$(count "SELECT count(*) FROM jobs")" -eq 4 ]
	run sp worker --idle-exit 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"job 1 failed: bad CPU list '0,1000' for --cpus: it names CPUs this process may not run on"* ]]
	[[ "$output" == *"job 2 failed: bad CPU list '1000' for the cpus: knob of --a: it names CPUs"* ]]
	[ "$(count "SELECT string_agg(state, ' ' ORDER BY id) FROM jobs WHERE id <= 2")" = "failed failed" ]
	# the worker went on to the next jobs
	[ "$(count "SELECT count(*) FROM jobs WHERE state = 'queued' OR state = 'running'")" -eq 0 ]
}

@test "queue: jobs marks what a killed ab left on this machine and is gone since: a reaped cgroup, a removed file" {
	[ -w /sys/fs/cgroup/cpu ] || skip "no writable cgroup v1 cpu controller here"
	sp submit pipe -p loops=10 -i 1 >/dev/null
	here=$(cat /etc/machine-id 2>/dev/null || hostname)
	boot=$(cat /proc/sys/kernel/random/boot_id)
	GROUP=/sys/fs/cgroup/cpu/schedperf-test-jobs-$$
	mkdir "$GROUP"
	row() {	# row MACHINE KIND NAME ORIGINAL: a copy's entry of a gone ab (pid 1 at tick 1)
		count "INSERT INTO knob_journal (kind, name, original, writer_boot, writer_pid,
		       writer_start, started, machine) VALUES ('$2', '$3', '$4', '$boot', 1, 1,
		       '2026-12-01T00:00:00Z', '$1')" >/dev/null
	}
	row "$here" scratch-cgroup "$GROUP-reaped" absent
	row "$here" scratch-cgroup "$GROUP" absent
	row "$here" sysfs /sys/fs/cgroup/cpu/schedperf-removed/cpu.shares 1024
	row "$here" sysctl kernel.ostype "$(cat /proc/sys/kernel/ostype)"
	row other-machine scratch-cgroup "$GROUP-reaped" absent
	run sp jobs
	rmdir "$GROUP"
	[ "$status" -eq 0 ]
	[ "${lines[2]}" = "Changed by an ab and not put back yet:" ]
	[ "${lines[3]}" = "machine $here: scratch-cgroup $GROUP-reaped, original absent, since 2026-12-01T00:00:00Z by process 1; gone now" ]
	[ "${lines[4]}" = "machine $here: scratch-cgroup $GROUP, original absent, since 2026-12-01T00:00:00Z by process 1" ]
	[ "${lines[5]}" = "machine $here: sysfs /sys/fs/cgroup/cpu/schedperf-removed/cpu.shares, original 1024, since 2026-12-01T00:00:00Z by process 1; gone now: nothing to put back" ]
	[ "${lines[6]}" = "machine $here: sysctl kernel.ostype, original $(cat /proc/sys/kernel/ostype), since 2026-12-01T00:00:00Z by process 1; back at its original now" ]
	# another machine's is for that machine to look at
	[ "${lines[7]}" = "machine other-machine: scratch-cgroup $GROUP-reaped, original absent, since 2026-12-01T00:00:00Z by process 1" ]
}

@test "queue: jobs escapes a job's or journal entry's control characters in text, not in JSON" {
	sp submit pipe -p loops=10 -i 1 --no-monitors --name esc >/dev/null
	# a store another program wrote: submit and ab store no such text
	count "ALTER TABLE jobs DROP CONSTRAINT jobs_command_check;
	       UPDATE jobs SET command = 'run' || chr(27) || '[2J', worker = 'host' || chr(27) ||
	       ']0;t' || chr(7), since = '2026' || chr(10) || 'SINCE', reason = 'r' || chr(13) ||
	       'x', kernel = 'k' || chr(155) || '1', args = '[\"a' || chr(10) || 'ARGS\"]',
	       result = '{\"verdict\": \"same\\u001b[31m\", \"direction\": \"d\\n\"}'" >/dev/null
	count "INSERT INTO knob_journal (kind, name, original, writer_boot, writer_pid,
	       writer_start, started, machine) VALUES ('sysctl', 'kernel.' || chr(27) || 'x',
	       '1', 'boot', 1, 1, '2026-12-01' || chr(10) || 'T', 'm' || chr(27) || '[1m')" >/dev/null
	run sp jobs
	[ "$status" -eq 0 ]
	# one line a job, every control character as \xHH or \uHHHH
	[ "${#lines[@]}" -eq 4 ]
	refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' <<<"$output"
	[[ "${lines[1]}" == *' host\x1b]0;t\x07 '* ]]
	[[ "${lines[1]}" == *' 2026\x0aSINCE '* ]]
	[[ "${lines[1]}" == *'  run\x1b[2J ["a\x0aARGS"]  kernel k\u009b1'* ]]
	[[ "${lines[1]}" == *'  verdict: same\x1b[31m (b d\x0a)  failed: r\x0dx' ]]
	local entry='machine m\x1b[1m: sysctl kernel.\x1bx, original 1,'
	[ "${lines[3]}" = "$entry since 2026-12-01\x0aT by process 1" ]
	# JSON: the text as it is, its writer escaping it
	sp jobs --format json >"$TMP/jobs.json"
	refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$TMP/jobs.json"
	[ "$(json 'd[0]["command"] == "run\x1b[2J" and d[0]["machine"] == "host\x1b]0;t\x07"
		and d[0]["since"] == "2026\nSINCE" and d[0]["reason"] == "r\rx"
		and d[0]["kernel"] == "k\u009b1" and d[0]["result"]["verdict"] == "same\x1b[31m"' \
		"$TMP/jobs.json")" = True ]
}

# own_pg_copy: own_pg_start (helpers.bash), but a copy of setup_file's server
own_pg_copy() {
	OWN=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
	cp -a "$OWN_TEMPLATE/." "$OWN/"
	"$BATS_TEST_DIRNAME/../pg-server.sh" resume "$OWN"
	OWN_URL=$(printf 'postgresql:///postgres?host=%s&user=postgres' "$OWN")
}

# waiting_job: a job whose run waits in its first iteration (of 2) until
# $TMP/go exists, on the test's own server, whose store is SCHEDPERF_DB; the
# iteration makes $TMP/waiting first.
waiting_job() {
	own_pg_copy
	export SCHEDPERF_DB=$OWN_URL
	sp submit command -p shell=1 \
		-p "cmd=: >'$TMP/waiting'; until [ -e '$TMP/go' ]; do sleep 0.01; done" -i 2 \
		--no-monitors --name o >/dev/null
}

own_lease_over() {	# own_lease_over: job 1's lease is over, on the server's clock
	[ "$(own_pg_sql "SELECT count(*) FROM jobs WHERE id = 1 AND lease_until < now()")" -eq 1 ]
}

# own_batch_begun: job 1's run has begun its batch, and waits in its first
# iteration: done with the store until $TMP/go, so that a server stopped now
# finds no call of the run's under way, however loaded the machine
own_batch_begun() {
	[ "$(own_pg_sql "SELECT count(*) FROM batches WHERE job_id = 1")" -eq 1 ] &&
		[ -e "$TMP/waiting" ]
}

# own_pg_cut: the test's own server out of reach, as one stopped for an
# upgrade is: its connections dropped (terminated, as a fast shutdown
# terminates them) and no new one taken, its socket moved aside. own_pg_mend
# puts the socket back: reachable at once, where a server started again
# takes seconds, more on a loaded machine, which a test's lease must outlast.
own_pg_cut() {
	mkdir -p "$OWN/aside"
	mv "$OWN/.s.PGSQL.5432" "$OWN/aside/"
	psql -qXAt -v ON_ERROR_STOP=1 "postgresql:///postgres?host=$OWN/aside&user=postgres" -c \
		"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		 WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()" >/dev/null
}

own_pg_mend() {
	mv "$OWN/aside/.s.PGSQL.5432" "$OWN/"
}

@test "queue: a worker rides out an outage of the store shorter than its lease: said once, back once, its job kept" {
	waiting_job
	# the outage is noticed at the first renewal, a third of the lease in;
	# the rest of it is the margin the test has to end the outage in
	"$SP" worker --once --lease 24 >"$TMP/out" 2>"$TMP/err" 3>&- &
	local w=$! rc=0
	workers+=($w)
	wait_for own_batch_begun
	# the server goes (an upgrade): the next renewal of the lease finds it gone
	own_pg_cut
	wait_for grep -q "^schedperf: worker: the store is unreachable: " "$TMP/err"
	kill -0 "$w"
	refute grep -q "reachable again" "$TMP/err"
	own_pg_mend
	# the run stores its iterations on a new connection too
	touch "$TMP/go"
	wait_for all_gone "$w"
	wait "$w" || rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc: $(cat "$TMP/err")"; false; }
	grep -qx "job 1: done" "$TMP/out"
	[ "$(grep -c "^schedperf: worker: the store is unreachable: " "$TMP/err")" -eq 1 ]
	[ "$(grep -cx "schedperf: worker: the store is reachable again" "$TMP/err")" -eq 1 ]
	[ "$(wc -l <"$TMP/err")" -eq 2 ] || { cat "$TMP/err"; false; }
	[ "$(own_pg_sql "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 1" ]
	[ "$(own_pg_sql "SELECT count(*) FROM iterations WHERE failure IS NULL")" -eq 2 ]
	[ "$(own_pg_sql "SELECT count(*) FROM batches WHERE complete")" -eq 1 ]
}

@test "queue: a worker that finds the store restarted since its last call connects again and keeps its job" {
	waiting_job
	"$SP" worker --once --lease 60 >"$TMP/out" 2>"$TMP/err" 3>&- &
	local w=$! rc=0
	workers+=($w)
	wait_for own_batch_begun
	# a restart between two calls: the worker's and the run's connections are lost
	"$BATS_TEST_DIRNAME/../pg-server.sh" pause "$OWN"
	"$BATS_TEST_DIRNAME/../pg-server.sh" resume "$OWN"
	touch "$TMP/go"
	wait_for all_gone "$w"
	wait "$w" || rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc: $(cat "$TMP/err")"; false; }
	grep -qx "job 1: done" "$TMP/out"
	[ "$(own_pg_sql "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 1" ]
	[ "$(own_pg_sql "SELECT count(*) FROM iterations WHERE failure IS NULL")" -eq 2 ]
}

@test "queue: an outage of the store longer than the lease loses the job: the worker stops its run and stores nothing of it" {
	waiting_job
	"$SP" worker --once --lease 2 >"$TMP/out" 2>"$TMP/err" 3>&- &
	local w=$! rc=0 runner
	workers+=($w)
	wait_for own_batch_begun
	runner=$(pgrep -P "$w")
	"$BATS_TEST_DIRNAME/../pg-server.sh" pause "$OWN"
	wait_for grep -q "^schedperf: job 1: its lease ran out while the store was unreachable: it is a lost" \
		"$TMP/err"
	wait_for all_gone "$w" "$runner"
	wait "$w" || rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc: $(cat "$TMP/err")"; false; }
	"$BATS_TEST_DIRNAME/../pg-server.sh" resume "$OWN"
	refute grep -q "reachable again" "$TMP/err"
	# neither failed nor given back by the worker: a lost worker's running job,
	# once its lease is over on the server's clock too (the worker's reckoning
	# began before the claim: it gives up first)
	[ "$(own_pg_sql "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "running 1" ]
	wait_for own_lease_over
	[ "$(own_pg_sql "SELECT count(*) FROM batches WHERE complete")" -eq 0 ]
	# another worker runs it again; only its batch is kept
	touch "$TMP/go"
	sp worker --once >/dev/null
	[ "$(own_pg_sql "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "done 2" ]
	[ "$(own_pg_sql "SELECT count(*) FROM batches")" -eq 1 ]
	[ "$(own_pg_sql "SELECT count(*) FROM iterations WHERE failure IS NULL")" -eq 2 ]
}

@test "queue: a worker with a short lease waits for a frozen server a third of it, not 10 s" {
	waiting_job
	"$SP" worker --once --lease 3 >"$TMP/out" 2>"$TMP/err" 3>&- &
	local w=$! runner
	workers+=($w)
	wait_for own_batch_begun
	runner=$(pgrep -P "$w")
	# a server that takes the renewal and never answers it
	own_pg_freeze
	wait_for grep -q "^schedperf: worker: the store is unreachable: " "$TMP/err"
	grep -q "^schedperf: worker: the store is unreachable: the server did not answer within 1 s" \
		"$TMP/err" || { cat "$TMP/err"; false; }
	own_pg_thaw
	touch "$TMP/go"
	wait_for all_gone "$w" "$runner"
}

@test "queue: a lease that runs out on a frozen server ends the run waiting on it: nothing more is stored" {
	waiting_job
	"$SP" worker --once --lease 3 >"$TMP/out" 2>"$TMP/err" 3>&- &
	local w=$! rc=0 runner
	workers+=($w)
	wait_for own_batch_begun
	runner=$(pgrep -P "$w")
	own_pg_freeze
	# the run's first iteration ends, and its storing waits on the server
	touch "$TMP/go"
	# its calls give up as the worker's do, and the worker stops it once the
	# lease ran out (the old run waited on until the server answered)
	WAIT_LIMIT=60 wait_for all_gone "$w" "$runner"
	wait "$w" || rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc: $(cat "$TMP/err")"; false; }
	grep -q "^schedperf: job 1: its lease ran out while the store was unreachable: it is a lost" \
		"$TMP/err"
	own_pg_thaw
	[ "$(own_pg_sql "SELECT state || ' ' || attempts FROM jobs WHERE id = 1")" = "running 1" ]
	[ "$(own_pg_sql "SELECT count(*) FROM iterations WHERE failure IS NULL")" -eq 0 ]
	[ "$(own_pg_sql "SELECT count(*) FROM batches WHERE complete")" -eq 0 ]
}
