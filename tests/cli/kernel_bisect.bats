#!/usr/bin/env bats
# Kernels that need a reboot, on a fleet, for real but for the reboot: jobs
# that need a kernel (submit --kernel, a kernel bisection's), workers that
# boot them through --boot-cmd and take them up after the boot, and
# schedperf bisect --kernel-tree over two machines.
#
# A kernel cannot be booted here, so the machines are simulated
# (util/machine.h): each is a directory named by SCHEDPERF_TEST_MACHINE,
# whose file "name" is its host name, "release" the kernel it runs and
# "boot_id" its boot's id, once it has rebooted. Its boot command (boot.sh
# below) writes the release it was given and a new boot id, kills the
# machine's worker, as a reboot would, and starts it again, as the
# machine's systemd unit would. A "kernel" is what the build installs into
# $KERNELS: a level that the workload's program (tests/data/noisy.c,
# through kprog) prints, noise of its own included. Everything else is
# real: PostgreSQL, git bisect over a repository made here, the workers,
# the jobs and their leases.

load helpers
pg_file

NOISY="$BATS_TEST_DIRNAME/../data/noisy.c"
HOME_RELEASE=6.18.0-home

# The workload's program, built once for every test: they only run it (its
# noise's count, $NOISY_STATE, is each test's own).
setup_file() {
	pg_setup_file
	export NOISY_BIN="$BATS_FILE_TMPDIR/noisy"
	if command -v cc >/dev/null; then
		cc -O1 -o "$NOISY_BIN" "$NOISY" -lm
	fi
}

setup() {
	TMP=$(mktemp -d)
	export SCHEDPERF_DB="$TMP/store.db"
	SP="$SCHEDPERF"
	PGDB=$(pg_new_db)
	PG=$(pg_url "$PGDB")
	export KERNELS="$TMP/kernels" NOISY_STATE="$TMP/noisy.state"
	mkdir -p "$KERNELS"
	command -v cc >/dev/null && command -v git >/dev/null || skip "no C compiler or git"
	cat >"$TMP/kprog" <<'EOF'
#!/bin/sh
# the workload: noisy.c at the level of the kernel the machine runs, once
# the machine's file "hold" (if the test made one) is gone
while [ -e "$SCHEDPERF_TEST_MACHINE/hold" ]; do sleep 0.05; done
r=$(cat "$SCHEDPERF_TEST_MACHINE/release")
NOISY_LEVEL=$(cat "$KERNELS/$r.level" 2>/dev/null || echo 100) exec "$NOISY_BIN"
EOF
	chmod +x "$TMP/kprog"
	cat >"$TMP/boot.sh" <<'EOF'
#!/bin/sh
# A simulated boot of release $1: a kernel listed in the machine's file
# "broken" does not boot (the machine falls back to its default); "hang"
# makes the machine not come back at all; "slow" waits for the file "go".
# The release the machine came back on is in "release", and appended to
# "boots", its boots in their order.
m=$SCHEDPERF_TEST_MACHINE
r=$1
[ -e "$KERNELS/$r.level" ] || [ "$r" = "$(cat "$m/home")" ] ||
	{ echo "no kernel $r is installed" >&2; exit 1; }
while [ -e "$m/slow" ] && [ ! -e "$m/go" ]; do sleep 0.05; done
grep -qxF "$r" "$m/broken" 2>/dev/null && r=$(cat "$m/home")
echo "$r" >"$m/release"
echo "$r" >>"$m/boots"
cat /proc/sys/kernel/random/uuid >"$m/boot_id"
# the reboot ends every worker the machine ran
for pid in $(cat "$m/pids"); do kill -9 "$pid" 2>/dev/null; done
: >"$m/pids"
[ -e "$m/hang" ] || setsid sh "$m/start" </dev/null >/dev/null 2>&1 &
EOF
}

teardown() {
	for m in "$TMP"/m*; do
		rm -f "$m/start"	# a boot under way starts no worker now
		for pid in $(cat "$m/pids" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
	done
	[ -z "${PID:-}" ] || kill -9 "$PID" 2>/dev/null
	[ -z "${PID2:-}" ] || kill -9 "$PID2" 2>/dev/null
	escapee_kill "$TMP/sid"
	# a server that a boot command froze is thawed before it is stopped
	[ ! -s "$TMP/frozen" ] || FROZEN=$(cat "$TMP/frozen")
	own_pg_stop
	psql_in postgres "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" || true
	rm -rf "$TMP"
}

# machine NAME [WORKER OPTIONS...]: a simulated machine on its default
# kernel, its /run ("run": a machine runs one worker, which locks it), and
# the script that starts its worker, as its systemd unit would: once the
# one before has ended (killed by a reboot or the test, it may not be yet;
# its lock is freed when it is gone).
machine() {
	local m="$TMP/$1"
	shift
	mkdir -p "$m/run"
	echo "$(basename "$m")" >"$m/name"
	echo "$HOME_RELEASE" >"$m/home"
	cp "$m/home" "$m/release"
	cat >"$m/start" <<EOF
#!/bin/sh
echo \$\$ >"$m/pid"
echo \$\$ >>"$m/pids"
export SCHEDPERF_TEST_MACHINE="$m" SCHEDPERF_TEST_RUNDIR="$m/run"
flock "$m/run/schedperf-worker.lock" true
exec "$SP" --db "$PG" worker --boot-cmd 'sh "$TMP/boot.sh" "\$1"' --boot-timeout 30 \
	--home-kernel $HOME_RELEASE --lease 5 $* >>"$m/log" 2>&1
EOF
}

start() {	# start NAME: its worker, in the background
	rm -f "$TMP/$1/pid"
	setsid sh "$TMP/$1/start" </dev/null >/dev/null 2>&1 &
	wait_for test -s "$TMP/$1/pid"
}

job_state() {	# job_state ID
	psql_in "$PGDB" "SELECT state FROM jobs WHERE id = $1"
}

# install RELEASE LEVEL: a "kernel" the machines can boot.
install() {
	echo "$2" >"$KERNELS/$1.level"
}

@test "worker: a job that needs a kernel is booted for, taken up after the boot, and stored on it" {
	machine m1 --home-after 1
	install 6.18.0-new 150
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p "cmd=$TMP/kprog" \
		-p 'metric_regex=value ([0-9.]+)' -i 3 --name k)
	# a worker that cannot boot leaves it
	run env SCHEDPERF_TEST_MACHINE="$TMP/m1" "$SP" --db "$PG" worker --once
	[ "$status" -eq 0 ]
	[ "$(job_state "$id")" = queued ]
	start m1
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = done ]"
	# (a second on, the machine boots its default kernel again: its first boot was the job's)
	[ "$(head -1 "$TMP/m1/boots")" = 6.18.0-new ]
	grep -q "job $id: booting 6.18.0-new" "$TMP/m1/log"
	# the batch says the machine and kernel it ran on, and the level that kernel gave
	[ "$(psql_in "$PGDB" "SELECT string_agg(key || '=' || value, ',' ORDER BY key)
		FROM environment WHERE key IN ('kernel.release', 'machine.hostname')")" = \
	  "kernel.release=6.18.0-new,machine.hostname=m1" ]
	sp --db "$PG" export k >"$TMP/k.json"
	[ "$(json 'min(d["runs"][0]["benchmarks"][0]["metrics"][0]["samples"]) > 120' "$TMP/k.json")" = True ]
	run sp --db "$PG" jobs
	[[ "${lines[1]}" == *" done "*"kernel 6.18.0-new"* ]]
	# with nothing left to do for --home-after, the machine goes back to its default kernel
	wait_for sh -c "[ \"\$(cat '$TMP/m1/release')\" = $HOME_RELEASE ]"
	[ "$(cat "$TMP/m1/boots")" = "6.18.0-new"$'\n'"$HOME_RELEASE" ]
}

@test "worker: a kernel that does not boot, or a machine that does not come back, fails the job with the reason" {
	machine m1 --home-after 0
	install 6.18.0-broken 150
	install 6.18.0-hang 150
	echo 6.18.0-broken >"$TMP/m1/broken"
	sp --db "$PG" db init >/dev/null
	p=(command -p "cmd=$TMP/kprog" -i 2)
	a=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-broken "${p[@]}" --name a)
	start m1
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $a')\" = failed ]"
	[[ "$(psql_in "$PGDB" "SELECT reason FROM jobs WHERE id = $a")" == \
	   "the machine came back on $HOME_RELEASE, not on 6.18.0-broken"* ]]
	# a machine that never comes back: its job fails at its deadline, whoever looks
	touch "$TMP/m1/hang"
	b=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-hang "${p[@]}" --name b)
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $b')\" = booting ]"
	run sp --db "$PG" jobs
	[[ "$output" == *" booting "*"kernel 6.18.0-hang by "* ]]
	# the deadline is --boot-timeout from the boot's start; a short one, waited
	# out, would race the boot command on a loaded machine: it is moved instead
	[ "$(psql_in "$PGDB" "SELECT extract(epoch FROM boot_deadline::timestamptz -
		since::timestamptz) BETWEEN 29.9 AND 30.1 FROM jobs WHERE id = $b")" = t ]
	psql_in "$PGDB" "UPDATE jobs SET boot_deadline = '2000-01-01T00:00:00.000Z' WHERE id = $b"
	# another machine's worker, claiming, fails it once the deadline has passed
	machine m2
	start m2
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $b')\" = failed ]"
	[[ "$(psql_in "$PGDB" "SELECT reason FROM jobs WHERE id = $b")" == \
	   "the machine m1 did not come back on 6.18.0-hang within its boot timeout"* ]]
	# the machine, back at last, goes on with nothing lost
	rm "$TMP/m1/hang"
	start m1
	c=$(sp --db "$PG" submit --machine m1 "${p[@]}" --name c)
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $c')\" = done ]"
}

@test "worker: a boot command that hangs is killed at --boot-timeout, from the boot's start, and fails its job" {
	machine m1
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p cmd=true)
	# timeout(1) only guards the test against a worker that would hang for ever
	run timeout 60 env SCHEDPERF_TEST_MACHINE="$TMP/m1" "$SP" --db "$PG" worker --once \
		--boot-cmd "echo \$\$ >'$TMP/boot.pid'; exec sleep 600 >/dev/null 2>&1" \
		--boot-timeout 1
	[ "$status" -eq 0 ]
	[[ "$output" == *"job $id: booting 6.18.0-new"* ]]
	[[ "$output" == *"cannot boot 6.18.0-new: the boot command did not finish within 1 s"* ]]
	[ "$(job_state "$id")" = failed ]
	[[ "$(psql_in "$PGDB" "SELECT reason FROM jobs WHERE id = $id")" == \
	   "the boot command did not finish within 1 s (--boot-timeout): it was killed"* ]]
	# the command went with its process group
	local pid=$(cat "$TMP/boot.pid")
	kill -9 "$pid" 2>/dev/null && { echo "the boot command lives on"; return 1; }
	true
}

@test "worker: a boot command killed at --boot-timeout takes what left its group with it" {
	machine m1
	escaping_script "$TMP/escape.sh"
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p cmd=true)
	# timeout(1) only guards the test against a worker that would hang for ever
	run timeout 60 env SCHEDPERF_TEST_MACHINE="$TMP/m1" "$SP" --db "$PG" worker --once \
		--boot-cmd "exec sh '$TMP/escape.sh' '$TMP/sid'" --boot-timeout 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"cannot boot 6.18.0-new: the boot command did not finish within 3 s"* ]]
	[ "$(job_state "$id")" = failed ]
	[ -s "$TMP/sid" ] || { echo "the deadline came before the sleeper started"; return 1; }
	escapee_gone "$TMP/sid"
}

@test "worker: a server that stops answering while the boot command runs holds it no longer than --boot-timeout" {
	machine m1
	own_pg_start
	sp --db "$OWN_URL" db init >/dev/null
	id=$(sp --db "$OWN_URL" submit --machine m1 --kernel 6.18.0-new command -p cmd=true)
	# the boot command stops the server (as own_pg_freeze does) before anything
	# else: the freeze comes within the boot however slow the machine, so a
	# short --boot-timeout does not run out before it
	cat >"$TMP/freeze.sh" <<EOF
p=\$(head -1 "$OWN/data/postmaster.pid")
echo "\$p \$(pgrep -P "\$p" | tr '\n' ' ')" >"$TMP/frozen.new"
mv "$TMP/frozen.new" "$TMP/frozen"
kill -STOP \$(cat "$TMP/frozen")
echo \$\$ >"$TMP/boot.pid"
exec sleep 600 >/dev/null 2>&1
EOF
	SCHEDPERF_TEST_MACHINE="$TMP/m1" "$SP" --db "$OWN_URL" worker --once --lease 3 \
		--boot-cmd "exec sh '$TMP/freeze.sh'" \
		--boot-timeout 3 >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	local rc=0
	wait_for test -s "$TMP/frozen"
	FROZEN=$(cat "$TMP/frozen")
	wait_for test -s "$TMP/boot.pid"
	# the lease's renewals, every second, now wait for an answer that never comes
	wait_for grep -q "cannot boot 6.18.0-new: the boot command did not finish within 3 s" \
		"$TMP/err"
	wait_for grep -q "^schedperf: worker: the store is unreachable: " "$TMP/err"
	kill -0 "$PID"
	own_pg_thaw
	wait_for all_gone "$PID"
	wait "$PID" || rc=$?
	[ "$rc" -eq 0 ] || { echo "exit $rc: $(cat "$TMP/err")"; false; }
	grep -qx "schedperf: worker: the store is reachable again" "$TMP/err"
	[ "$(own_pg_sql "SELECT state FROM jobs WHERE id = $id")" = failed ]
	[[ "$(own_pg_sql "SELECT reason FROM jobs WHERE id = $id")" == \
	   "the boot command did not finish within 3 s (--boot-timeout): it was killed"* ]]
	local pid=$(cat "$TMP/boot.pid")
	kill -9 "$pid" 2>/dev/null && { echo "the boot command lives on"; return 1; }
	true
}

# The UPDATE that marks job 1 booting waits, in its trigger, until the test
# inserts a row into table go: a stop can come between the claim and the boot.
hold_booting() {
	psql_in "$PGDB" "CREATE TABLE go (x int);
	CREATE FUNCTION hold() RETURNS trigger AS \$\$ BEGIN
		IF NEW.state = 'booting' THEN
			WHILE NOT EXISTS (SELECT 1 FROM go) LOOP PERFORM pg_sleep(0.05); END LOOP;
		END IF;
		RETURN NEW;
	END \$\$ LANGUAGE plpgsql;
	CREATE TRIGGER hold BEFORE UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION hold()"
}

@test "worker: stopped before its boot command, the worker boots nothing and gives the job back" {
	machine m1
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p cmd=true)
	hold_booting
	SCHEDPERF_TEST_MACHINE="$TMP/m1" "$SP" --db "$PG" worker --once \
		--boot-cmd "echo \$1 >'$TMP/booted'" --boot-timeout 30 \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	# the worker has claimed the job, and marking it booting waits in the trigger
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c \"SELECT count(*) FROM pg_stat_activity
		WHERE wait_event = 'PgSleep' AND
		query LIKE 'UPDATE jobs SET state = ''booting''%'\")\" -eq 1 ]"
	interrupt_and_wait -TERM "$PID" psql_in "$PGDB" "INSERT INTO go VALUES (1)"
	[ "$rc" -eq 143 ]
	[ ! -e "$TMP/booted" ]
	grep -q "job $id: the worker was stopped by signal 15; the job is queued again, $(
		)not booted for (this attempt is not counted)" "$TMP/err"
	refute grep -q booting "$TMP/out"
	# queued at once, its attempt not counted, nothing left of a boot
	[ "$(psql_in "$PGDB" "SELECT state || ' ' || attempts || ' ' || coalesce(worker, '-') ||
		' ' || coalesce(claim, '-') || ' ' || coalesce(boot_deadline, '-') || ' ' ||
		coalesce(home_kernel, '-') FROM jobs WHERE id = $id")" = "queued 0 - - - -" ]
}

@test "worker: stopped with its process group in its boot command, the worker gives the job back" {
	machine m1
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p cmd=true)
	# as systemctl stop and Ctrl-C do: SIGTERM to the worker's whole group, its boot command's run
	SCHEDPERF_TEST_MACHINE="$TMP/m1" setsid "$SP" --db "$PG" worker --once --boot-timeout 60 \
		--boot-cmd "touch '$TMP/began'; exec sleep 600" >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for test -e "$TMP/began"
	kill -TERM -- -"$PID"
	wait_for all_gone "$PID"
	rc=0
	wait "$PID" || rc=$?
	[ "$rc" -eq 143 ]
	refute grep -q "cannot boot" "$TMP/err"
	grep -q "job $id: the worker was stopped by signal 15; the job is queued again, $(
		)its boot command cut short (this attempt is not counted)" "$TMP/err"
	[ "$(psql_in "$PGDB" "SELECT state || ' ' || attempts || ' ' || coalesce(reason, '-') ||
		' ' || coalesce(boot_deadline, '-') FROM jobs WHERE id = $id")" = "queued 0 - -" ]
}

@test "worker: a job cancelled while its machine boots is said to be, not to have failed its boot" {
	machine m1
	sp --db "$PG" db init >/dev/null
	export SCHEDPERF_TEST_MACHINE="$TMP/m1"
	# a boot command that fails once the test lets it go, the job cancelled meanwhile
	for lease in 3 300; do
		rm -f "$TMP/go"
		id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p cmd=true)
		"$SP" --db "$PG" worker --once --lease $lease --boot-timeout 120 --boot-cmd "$(
			)echo \$\$ >>'$TMP/m1/pids'; until [ -e '$TMP/go' ]; do sleep 0.05; done; exit 1" >"$TMP/out" 2>"$TMP/err" 3>&- &
		PID=$!
		wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = booting ]"
		sp --db "$PG" cancel "$id"
		# the renewals of a short lease find the cancel while the boot command runs
		[ "$lease" -eq 300 ] || wait_for grep -q "job $id: cancelled while its machine boots $(
			)6.18.0-new: it does not run after the boot" "$TMP/err"
		touch "$TMP/go"
		wait_for all_gone "$PID"
		rc=0
		wait "$PID" || rc=$?
		[ "$rc" -eq 0 ]
		[ "$(grep -c "job $id: cancelled while its machine boots 6.18.0-new" "$TMP/err")" -eq 1 ]
		grep -q "worker: cannot boot 6.18.0-new: the boot command failed" "$TMP/err"
		refute grep -q "job $id: cannot boot" "$TMP/err"
		[ "$(psql_in "$PGDB" "SELECT state || ' ' || coalesce(reason, '-') FROM jobs
			WHERE id = $id")" = "cancelled -" ]
	done
}

@test "worker: the --db password reaches no program it starts: job, ab side, boot command" {
	machine m1
	install 6.18.0-new 150
	sp --db "$PG" db init >/dev/null
	# trust authentication takes any password: the URL's is only carried
	up="postgresql://postgres:Hunter2Secret@/$PGDB?host=$SCHEDPERF_TEST_PGHOST"
	sp --db "$up" submit --machine m1 --priority 9 command -p shell=1 \
		-p "cmd=env >'$TMP/job.env'" -i 1 --no-monitors >/dev/null
	sp --db "$up" submit --machine m1 --priority 8 ab command \
		--a "cmd:sh -c 'env >>$TMP/ab.env'" --b cmd:true --max-samples 7 >/dev/null
	sp --db "$up" submit --machine m1 --kernel 6.18.0-new command -p cmd=true >/dev/null
	# the boot command comes after two jobs: the worker's environment has had them
	SCHEDPERF_TEST_MACHINE="$TMP/m1" run "$SP" --db "$up" worker --idle-exit 1 \
		--boot-cmd "env >'$TMP/boot.env'; exit 1" --boot-timeout 30 3>&-
	[ "$(psql_in "$PGDB" "SELECT string_agg(state, ',' ORDER BY id) FROM jobs")" = \
	  "done,done,failed" ]
	[ -s "$TMP/job.env" ]
	[ -s "$TMP/ab.env" ]
	[ -s "$TMP/boot.env" ]
	refute grep -l -e Hunter2Secret -e SCHEDPERF_DB "$TMP/job.env" "$TMP/ab.env" \
		"$TMP/boot.env"
}

@test "worker: the --db password is in no /proc/PID/environ below the worker" {
	machine m1
	sp --db "$PG" db init >/dev/null
	# trust authentication takes any password: the URL's is only carried
	up="postgresql://postgres:Hunter2Secret@/$PGDB?host=$SCHEDPERF_TEST_PGHOST"
	# the job's program reads the environment of each process from itself up
	# to the worker (not its own: its command line says --db, as the test's)
	cat >"$TMP/walk" <<'EOF'
#!/bin/sh
p=$$
while [ "$p" -gt 1 ]; do
	case "$(tr '\0' ' ' <"/proc/$p/cmdline")" in *" worker "*) break ;; esac
	echo "process $p"
	tr '\0' '\n' <"/proc/$p/environ"
	p=$(awk '{ print $4 }' "/proc/$p/stat")
done >"$1"
EOF
	chmod +x "$TMP/walk"
	sp --db "$up" submit --machine m1 command -p "cmd=$TMP/walk $TMP/walk.out" -i 1 \
		--no-monitors >/dev/null
	SCHEDPERF_TEST_MACHINE="$TMP/m1" run "$SP" --db "$up" worker --idle-exit 1 3>&-
	[ "$(psql_in "$PGDB" "SELECT state FROM jobs")" = done ]
	cat "$TMP/walk.out"
	# the program, the iteration's processes and the run the worker started
	[ "$(grep -c '^process ' "$TMP/walk.out")" -ge 3 ]
	grep -q '^SCHEDPERF_JOB=' "$TMP/walk.out"
	refute grep -q Hunter2Secret "$TMP/walk.out"
	# the run's environment still says which store, without the password
	grep -qxF "SCHEDPERF_DB=postgresql://postgres@/$PGDB?host=$SCHEDPERF_TEST_PGHOST" \
		"$TMP/walk.out"
}

@test "worker: killed while its machine boots, the job runs once the machine is back" {
	machine m1
	install 6.18.0-new 150
	sp --db "$PG" db init >/dev/null
	touch "$TMP/m1/slow"
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p "cmd=$TMP/kprog" \
		-i 2 --name k)
	start m1
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = booting ]"
	kill -9 "$(cat "$TMP/m1/pid")"
	touch "$TMP/m1/go"
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = done ]"
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches WHERE job_id = $id AND complete")" -eq 1 ]
	[ "$(psql_in "$PGDB" "SELECT attempts FROM jobs WHERE id = $id")" -eq 1 ]
}

@test "worker: a worker started while another's boot command runs leaves the job to it" {
	machine m6
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m6 --kernel 6.18.0-six command -p cmd=true -i 2)
	export SCHEDPERF_TEST_MACHINE="$TMP/m6"
	# the boot command installs the kernel when the test says; the reboot is the test's too
	"$SP" --db "$PG" worker --once --boot-timeout 60 --boot-cmd "until [ -e '$TMP/go' ]; $(
		)do sleep 0.05; done; echo \"\$1\" >'$TMP/m6/release'" >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = booting ]"
	# the first holds the machine's worker lock in its boot command too
	run "$SP" --db "$PG" worker --once --idle-exit 1
	[ "$status" -eq 3 ]
	[[ "$output" == "schedperf: worker: another worker (pid $PID) runs on this machine"* ]]
	# one that the lock does not see (a container of the same host name, its
	# own /run): no reboot yet, the machine runs the release of before, and
	# that is no failure
	export SCHEDPERF_TEST_RUNDIR="$TMP/m6/run"
	run "$SP" --db "$PG" worker --once --idle-exit 1
	[ "$status" -eq 0 ]
	[[ "$output" != *"came back"* ]]
	[ "$(psql_in "$PGDB" "SELECT state || ' ' || attempts || ' ' || coalesce(reason, '-')
		FROM jobs WHERE id = $id")" = "booting 1 -" ]
	# the same once the kernel is installed, the reboot not yet come
	touch "$TMP/go"
	wait_for grep -qx 6.18.0-six "$TMP/m6/release"
	run "$SP" --db "$PG" worker --once --idle-exit 1
	[ "$status" -eq 0 ]
	[ "$(job_state "$id")" = booting ]
	# the reboot: a new boot, its shutdown ends the first worker; the next one runs the job
	cat /proc/sys/kernel/random/uuid >"$TMP/m6/boot_id"
	interrupt_and_wait -TERM "$PID"
	run "$SP" --db "$PG" worker --once
	[ "$status" -eq 0 ]
	[ "$(psql_in "$PGDB" "SELECT state || ' ' || attempts FROM jobs WHERE id = $id")" = "done 1" ]
}

@test "worker: killed in its boot command, before any reboot, its job becomes a lost worker's" {
	machine m1
	install 6.18.0-new 150
	sp --db "$PG" db init >/dev/null
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p "cmd=$TMP/kprog" \
		-i 2 --name k)
	# a boot command that never reboots; its worker is killed in it, with its process group
	SCHEDPERF_TEST_MACHINE="$TMP/m1" setsid "$SP" --db "$PG" worker --once --lease 30 \
		--boot-timeout 60 --boot-cmd "echo \$\$ >>'$TMP/m1/pids'; $(
		)until [ -e '$TMP/never' ]; do sleep 0.05; done" >"$TMP/out" 2>&1 3>&- &
	PID=$!
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = booting ]"
	kill -9 -- -"$PID"
	wait_for all_gone "$PID"
	# the worker started next, as systemd's Restart= does: its lease is not over yet
	run env SCHEDPERF_TEST_MACHINE="$TMP/m1" "$SP" --db "$PG" worker --once
	[ "$status" -eq 0 ]
	[[ "$output" != *"came back"* ]]
	[ "$(psql_in "$PGDB" "SELECT state || ' ' || attempts || ' ' || coalesce(reason, '-')
		FROM jobs WHERE id = $id")" = "booting 1 -" ]
	# its lease over (as its seconds would end it), the job is claimed again and run
	psql_in "$PGDB" "UPDATE jobs SET lease_until = clock_timestamp() - interval '1 second'
		WHERE id = $id"
	start m1
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = done ]"
	[ "$(psql_in "$PGDB" "SELECT attempts FROM jobs WHERE id = $id")" -eq 2 ]
	grep -q "job $id: the worker that was booting 6.18.0-new for it was lost before the $(
		)machine rebooted" "$TMP/m1/log"
	[ "$(cat "$TMP/m1/release")" = 6.18.0-new ]
}

@test "worker: a machine back after its job's deadline fails the job as the sweep does" {
	machine m1
	install 6.18.0-new 150
	sp --db "$PG" db init >/dev/null
	touch "$TMP/m1/slow"
	id=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-new command -p "cmd=$TMP/kprog" \
		-i 2 --name k)
	start m1
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" = booting ]"
	# the deadline passes while the machine boots, before any sweep has looked
	psql_in "$PGDB" "UPDATE jobs SET boot_deadline = '2000-01-01T00:00:00.000Z' WHERE id = $id"
	touch "$TMP/m1/go"
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $id')\" != booting ]"
	[ "$(job_state "$id")" = failed ]
	wait_for grep -q "job $id failed" "$TMP/m1/log"
	[ "$(cat "$TMP/m1/release")" = 6.18.0-new ]
	[[ "$(psql_in "$PGDB" "SELECT reason FROM jobs WHERE id = $id")" == \
	   "the machine m1 did not come back on 6.18.0-new within its boot timeout"* ]]
	grep -q "job $id failed: the machine m1 did not come back on 6.18.0-new" "$TMP/m1/log"
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches WHERE job_id = $id")" -eq 0 ]
	# the same from a machine back late on another kernel: the deadline is the reason
	echo 6.18.0-other >"$TMP/m1/broken"
	rm "$TMP/m1/go"
	install 6.18.0-other 150
	b=$(sp --db "$PG" submit --machine m1 --kernel 6.18.0-other command -p "cmd=$TMP/kprog" \
		-i 2 --name b)
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT state FROM jobs WHERE id = $b')\" = booting ]"
	psql_in "$PGDB" "UPDATE jobs SET boot_deadline = '2000-01-01T00:00:00.000Z' WHERE id = $b"
	touch "$TMP/m1/go"
	wait_for grep -q "job $b failed" "$TMP/m1/log"
	[ "$(cat "$TMP/m1/release")" = "$HOME_RELEASE" ]
	[[ "$(psql_in "$PGDB" "SELECT reason FROM jobs WHERE id = $b")" == \
	   "the machine m1 did not come back on 6.18.0-other within its boot timeout"* ]]
}

# The kernel tree: 16 commits (or N), a Makefile whose kernelrelease names
# each, and a level that commit REGRESSION makes 20 % worse; in $TMP/tree,
# or TREE. Each tree's commits are its own (its path is in them): two trees
# made in one second would otherwise share their first commits, and their
# kernels' releases. The bisections of it take --alpha 0.4, whose verdicts
# come in two rounds, the fewest any can: each round is a boot per side,
# and a 20 % step in noise of 5 % decides every verdict the same at any
# alpha, so that a smaller one would only add rounds alike. For the same
# reason a boot is one iteration (--boot-iterations 1), its value its one
# sample: a median of more would only cost each job their runs. (noisy.c's
# wild runs, 1.5 times the level, come at its counts 56 and 70: later than
# the runs of any test here, each of which counts its own.)
tree_of() {	# tree_of REGRESSION [N [TREE]]
	local tree=${3:-$TMP/tree}

	git init -q "$tree"
	cd "$tree"
	git config user.email test@example.com
	git config user.name test
	printf 'kernelrelease:\n\t@echo 6.18.0-sim-$$(git rev-parse --short=12 HEAD)\n' >Makefile
	for i in $(seq 1 "${2:-16}"); do
		echo $([ "$i" -lt "$1" ] && echo 100 || echo 120) >level
		echo "change $i of $tree" >change
		git add -A
		git commit -q -m "change $i"
	done
}

# The machine of a job that runs on the kernel it needs (no boot under
# way), and the job's id, into $TMP/busy.
running_on_its_kernel() {
	local id worker kernel
	read -r id worker kernel < <(psql_in "$PGDB" "SELECT id, worker, kernel FROM jobs
		WHERE state = 'running' AND args::json->>-1 LIKE 'bisect-1-%' LIMIT 1" | tr '|' ' ')
	[ -n "$worker" ] && [ "$(cat "$TMP/$worker/release")" = "$kernel" ] &&
		echo "$worker $id" >"$TMP/busy"
}

quoted() {	# quoted URL: as a message quotes a store's URL for a shell (it has ? and &)
	printf "'%s'" "$1"
}

commit_of() {	# commit_of I: the hash of change I
	git -C "$TMP/tree" log --format=%H --grep="^change $1\$"
}

release_of() {
	echo "6.18.0-sim-$(commit_of "$1" | cut -c1-12)"
}

@test "bisect --kernel-tree: a fleet of two finds a 20 % regression in 4 kernels, through a broken boot, a killed worker and a killed controller; a second bisection shares it" {
	# 4 kernels: git bisect's steps are changes 3 (the broken kernel: a
	# skip) and 2 (bad), the controller killed after the first. A second
	# bisection, of a tree of its own (its kernels' releases distinct: each
	# tree's commits are its own), runs meanwhile on the same fleet, with no
	# step: its ends, then its culprit against its parent; each bisection
	# stays on the machine it started on
	tree_of 2 2 "$TMP/tb"
	tree_of 2 4
	machine m1
	machine m2
	sp --db "$PG" db init >/dev/null
	# change 3's kernel does not boot on either machine
	release_of 3 | tee "$TMP/m1/broken" >"$TMP/m2/broken"
	# the workload waits until the test has killed a worker in it (below)
	touch "$TMP/m1/hold" "$TMP/m2/hold"
	start m1
	start m2
	args=(command -p "cmd=$TMP/kprog" -p 'metric_regex=value ([0-9.]+)' --kernel-tree "$TMP/tree"
	      --build 'cp level "$KERNELS/$(make -s kernelrelease).level"' --machine 'm*'
	      --good HEAD~3 --bad HEAD --boot-iterations 1 --alpha 0.4 --seed 11)
	"$SP" --db "$PG" bisect "${args[@]}" >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	# (the first bisection's is number 1)
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT count(*) FROM bisections')\" -eq 1 ]"
	"$SP" --db "$PG" bisect command -p "cmd=$TMP/kprog" -p 'metric_regex=value ([0-9.]+)' \
		--build 'cp level "$KERNELS/$(make -s kernelrelease).level"' --machine 'm*' \
		--good HEAD~1 --bad HEAD --boot-iterations 1 --alpha 0.4 --seed 3 \
		--kernel-tree "$TMP/tb" >"$TMP/b.out" 2>&1 3>&- &
	PID2=$!
	# a worker killed while it runs a job (not while it boots; the job
	# held in its workload until then): its lease runs out (moved into the
	# past, as its seconds would), and it runs again
	wait_for running_on_its_kernel
	read -r busy job <"$TMP/busy"
	kill -9 "$(cat "$TMP/$busy/pid")"
	rm "$TMP/m1/hold" "$TMP/m2/hold"
	[ "$(psql_in "$PGDB" "UPDATE jobs SET lease_until = clock_timestamp() - interval '1 second'
		WHERE id = $job AND state = 'running' RETURNING id")" = "$job" ]
	start "$busy"
	# the controller killed once the first step is stored, waiting for the
	# next's boots (not in a checkout, whose index lock is the user's to
	# see to: the next test); resumed, it goes on
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c \"SELECT count(*) FROM jobs
		WHERE args::json->>-1 = 'bisect-1-$(commit_of 2 | cut -c1-12)'\")\" -gt 0 ]"
	kill -9 "$PID"
	wait "$PID" || true
	PID=
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	echo "$output"
	cat "$TMP"/m*/log
	[ "$status" -eq 0 ]
	[[ "$output" == *"culprit $(commit_of 2 | cut -c1-12) change 2"* ]]
	sp --db "$PG" bisect --show 1 --format json >"$TMP/b.json"
	host=$(json 'd["machine_host"]' "$TMP/b.json")
	# every measurement on the one machine, on the kernel its commit built
	psql_in "$PGDB" "SELECT r.name, k.value, h.value FROM batches b JOIN runs r ON r.id = b.run_id
		JOIN environment k ON k.batch_id = b.id AND k.key = 'kernel.release'
		JOIN environment h ON h.batch_id = b.id AND h.key = 'machine.hostname'
		WHERE b.complete AND r.name LIKE 'bisect-1-%'" >"$TMP/batches"
	"$PYTHON" - "$TMP/b.json" "$TMP/batches" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
want = {}
for commit, release in d["kernels"].items():
    run = d["name"] + "-" + ("good" if commit == d["good"] else "bad" if commit == d["bad"]
                             else commit[:12])
    want[run] = release
for line in open(sys.argv[2]):
    run, release, host = line.rstrip("\n").split("|")
    assert want[run] == release, (run, release, want.get(run))
    assert host == d["machine_host"], (run, host)
PY
	# the broken kernel's step is a skip, with the boot's reason
	[[ "$(json '[s["reason"] for s in d["steps"] if s["verdict"] == "skip"][0]' "$TMP/b.json")" == \
	   *"came back on $HOME_RELEASE, not on $(release_of 3)"* ]]
	# the tree is where it was, and git's bisection over
	[ "$(git -C "$TMP/tree" symbolic-ref --short HEAD)" = master ]
	run git -C "$TMP/tree" bisect log
	[ "$status" -ne 0 ]
	[ "$host" = m1 ] || [ "$host" = m2 ]
	# the second bisection: its culprit, and its batches on its machine alone
	wait "$PID2" || { cat "$TMP/b.out"; return 1; }
	PID2=
	grep -q "culprit $(git -C "$TMP/tb" log --format=%h --abbrev=12 --grep='^change 2$') $(
		)change 2" "$TMP/b.out"
	sp --db "$PG" bisect --show 2 --format json >"$TMP/2.json"
	host=$(json 'd["machine_host"]' "$TMP/2.json")
	[ "$(json 'd["name"]' "$TMP/2.json")" = bisect-2 ]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id
		JOIN environment h ON h.batch_id = b.id AND h.key = 'machine.hostname'
		WHERE r.name LIKE 'bisect-2-%' AND b.complete AND h.value = '$host'")" -gt 0 ]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id
		JOIN environment h ON h.batch_id = b.id AND h.key = 'machine.hostname'
		WHERE r.name LIKE 'bisect-2-%' AND b.complete AND h.value <> '$host'")" -eq 0 ]
}

# cut_git: a git on $TMP/bin, the real one but for a checkout of a commit
# in $TMP/cut (one a line), which stops half done as one whose controller is killed
# (kill -9, its git with it) leaves the tree: a file of the commit written,
# another in part, git's index lock left behind; then it waits, its pid in
# $TMP/cut-pid, to be killed with the controller.
cut_git() {
	local git
	git=$(command -v git)
	mkdir -p "$TMP/bin"
	cat >"$TMP/bin/git" <<EOF
#!/bin/sh
# (what git status is told of the index lock, for the test to see)
[ "\$3" = status ] && echo "\${GIT_OPTIONAL_LOCKS-unset}" >>"$TMP/status-locks"
if [ "\$3 \$4 \$5" = "checkout -q --detach" ] && grep -qxF -- "\$6" "$TMP/cut" 2>/dev/null
then
	cd "\$2" || exit 1
	"$git" show "\$6:change" >change
	"$git" show "\$6:level" | head -c 2 >level
	: >.git/index.lock
	echo \$\$ >"$TMP/cut-pid"
	exec sleep 600
fi
exec "$git" "\$@"
EOF
	chmod +x "$TMP/bin/git"
}

# cut_reached PID: the checkout was cut short, or PID ended first.
cut_reached() {
	[ -s "$TMP/cut-pid" ] || ! kill -0 "$1" 2>/dev/null
}

@test "bisect --kernel-tree: --resume finishes a checkout cut short by a kill, never over an edit; refused over a later one, it leaves the tree as it is" {
	# two checkouts cut short, in one bisection: the good end's, the first,
	# from master's tip; then, in the --resume that finished it, its one
	# step's, change 2, from the bad end, change 3, whose level change 2 has
	# (the bad end is not master's tip, so no checkout of the bisection
	# begins there)
	tree_of 2 4
	machine m1
	sp --db "$PG" db init >/dev/null
	start m1
	head=$(git rev-parse HEAD)
	cut_git
	commit_of 1 >"$TMP/cut"
	PATH="$TMP/bin:$PATH" "$SP" --db "$PG" bisect command -p "cmd=$TMP/kprog" \
		-p 'metric_regex=value ([0-9.]+)' --kernel-tree "$TMP/tree" --machine m1 \
		--build 'cp level "$KERNELS/$(make -s kernelrelease).level"' --good HEAD~3 \
		--bad HEAD~1 --boot-iterations 1 --alpha 0.4 --seed 3 >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for cut_reached "$PID"
	[ -s "$TMP/cut-pid" ] || { cat "$TMP/err"; false; }
	kill -9 "$PID"
	wait_for all_gone "$PID" "$(cat "$TMP/cut-pid")"
	wait "$PID" || true
	PID=
	rm "$TMP/cut" "$TMP/cut-pid"
	# its git status asked for no index lock: only a checkout may leave one
	[ "$(sort -u "$TMP/status-locks")" = 0 ]
	# what the killed checkout left: HEAD and the index where they were, two files moved
	[ -e .git/index.lock ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	[ "$(cat level)" = 10 ]
	# git's index lock is refused, never removed: a git that still runs
	# in the tree, as `git commit -a` in its editor, need not hold it open
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[ "$output" = "schedperf: bisect: git's index of the kernel tree $TMP/tree is locked: $(
		)$TMP/tree/.git/index.lock is there, a git's that runs in the tree or a killed $(
		)one's (remove it once no git runs in the tree, then go on with: schedperf $(
		)bisect --resume --kernel-tree $TMP/tree --db $(quoted "$PG"))" ]
	[ -e .git/index.lock ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	rm .git/index.lock
	# an edit of the user's, in a file the checkout does not touch, is never overwritten
	echo '# mine' >>Makefile
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "${lines[-1]}" == "schedperf: bisect: the kernel tree $TMP/tree has changes to tracked $(
		)files (Makefile) that the stopped bisection's checkout of $(commit_of 1 | cut -c1-12) $(
		)did not make, so it is not done again over them (commit or stash them, then go on $(
		)with: schedperf bisect --resume --kernel-tree $TMP/tree --db $(quoted "$PG"))" ]]
	[ "$(tail -1 Makefile)" = '# mine' ]
	[ "$(cat level)" = 10 ]
	# the edit undone, the checkout is done again and the bisection goes on:
	# it measures its ends, then its step's checkout is cut short in turn
	git checkout -q Makefile
	commit_of 2 >"$TMP/cut"
	PATH="$TMP/bin:$PATH" "$SP" --db "$PG" bisect --resume --kernel-tree "$TMP/tree" \
		>"$TMP/out" 2>&1 3>&- &
	PID=$!
	wait_for cut_reached "$PID"
	[ -s "$TMP/cut-pid" ] || { cat "$TMP/out"; false; }
	kill -9 "$PID"
	wait_for all_gone "$PID" "$(cat "$TMP/cut-pid")"
	wait "$PID" || true
	PID=
	grep -qF "the checkout of $(commit_of 1 | cut -c1-12) that the stopped bisection $(
		)left half done is done again" "$TMP/out" || { cat "$TMP/out"; false; }
	rm "$TMP/cut" .git/index.lock
	from=$(git rev-parse HEAD)
	[ "$from" = "$(commit_of 3)" ]
	echo '# mine' >>Makefile
	git status --porcelain --untracked-files=no >"$TMP/status"
	# refused over the edit: one line, and the tree neither put back on
	# master nor anywhere else
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[ "${#lines[@]}" -eq 1 ] || { echo "$output"; false; }
	# (level too: cut_git writes it where the checkout leaves it as it was)
	[[ "${lines[0]}" == *"(Makefile, level) that the stopped bisection's checkout of $(
		)$(commit_of 2 | cut -c1-12) "* ]]
	[ "$(git rev-parse HEAD)" = "$from" ]
	git status --porcelain --untracked-files=no | diff "$TMP/status" -
	# so the next --resume, the edits undone, finishes the checkout and the
	# bisection, to its culprit, and the tree is back where it was
	git checkout -q Makefile level
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	[ "$status" -eq 0 ] || { echo "$output"; false; }
	[[ "$output" == *"the checkout of $(commit_of 2 | cut -c1-12) that the stopped bisection $(
		)left half done is done again"* ]]
	[[ "$output" == *"culprit $(commit_of 2 | cut -c1-12) change 2"* ]]
	[ "$(git symbolic-ref --short HEAD)" = master ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	[ -z "$(git status --porcelain --untracked-files=no)" ]
	[ ! -e .git/index.lock ]
}

# round_ran PID: the first round's two jobs are done, or PID ended first.
round_ran() {
	! kill -0 "$1" 2>/dev/null ||
		[ "$(psql_in "$PGDB" "SELECT count(*) FROM jobs WHERE state = 'done'")" -ge 2 ]
}

@test "bisect --kernel-tree: interrupted before its round was all submitted, --resume submits it" {
	tree_of 2 2
	machine m1
	sp --db "$PG" db init >/dev/null
	# no worker yet: the round's first job waits for a machine to take it
	"$SP" --db "$PG" bisect command -p "cmd=$TMP/kprog" -p 'metric_regex=value ([0-9.]+)' \
		--kernel-tree "$TMP/tree" --machine m1 --good HEAD~1 --bad HEAD \
		--build 'cp level "$KERNELS/$(make -s kernelrelease).level"' \
		--boot-iterations 1 --alpha 0.4 --seed 3 >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for sh -c "psql -qXAt '$PG' -c 'SELECT doc FROM bisections' | grep -q '\"pending\"'"
	interrupt_and_wait "$PID"
	[ "$rc" -eq 130 ] || { echo "rc=$rc"; cat "$TMP/err"; false; }
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM jobs")" -eq 1 ]
	start m1
	"$SP" --db "$PG" bisect --resume --kernel-tree "$TMP/tree" >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	# the job submitted before the interrupt is the round's, with the other end's
	wait_for round_ran "$PID"
	kill -0 "$PID" || { cat "$TMP/err"; false; }
	[ "$(psql_in "$PGDB" "SELECT string_agg(args::json->>-1, ',' ORDER BY args::json->>-1)
		FROM jobs WHERE id <= 2")" = "bisect-1-bad,bisect-1-good" ]
	interrupt_and_wait "$PID"
	PID=
	[ "$rc" -eq 130 ] || { echo "rc=$rc"; cat "$TMP/err"; false; }
}

# complete_batches: each run's complete batches, "RUN|N" a line, by name.
complete_batches() {
	psql_in "$PGDB" "SELECT r.name || '|' || count(*) FROM batches b JOIN runs r
		ON r.id = b.run_id WHERE b.complete GROUP BY r.name ORDER BY r.name"
}

# While table old_worker exists, the bad end's jobs store the metric in ms,
# as a worker of a schedperf whose workload says another unit would.
old_worker() {
	psql_in "$PGDB" "CREATE TABLE old_worker (x int);
	CREATE FUNCTION other_unit() RETURNS trigger AS \$\$ BEGIN
		IF EXISTS (SELECT 1 FROM old_worker) AND NEW.name = 'value' AND
		   (SELECT r.name FROM benchmarks bm JOIN batches b ON b.id = bm.batch_id
		    JOIN runs r ON r.id = b.run_id WHERE bm.id = NEW.benchmark_id) = 'bisect-1-bad'
		THEN NEW.unit := 'ms'; END IF;
		RETURN NEW;
	END \$\$ LANGUAGE plpgsql;
	CREATE TRIGGER other_unit BEFORE INSERT ON metrics FOR EACH ROW
		EXECUTE FUNCTION other_unit();
	INSERT INTO old_worker VALUES (1)"
}

@test "bisect --kernel-tree: a metric stored in another unit stops it, said; --resume goes on, and on over a round whose batch went before its record said so; its runs are its own" {
	tree_of 2 2
	machine m1
	sp --db "$PG" db init >/dev/null
	old_worker
	start m1
	args=(command -p "cmd=$TMP/kprog" -p 'metric_regex=value ([0-9.]+)' --kernel-tree "$TMP/tree"
	      --build 'cp level "$KERNELS/$(make -s kernelrelease).level"' --machine m1
	      --good HEAD~1 --bad HEAD --boot-iterations 1 --alpha 0.4 --seed 5)
	run sp --db "$PG" bisect "${args[@]}"
	[ "$status" -eq 3 ] || { echo "$output"; false; }
	[[ "${lines[-1]}" == "schedperf: bisect: job "[0-9]*" on m1 stored value in 'ms', lower is $(
		)better, where the bisection's first measurement stored it in '', lower is $(
		)better: values in another unit or direction are not compared (run the $(
		)workers of that machine with the schedperf the bisection began with, then: $(
		)schedperf bisect --resume --kernel-tree $TMP/tree --db $(quoted "$PG"))" ]]
	# nothing was compared; the round is over, its jobs all ended, and it can be resumed
	[ "$(psql_in "$PGDB" "SELECT state FROM bisections")" = interrupted ]
	sp --db "$PG" bisect --show --format json >"$TMP/b.json"
	[ "$(json '["ends" in d, "pending" in d, d["unit"], "error" in d]' "$TMP/b.json")" = \
	  "[False, False, '', True]" ]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM jobs WHERE state NOT IN ('done', 'failed')")" -eq 0 ]
	# nor is it stored: neither the round's value in ms nor the other end's
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches")" -eq 0 ]
	[[ "$output" == *$'\n'"schedperf: warning: job "[0-9]*" for bisect-1-bad on m1 stored $(
		)the metric in another unit or direction; its block is dropped, bisect-1-good's $(
		)and bisect-1-bad's samples of it deleted"$'\n'* ]]
	# the machine's worker now stores it as the others did: the bisection goes
	# on, submits its round again, and is killed before the round's jobs end
	psql_in "$PGDB" "DROP TABLE old_worker CASCADE; DROP TRIGGER other_unit ON metrics"
	"$SP" --db "$PG" bisect --resume --kernel-tree "$TMP/tree" >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c 'SELECT count(*) FROM jobs')\" -eq 4 ]"
	kill -9 "$PID"
	wait_for all_gone "$PID"
	PID=
	wait_for sh -c "[ \"\$(psql -qXAt '$PG' -c \"SELECT count(*) FROM jobs
		WHERE id > 2 AND state = 'done'\")\" -eq 2 ]"
	# as a process killed between dropping the round and saving its record leaves it
	psql_in "$PGDB" "DELETE FROM batches WHERE id = (SELECT result_batch FROM jobs
		WHERE id > 2 AND args::json->>-1 = 'bisect-1-good')"
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: warning: job "[0-9]*" for bisect-1-good on m1 is done, $(
		)but its batch is gone from the store; its block is dropped, bisect-1-bad's $(
		)sample of it deleted"$'\n'* ]]
	[[ "$output" == *"culprit $(commit_of 2 | cut -c1-12) change 2"* ]]
	sp --db "$PG" bisect --show --format json >"$TMP/b.json"
	e=$(json 'd["ends"]["blocks"]' "$TMP/b.json")
	c=$(json 'd["confirmation"]["blocks"]' "$TMP/b.json")
	# the parent is the good end, the culprit the bad: their runs
	[ "$(complete_batches)" = "bisect-1-bad|$((e + c))"$'\n'"bisect-1-good|$((e + c))" ] ||
		{ complete_batches; false; }
	# its runs are its own, as a local bisection's: each boot's batch is
	# marked as a local bisection's batches are
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id
		WHERE r.name IN ('bisect-1-good', 'bisect-1-bad')")" -ge 4 ]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches b LEFT JOIN environment e
		ON e.batch_id = b.id AND e.key = 'experiment'
		WHERE e.value IS DISTINCT FROM 'bisect'")" -eq 0 ]
	batches=$(psql_in "$PGDB" "SELECT count(*) FROM batches")
	# a run under the name of one of them is refused, storing nothing
	w=(command -p "cmd=$TMP/kprog" -p 'metric_regex=value ([0-9.]+)' -i 2 -q)
	run sp --db "$PG" run "${w[@]}" --name bisect-1-good
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'bisect-1-good' is a bisection's own"* ]]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM batches")" -eq "$batches" ]
	# and a bisection's measurement does not join a run that is not one
	sp --db "$PG" run "${w[@]}" --name plain
	run sp --db "$PG" run "${w[@]}" --bisection --name plain
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'plain' holds batches already that are not a bisection's"* ]]
	run sp --db "$PG" run --resume --bisection --name plain
	[ "$status" -eq 2 ]
	[[ "$output" == *"--bisection marks the batch a run begins"* ]]
}

# kind_build: the build of the test below, in $TMP/build.sh: the 3rd and 4th
# kernels built (the first two steps', whichever git bisect picks, after the
# ends') do not boot on m1; on the 5th's and 6th's the workload prints value 0.
kind_build() {
	cat >"$TMP/build.sh" <<EOF
n=\$((\$(cat '$TMP/builds' 2>/dev/null || echo 0) + 1))
echo \$n >'$TMP/builds'
r=\$(make -s kernelrelease)
case \$n in
3|4) echo "\$r" >>'$TMP/m1/broken'; cat level ;;
5|6) echo 0 ;;
*) cat level ;;
esac >"\$KERNELS/\$r.level"
EOF
}

@test "bisect --kernel-tree: a round a job failed, or with no positive value, keeps no batch, says so; its step is a skip, and so is the next" {
	# 4 steps, each's first round dropped at the step's job, after the ends'
	# jobs stored theirs: two whose kernels do not boot, then two whose
	# value is 0, each a second one after a first
	tree_of 2 6
	machine m1
	sp --db "$PG" db init >/dev/null
	kind_build
	start m1
	run sp --db "$PG" bisect command -p "cmd=$TMP/kprog" -p 'metric_regex=value ([0-9.]+)' \
		--kernel-tree "$TMP/tree" --build "sh '$TMP/build.sh'" --machine m1 \
		--good HEAD~5 --bad HEAD --boot-iterations 1 --alpha 0.4 --seed 5
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"only skipped commits left"* ]]
	# the ends' runs hold the ends' rounds, no more: compare pools them
	sp --db "$PG" bisect --show --format json >"$TMP/b.json"
	e=$(json 'd["ends"]["blocks"]' "$TMP/b.json")
	[ "$(json '[s["blocks"] for s in d["steps"]]' "$TMP/b.json")" = "[0, 0, 0, 0]" ]
	[ "$(json '[s["verdict"] for s in d["steps"]]' "$TMP/b.json")" = \
	  "['skip', 'skip', 'skip', 'skip']" ]
	[ "$(complete_batches)" = "bisect-1-bad|$e"$'\n'"bisect-1-good|$e" ] ||
		{ complete_batches; false; }
	# the failed jobs (their kernels did not boot) stored nothing either, nor the zeros
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM runs WHERE name NOT IN
		('bisect-1-good', 'bisect-1-bad')")" -eq 0 ]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM jobs WHERE state = 'failed'")" -eq 2 ]
	# and says so, step by step, in the steps' order
	read -r s1 s2 s3 s4 < <(json '" ".join(s["commit"][:12] for s in d["steps"])' "$TMP/b.json")
	for h in "$s1" "$s2"; do
		[[ "$output" == *$'\n'"schedperf: warning: job "[0-9]*" for bisect-1-$h on m1 $(
			)failed: the machine came back on $HOME_RELEASE, not on 6.18.0-sim-$h"*$(
			)"; its block is dropped, bisect-1-good's and bisect-1-bad's samples $(
			)of it deleted"$'\n'* ]]
	done
	for h in "$s3" "$s4"; do
		[[ "$(json "[s['reason'] for s in d['steps'] if s['commit'].startswith('$h')][0]" \
			"$TMP/b.json")" == *"for bisect-1-$h on m1 is done, but stored no positive "* ]]
		[[ "$output" == *$'\n'"schedperf: warning: job "[0-9]*" for bisect-1-$h on m1 is $(
			)done, but stored no positive "*"; its block is dropped"* ]]
	done
}

@test "bisect --kernel-tree: refused at its ends, the tree goes back; a dirtying build is named" {
	tree_of 2 4
	sp --db "$PG" db init >/dev/null
	head=$(git rev-parse HEAD)
	args=(command -p "cmd=$TMP/kprog" --kernel-tree "$TMP/tree" --machine m1
	      --good HEAD~3 --bad HEAD)
	run sp --db "$PG" bisect "${args[@]}" --build false
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == *"the good commit "*" does not build"* ]]
	[ "$(git symbolic-ref --short HEAD)" = master ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	# the next commit could not be checked out over the build's changes
	run sp --db "$PG" bisect "${args[@]}" --build 'echo built >>level'
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == "schedperf: bisect: the build of "*" changed files git tracks in "* ]]
	[[ "${lines[-1]}" == *"(level)"* ]]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM bisections")" -eq 0 ]
}

@test "bisect --kernel-tree: changes to the tree that no build made are not said to be a build's" {
	tree_of 2 4
	sp --db "$PG" db init >/dev/null
	# killed in 'make -s kernelrelease', after its first build left the tree as it was
	local make
	make=$(command -v make)
	mkdir -p "$TMP/bin"
	cat >"$TMP/bin/make" <<EOF
#!/bin/sh
echo \$\$ >"$TMP/make-pid"
exec sleep 600
EOF
	chmod +x "$TMP/bin/make"
	PATH="$TMP/bin:$PATH" "$SP" --db "$PG" bisect command -p "cmd=$TMP/kprog" \
		--kernel-tree "$TMP/tree" --machine m1 --good HEAD~3 --bad HEAD --build true \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for sh -c "[ -s '$TMP/make-pid' ] || ! kill -0 $PID"
	[ -s "$TMP/make-pid" ] || { cat "$TMP/err"; false; }
	kill -9 "$PID"
	wait_for all_gone "$PID" "$(cat "$TMP/make-pid")"
	wait "$PID" || true
	PID=
	echo '# mine' >>Makefile
	run sp --db "$PG" bisect --resume --kernel-tree "$TMP/tree"
	[ "$status" -eq 2 ] || { echo "$output"; false; }
	[[ "${lines[-1]}" == "schedperf: bisect: the kernel tree $TMP/tree has changes to tracked $(
		)files (Makefile) that no build of the bisection made, so the next commit cannot $(
		)be checked out (commit or stash them, then go on with: schedperf bisect --resume $(
		)--kernel-tree $TMP/tree --db $(quoted "$PG"))" ]]
	[ "$(tail -1 Makefile)" = '# mine' ]
}

@test "bisect --kernel-tree: a release submit --kernel would refuse ends the bisection, naming the commit and the flaw" {
	tree_of 2 4
	sp --db "$PG" db init >/dev/null
	head=$(git rev-parse HEAD)
	args=(command -p "cmd=$TMP/kprog" --kernel-tree "$TMP/tree" --machine m1
	      --good "$(git rev-parse HEAD~3)" --bad HEAD --build true)
	# each release made by the Makefile of a commit of its own, checked in
	release_make() {
		printf 'kernelrelease:\n\t@printf "%s-%%s" $$(git rev-parse --short=12 HEAD)\n' \
			"$1" >Makefile
		git commit -q -am "release $2"
		head=$(git rev-parse HEAD)
		bad=$(git rev-parse --short=12 HEAD)
	}
	# (a '/' was said to be no release at all)
	release_make '6.18/x' 'a slash'
	run sp --db "$PG" bisect "${args[@]}"
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == *"the release of commit $bad, '6.18/x-$bad' "*"contains '/'"* ]]
	release_make '\\377' 'not UTF-8'
	run sp --db "$PG" bisect "${args[@]}"
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == "schedperf: bisect: the release of commit $bad, '\xff-$bad' from "* ]]
	[[ "${lines[-1]}" == *"is not valid UTF-8 ("* ]]
	release_make "$(printf 'x%.0s' $(seq 300))" 'too long'
	run sp --db "$PG" bisect "${args[@]}"
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == *"the release of commit $bad, "*"must have 1 to 255 bytes"* ]]
	release_make '6.18\\033[2J' 'an escape'
	run sp --db "$PG" bisect "${args[@]}"
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == *"'6.18\x1b[2J-$bad' "*"contains control characters"* ]]
	# nothing queued, nothing kept, and the tree back on its branch
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM jobs")" -eq 0 ]
	[ "$(psql_in "$PGDB" "SELECT count(*) FROM bisections")" -eq 0 ]
	[ "$(git symbolic-ref --short HEAD)" = master ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	# submit --kernel refuses the same releases with the same words
	run sp --db "$PG" submit --kernel 6.18/x run command -p cmd=true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--kernel release '6.18/x' contains '/'"* ]]
	run sp --db "$PG" submit --kernel $'\xff' run command -p cmd=true
	[ "$status" -eq 2 ]
	[[ "$output" == *"--kernel release '\xff' is not valid UTF-8"* ]]
}

@test "bisect --kernel-tree: interrupted while it builds the ends, the tree is back on its branch, and it says so" {
	tree_of 2 6
	sp --db "$PG" db init >/dev/null
	head=$(git rev-parse HEAD)
	# the good end's build waits until the test has interrupted it
	"$SP" --db "$PG" bisect command -p "cmd=$TMP/kprog" --kernel-tree "$TMP/tree" \
		--machine m1 --good HEAD~4 --bad HEAD \
		--build "touch '$TMP/building'; while [ ! -e '$TMP/go' ]; do sleep 0.05; done" \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for test -e "$TMP/building"
	interrupt_and_wait "$PID" touch "$TMP/go"
	PID=
	[ "$rc" -eq 130 ] || { echo "rc=$rc"; cat "$TMP/err"; false; }
	[ "$(git symbolic-ref --short HEAD)" = master ]
	[ "$(git rev-parse HEAD)" = "$head" ]
	# no git bisect was begun: the message does not say one is kept
	run tail -1 "$TMP/err"
	[[ "$output" == "schedperf: interrupted: the store is kept (git's bisect state begins "* ]]
	[[ "$output" == *", the kernel tree is back where it was; go on with: schedperf bisect $(
		)--resume --kernel-tree $TMP/tree --db $(quoted "$PG")" ]]
	[ "$(psql_in "$PGDB" "SELECT state FROM bisections")" = interrupted ]
	# with git's bisect state under way and the tree elsewhere, a new bisection is
	# refused for it, not for a HEAD~4 the moved tree has not
	git bisect start --no-checkout HEAD HEAD~3 >/dev/null
	git checkout -q --detach HEAD~3
	run sp --db "$PG" bisect command -p "cmd=$TMP/kprog" --kernel-tree "$TMP/tree" \
		--machine m1 --good HEAD~4 --bad HEAD --build true
	[ "$status" -eq 2 ]
	[[ "${lines[-1]}" == *"a git bisect is in progress in "* ]]
}

@test "bisect --kernel-tree: interrupted in a build, what the build started out of its group ends" {
	tree_of 2 4
	escaping_script "$TMP/escape.sh"
	sp --db "$PG" db init >/dev/null
	"$SP" --db "$PG" bisect command -p "cmd=$TMP/kprog" --kernel-tree "$TMP/tree" \
		--machine m1 --good HEAD~3 --bad HEAD --build "sh '$TMP/escape.sh' '$TMP/sid'" \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for test -s "$TMP/sid"
	interrupt_and_wait "$PID"
	PID=
	[ "$rc" -eq 130 ] || { echo "rc=$rc"; cat "$TMP/err"; false; }
	escapee_gone "$TMP/sid"
}

@test "bisect --kernel-tree: a tree it cannot put back is said, even with -q, and not said to be back" {
	tree_of 2 4
	sp --db "$PG" db init >/dev/null
	head=$(git rev-parse HEAD)
	# the build takes git's index lock, as a git command left running would,
	# so the checkout back fails
	"$SP" --db "$PG" -q bisect command -p "cmd=$TMP/kprog" --kernel-tree "$TMP/tree" \
		--machine m1 --good HEAD~3 --bad HEAD \
		--build "touch .git/index.lock '$TMP/building';
			 while [ ! -e '$TMP/go' ]; do sleep 0.05; done" \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for test -e "$TMP/building"
	interrupt_and_wait "$PID" touch "$TMP/go"
	PID=
	[ "$rc" -eq 130 ] || { echo "rc=$rc"; cat "$TMP/err"; false; }
	run cat "$TMP/err"
	[ "${#lines[@]}" -eq 2 ] || { echo "$output"; false; }
	[[ "${lines[0]}" == "schedperf: bisect: cannot put the kernel tree $TMP/tree back on "* ]]
	[[ "${lines[0]}" == *" back on master: "* ]]
	[[ "${lines[0]}" == *"(check it out yourself: git -C $TMP/tree checkout master)" ]]
	[[ "${lines[1]}" == "schedperf: interrupted: "* ]]
	refute grep -q "tree is back" "$TMP/err"
	rm .git/index.lock
	git checkout -q master
	[ "$(git rev-parse HEAD)" = "$head" ]
}
