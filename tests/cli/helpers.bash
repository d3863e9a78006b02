# Shared set-up for the command-line tests: a fresh store per test.

# The machine's knob lock and journal (src/runner/knob_journal.h) are in
# /run; SCHEDPERF_TEST_RUNDIR, for schedperf's tests only, gives each test
# (and each file's setup_file) a directory of its own, so that tests running
# at once on this machine, in this checkout or another, never share them.
# tests/cli/ab.bats checks the default place in a mount namespace of its own.
# (tests/golden/make.sh sources this file outside bats: no directory there.)
if [ -n "${BATS_TEST_TMPDIR:-${BATS_FILE_TMPDIR:-}}" ]; then
	export SCHEDPERF_TEST_RUNDIR="${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}"
fi

# Debian's python3 (install-deps.sh installs it with SciPy) for JSON checks:
# it starts in about 60 ms where a pyenv shim first on PATH takes 600 ms.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3
setup() {
	TMP=$(mktemp -d)
	export SCHEDPERF_DB="$TMP/store.db"
	SP="$SCHEDPERF"
}

teardown() {
	rm -rf "$TMP"
}

# Run schedperf; bats' `run` captures status and output.
sp() {
	"$SP" "$@"
}

env_of() {	# env_of RUN KEY: the value of KEY in RUN's batch environment
	sp export "$1" | "$PYTHON" -c 'import json, sys
d = json.load(sys.stdin)["runs"][-1]["environment"]
print(d.get(sys.argv[1], "(absent)"))' "$2"
}

# The names a command's option of choices takes (a --format, --style),
# as its usage line lists them from their registry (src/util/registry.h):
# `choices compare style` prints "mmtests mmtests-classic lkp benchstat".
# A test that goes through every one reads them here, never from a copy.
choices() {
	"${SP:-$SCHEDPERF}" "$1" --help | sed -n "s/.*\[--$2 \([^] ]*\)\].*/\1/p" |
		head -1 | tr '|' ' '
}

# An error is one line on stderr in the form of doc/design.md.
assert_one_line_error() {
	[ "${#lines[@]}" -eq 1 ] || { echo "expected one line, got: $output"; return 1; }
	[[ "${lines[0]}" == schedperf:* ]] || { echo "no prefix: $output"; return 1; }
}

json() {	# json EXPR FILE: evaluate a Python expression on the parsed JSON in FILE as d
	"$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[2])); print($1)" "$1" "$2"
}

# same_json A B: files A and B hold equal JSON values: numbers equal as
# doubles, however many digits print them.
same_json() {
	"$PYTHON" -c 'import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:]); sys.exit(a != b)' \
		"$1" "$2" || { echo "$1 and $2 differ"; return 1; }
}

# refute COMMAND...: fails when COMMAND succeeds. Write this, never
# `! COMMAND`: errexit ignores a negated command, so in bats `!` fails a
# test only on its last line. For a pipeline, feed the input with <<<.
refute() {
	if "$@"; then
		echo "expected to fail: $*"
		return 1
	fi
	return 0
}

# wait_for COMMAND...: run COMMAND until it succeeds. It waits for an
# event, not for a time: the limit (WAIT_LIMIT seconds, 300 by default,
# the slowest sanitizer build on a loaded machine) only ends a test whose
# event never comes.
wait_for() {
	local deadline=$((SECONDS + ${WAIT_LIMIT:-300}))

	until "$@"; do
		if [ "$SECONDS" -ge "$deadline" ]; then
			echo "gave up waiting for: $*"
			return 1
		fi
		sleep 0.05
	done
}

# import_named_at NAME STARTED [NAME STARTED]...: import one batch of each
# run NAME started at STARTED, on machine h: pipe's metric lo, samples 1 and 2.
import_named_at() {
	"$PYTHON" -c 'import json, sys
a = sys.argv[1:]
runs = [{"name": n, "started": t, "complete": True,
         "environment": {"machine.hostname": "h", "machine.id": "a" * 32},
         "benchmarks": [{"workload": "pipe", "params": {},
                         "metrics": [{"name": "lo", "unit": "usec", "better": "lower",
                                      "samples": [1.0, 2.0]}]}]} for n, t in zip(a[::2], a[1::2])]
json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)' "$@" | sp import - >/dev/null
}

# import_unit_clash: what a hostile tester imported, three runs of workload
# w whose metric m is another metric in each: a in s, lower is better; b in
# s, higher is better; c in ms (its values 1, a's 1.5: "33 % better" were
# they compared). They are three rows or series, never compared.
import_unit_clash() {
	"$PYTHON" -c 'import json, sys
runs = [{"name": n, "started": "2026-01-01T00:00:0%dZ" % i, "complete": True,
         "environment": {"machine.hostname": "h", "machine.id": "a" * 32},
         "benchmarks": [{"workload": "w", "params": {},
                         "metrics": [{"name": "m", "unit": u, "better": b,
                                      "samples": [x, x + 0.01, x - 0.01, x + 0.02, x]}]}]}
        for i, (n, u, b, x) in enumerate([("a", "s", "lower", 1.5), ("b", "s", "higher", 1.5),
                                          ("c", "ms", "lower", 1.0)])]
json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)' | sp import - >/dev/null
}

# stored_iterations: iterations committed to the store so far (0 before it exists).
stored_iterations() {
	sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations' 2>/dev/null || echo 0
}

# stop_runner_after N PID: stop the schedperf process PID (SIGSTOP, waited
# for) once it has committed N iterations, and succeed; a stopped runner can
# commit or finish nothing more, so a check of the store afterwards sees
# exactly what a signal sent now finds. Fails, with PID running again, while
# fewer are committed; fails for good when PID has ended.
stop_runner_after() {
	local n=$1 pid=$2 state

	kill -STOP "$pid" 2>/dev/null || { echo "the run ended before $n iterations"; return 2; }
	# the signal takes effect asynchronously: wait for the state to say so
	until state=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null) &&
	      [ "$state" = T ] || [ "$state" = t ]; do
		[ -n "$state" ] && [ "$state" != Z ] || { echo "the run ended"; return 2; }
	done
	[ "$(stored_iterations)" -ge "$n" ] && return 0
	kill -CONT "$pid"
	return 1
}

# wait_stopped_after N PID: stop_runner_after, until it succeeds; fails
# at once when the run ends first (or after WAIT_LIMIT, as wait_for).
wait_stopped_after() {
	local deadline=$((SECONDS + ${WAIT_LIMIT:-300})) rc

	while :; do
		rc=0
		stop_runner_after "$1" "$2" || rc=$?
		[ "$rc" -ne 0 ] || return 0
		[ "$rc" -ne 2 ] || return 1
		[ "$SECONDS" -lt "$deadline" ] || { echo "gave up waiting for $1 iterations"; return 1; }
		sleep 0.05
	done
}

# no_process_has WORD: no process's command line holds WORD (a path of this
# test's own, so that another test suite running on the machine never matches).
no_process_has() {
	! pgrep -f -- "$1" >/dev/null
}

# process_on_this_store PATTERN: some process whose command line matches
# PATTERN works on this test's store ($SCHEDPERF_DB in its environment):
# another test suite on the machine may run the same command on its own.
process_on_this_store() {
	local pid

	for pid in $(pgrep -f -- "$1"); do
		tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null |
			grep -qxF "SCHEDPERF_DB=$SCHEDPERF_DB" && return 0
	done
	return 1
}

# descendants PID: the processes below PID, children first.
descendants() {
	local pid

	for pid in $(pgrep -P "$1"); do
		echo "$pid"
		descendants "$pid"
	done
}

# escaping_script FILE: a script, run as `sh FILE PIDFILE`, that starts a
# sleeper in a session of its own (setsid: out of its process group, which
# killing the group misses), waits until the sleeper wrote its pid to
# PIDFILE, and hangs. The sleeper holds none of bats's files.
escaping_script() {
	cat >"$1" <<'EOF'
setsid sh -c 'echo $$ >"$1.new"; mv "$1.new" "$1"; exec sleep 600' sh "$1" \
	</dev/null >/dev/null 2>&1 3>&- &
until [ -s "$1" ]; do sleep 0.01; done
exec sleep 600
EOF
}

# escapee_gone PIDFILE: wait until the sleeper of escaping_script whose pid
# is in PIDFILE has ended; past wait_for's limit, kill it and fail.
escapee_gone() {
	wait_for all_gone "$(cat "$1")" || { escapee_kill "$1"; return 1; }
}

# escapee_kill PIDFILE: for a teardown: kill the sleeper of escaping_script
# whose pid is in PIDFILE, if it still lives (and is still a sleep).
escapee_kill() {
	local pid

	[ -s "$1" ] || return 0
	pid=$(cat "$1")
	[ "$(cat "/proc/$pid/comm" 2>/dev/null)" != sleep ] || kill -9 "$pid" 2>/dev/null || true
}

# all_gone PID...: none of the processes PID is alive (a zombie has ended;
# only its parent has not looked yet).
all_gone() {
	local pid state

	for pid in "$@"; do
		state=$(stat_field "$pid" 3)
		[ -z "$state" ] || [ "$state" = Z ] || return 1
	done
}

# stat_field PID N: field N of /proc/PID/stat (3 the state, 5 the process
# group; schedperf's name, field 2, has no spaces); nothing, and success,
# once PID is gone: an orphan's zombie is reaped whenever its new parent
# gets to it, and a test's errexit must not take that for a failure.
stat_field() {
	awk -v n="$2" '{ print $n }' "/proc/$1/stat" 2>/dev/null || true
}

# interrupt_and_wait [-SIGNAL] PID [COMMAND...]: send the test's background
# process PID SIGINT (or SIGNAL), then run COMMAND (what lets PID go on from
# a gate where the signal was to find it), wait for PID to end (bounded as
# wait_for is) and reap it; rc is its exit status.
interrupt_and_wait() {
	local sig=INT pid

	case $1 in -*) sig=${1#-}; shift ;; esac
	pid=$1
	shift
	kill -"$sig" "$pid" || return 1
	[ "$#" -eq 0 ] || "$@" || return 1
	wait_for all_gone "$pid" || return 1
	rc=0
	wait "$pid" || rc=$?
}

# iteration_child RUNNER: sets child to the process in which the run RUNNER
# runs its iteration's workload, and group to that iteration's process group
# (led by its guardian, RUNNER's other child); fails while none runs. The
# child is below its holder, a child of RUNNER that stays in RUNNER's own
# group; a child still in that group has not joined the iteration's yet.
iteration_child() {
	local pid pgid own holders=

	child= group=
	own=$(stat_field "$1" 5)
	for pid in $(pgrep -P "$1"); do
		[ "$(stat_field "$pid" 5)" != "$own" ] || holders="$holders $pid"
	done
	for pid in $(for h in $holders; do pgrep -P "$h"; done) $(pgrep -P "$1"); do
		pgid=$(stat_field "$pid" 5)
		[ -n "$pgid" ] && [ "$pgid" != "$pid" ] && [ "$pgid" != "$own" ] || continue
		child=$pid group=$pgid
		return 0
	done
	return 1
}

# hold_iteration RUNNER: stop the process group of the iteration that the
# run RUNNER waits for and set held to it; a held run commits nothing and
# holds no lock on the store, since it waits for its child outside any
# transaction. Fails when no iteration is under way just now.
# release_iteration lets it go on.
hold_iteration() {
	held=
	iteration_child "$1" || return 1
	stop_group "$group" "$child" || return 1
	held=$group
}

# release_iteration: let the held group go on (it may be gone: a runner
# stopped by SIGTERM kills its iteration's group itself).
release_iteration() {
	kill -CONT -- "-$held" 2>/dev/null || true
	held=
}

# stop_group GROUP PID: stop process group GROUP and wait until its member
# PID says it is stopped; fails, with the group let go, when PID ends first
# (a process that was ending, not one that a test may hold).
stop_group() {
	local state

	kill -STOP -- "-$1" 2>/dev/null || return 1
	until state=$(stat_field "$2" 3) && { [ "$state" = T ] || [ "$state" = t ]; }; do
		if [ -z "$state" ] || [ "$state" = Z ]; then
			kill -CONT -- "-$1" 2>/dev/null
			return 1
		fi
	done
}

# hold_iteration_after N PID: hold_iteration once N iterations are stored.
hold_iteration_after() {
	hold_iteration "$2" || return 1
	[ "$(stored_iterations)" -ge "$1" ] && return 0
	release_iteration
	return 1
}

# kill9_after N PID: stop the run PID once N iterations are stored, kill -9
# it there and reap it (exit 137). Its iteration's process group is killed
# too, not left to the guardian: the test goes on at once, and a task that
# outlived it would hold bats' output open until it ended.
kill9_after() {
	local rc=0

	wait_stopped_after "$1" "$2" || return 1
	iteration_child "$2" || group=
	kill -9 "$2"
	wait "$2" || rc=$?
	[ -z "$group" ] || kill -KILL -- "-$group" 2>/dev/null || true
	[ "$rc" -eq 137 ] || { echo "the run ended with $rc, not by kill -9"; return 1; }
}

# need_rt: skip unless this process may use SCHED_FIFO. Root may, except in
# a cpu cgroup without real-time runtime (cpu.rt_runtime_us 0), where chrt
# fails with EPERM whatever the test does.
need_rt() {
	[ "$(id -u)" = 0 ] || skip "needs root for SCHED_FIFO"
	chrt -f 1 true 2>/dev/null || skip "SCHED_FIFO is not permitted here (a cgroup without real-time runtime)"
}

# A CPU burner with a name of its own (comm is the name it was executed by),
# on CPU 0 under SCHED_FIFO, that burns for 80 ms of wall time and sleeps
# for 20, by the clock, so the same on any machine: while it burns no
# ordinary task runs on CPU 0, so it takes 80 % of CPU 0 from an iteration
# there that spans a few of its periods (pipe_loops sizes one so), however
# busy the machine is, and the workload still progresses while it sleeps
# (and stays below the RT throttle's 95 %). Others can take at most the
# iteration's wall time on both CPUs less the burner's 80 % and the
# iteration's own 20 %: at most one other task takes more than the burner,
# so it is always among the three culprits named. It holds $CPU0_LOCK until
# stop_burner: the real-time work of another suite running at once (its
# burner, the no-false-flag test's workload at priority 50) would take
# CPU 0 from this one's iterations too, or from the burner itself.
start_burner() {
	ln -sf "$(command -v bash)" "$TMP/cpuburner"
	exec {CPU0_FD}>"$CPU0_LOCK"
	flock "$CPU0_FD"
	taskset -c 0 chrt -f 1 "$TMP/cpuburner" -c 'while :; do
		end=$((${EPOCHREALTIME/./} + 80000))
		while ((${EPOCHREALTIME/./} < end)); do :; done
		sleep 0.02
	done' &
	BURNER=$!
}

# An ordinary task (SCHED_OTHER) on CPU 0 that never sleeps.
start_hog() {
	ln -sf "$(command -v bash)" "$TMP/cpuburner"
	taskset -c 0 "$TMP/cpuburner" -c 'while :; do :; done' &
	BURNER=$!
}

# Real-time work on CPU 0 (pipe_loops and the no-false-flag test at
# priority 50, a burner from start_burner to stop_burner) runs under
# `flock "$CPU0_LOCK"`, never at once with another such
# command on this machine (another checkout's test run, a sanitizer
# build's): two of them would take CPU 0 from each other. It waits for the
# other to end, not for a time.
CPU0_LOCK="${TMPDIR:-/tmp}/schedperf-tests-cpu0.lock"

# A loop of getppid calls runs under `flock "$GETPPID_LOCK"`: the
# profile-system test holds it while it profiles every task on the machine,
# so that another checkout's test run pounding getppid at the same time
# does not show in the profile it takes as the quiet one.
GETPPID_LOCK="${TMPDIR:-/tmp}/schedperf-tests-getppid.lock"

# pipe_loops SECONDS: the loops of `pipe --cpus 0` that take SECONDS of CPU
# 0 on this machine, measured alone there (SCHED_FIFO: root), so that an
# iteration is long enough for the burner and the interference floor
# whatever the machine's speed.
pipe_loops() {
	local usec
	SCHEDPERF_DB="$TMP/calibrate.db" flock "$CPU0_LOCK" chrt -f 50 "$SP" run pipe -p loops=2000 --cpus 0 \
		-i 1 --name calibrate --quiet --no-monitors
	usec=$(SCHEDPERF_DB="$TMP/calibrate.db" "$SP" export calibrate |
		"$PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["runs"][0]["benchmarks"][0]["metrics"][0]["samples"][0])')
	"$PYTHON" -c 'import math,sys; print(max(1000, math.ceil(float(sys.argv[1]) * 1e6 / float(sys.argv[2]))))' \
		"$1" "$usec"
}

stop_burner() {
	if [ -n "${BURNER:-}" ]; then
		kill "$BURNER" 2>/dev/null || true
		wait "$BURNER" 2>/dev/null || true
		BURNER=
	fi
	# the lock is the open file's: unlocked here, whoever else holds it open
	if [ -n "${CPU0_FD:-}" ]; then
		flock -u "$CPU0_FD"
		exec {CPU0_FD}>&-
		CPU0_FD=
	fi
}

# PostgreSQL: tests/run.sh starts one throwaway server for every test
# ($SCHEDPERF_TEST_PGHOST, its socket directory); a .bats file run alone
# starts its own in setup_file with pg_setup_file.
pg_setup_file() {
	[ -z "${SCHEDPERF_TEST_PGHOST:-}" ] || return 0
	PG_OWN=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
	"$BATS_TEST_DIRNAME/../pg-server.sh" start "$PG_OWN" >/dev/null
	export PG_OWN SCHEDPERF_TEST_PGHOST=$PG_OWN
}

pg_teardown_file() {
	[ -z "${PG_OWN:-}" ] || "$BATS_TEST_DIRNAME/../pg-server.sh" stop "$PG_OWN"
}

# setup_file and teardown_file of a .bats file whose every test uses PostgreSQL.
pg_file() {
	setup_file() { pg_setup_file; }
	teardown_file() { pg_teardown_file; }
}

# setup and teardown of a .bats file whose tests each get a new empty
# database, $PGDB, at URL $PG (and an SQLite store in $TMP as always).
pg_each_test() {
	setup() {
		TMP=$(mktemp -d)
		export SCHEDPERF_DB="$TMP/store.db"
		SP="$SCHEDPERF"
		PGDB=$(pg_new_db)
		PG=$(pg_url "$PGDB")
	}
	teardown() {
		stop_burner
		# a run a failed test left, and its iteration if the test held it
		[ -z "${held:-}" ] || release_iteration
		[ -z "${runner:-}" ] || kill -9 "$runner" 2>/dev/null || true
		psql_in postgres "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" || true
		rm -rf "$TMP"
	}
}

pg_url() {	# pg_url DATABASE [USER]
	printf 'postgresql:///%s?host=%s&user=%s' "$1" "$SCHEDPERF_TEST_PGHOST" "${2:-postgres}"
}

psql_in() {	# psql_in DATABASE SQL: run SQL as the server's superuser
	psql -qXAt -v ON_ERROR_STOP=1 "$(pg_url "$1")" -c "$2"
}

# A server of the test's own, which it stops and starts again (an upgrade's
# restart) or freezes (a server that no longer answers) without touching
# the other tests' one: own_pg_start sets OWN (its directory) and OWN_URL
# (its "postgres" database); own_pg_stop, in teardown, thaws and removes it.
own_pg_start() {
	OWN=$(mktemp -d /tmp/schedperf-pg.XXXXXX)
	OWN_URL=$("$BATS_TEST_DIRNAME/../pg-server.sh" start "$OWN")
}

own_pg_sql() {	# own_pg_sql SQL: its answer, from the test's own server
	psql -qXAt -v ON_ERROR_STOP=1 "$OWN_URL" -c "$1"
}

# own_pg_freeze: stop the server's processes (SIGSTOP), which then take
# connections and queries and answer none; own_pg_thaw lets them go on.
own_pg_freeze() {
	local postmaster

	postmaster=$(head -1 "$OWN/data/postmaster.pid")
	FROZEN="$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
	kill -STOP $FROZEN
}

own_pg_thaw() {
	[ -z "${FROZEN:-}" ] || kill -CONT $FROZEN 2>/dev/null || true
	FROZEN=
}

own_pg_stop() {
	[ -n "${OWN:-}" ] || return 0
	own_pg_thaw
	"$BATS_TEST_DIRNAME/../pg-server.sh" stop "$OWN" || true
	OWN=
}

pg_new_db() {	# a new empty database for this test; prints its name
	local name="t_$$_${BATS_TEST_NUMBER}_$RANDOM"
	psql_in postgres "CREATE DATABASE $name"
	echo "$name"
}

# gated_run ARGS...: a run in the background ($runner, its stderr in
# $TMP/err) of a command whose iterations the test lets through one at a
# time: iteration K (counted from 1, extra ones of --profile-iterations
# included) says it arrived (arrived K), then waits until let_go K STATUS
# gives it its exit status (1: it fails), or until $TMP is gone. Between
# the two the run writes nothing, so a lock taken then is held across the
# run's next write after that iteration. The run holds open none of the
# fifos through which tests hold a store's lock (fds 5 and 9), which would
# keep the holder from ending.
gated_run() {
	cat >"$TMP/gate.sh" <<'EOF'
d=$(dirname "$0")
echo >>"$d/arrived"
k=$(wc -l <"$d/arrived")
until [ -e "$d/go.$k" ] || [ ! -d "$d" ]; do sleep 0.01; done
exit "$(cat "$d/go.$k")"
EOF
	SCHEDPERF_BUSY_TIMEOUT_MS=300 "$SP" run command -p cmd="sh $TMP/gate.sh" "$@" -q \
		>"$TMP/out" 2>"$TMP/err" 3>&- 5>&- 9>&- &
	runner=$!
}

arrived() {	# arrived K: iteration K of gated_run waits to be let go
	[ "$(cat "$TMP/arrived" 2>/dev/null | wc -l)" -ge "$1" ]
}

let_go() {	# let_go K STATUS: iteration K of gated_run ends with STATUS
	echo "$2" >"$TMP/go.tmp"
	mv "$TMP/go.tmp" "$TMP/go.$1"
}

# runner_ends STATUS: the background run $runner ends (waited for, then
# reaped) with exit STATUS; else its stderr ($TMP/err) says why.
runner_ends() {
	local rc=0

	wait_for all_gone "$runner"
	wait "$runner" || rc=$?
	[ "$rc" -eq "$1" ] || { echo "exit $rc, not $1: $(cat "$TMP/err")"; return 1; }
}

noted() {	# noted WHAT: the run said once that it waits for the lock to store WHAT
	[ "$(grep -c "waiting for the store's write lock, held by another process, to store $1 (" \
		"$TMP/err")" -eq 1 ]
}

# can_sample: skip a test of the profile monitor where this user may not
# sample the kernel (root here, or kernel.perf_event_paranoid <= 1).
can_sample() {
	[ "$(id -u)" -eq 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ] ||
		skip "this user may not sample the kernel"
}

# mixed_batches FILE: schedperf-results/1 of two runs whose batches hold
# benchmarks of every shape a store reads back, side by side: no samples
# (every iteration failed), failures beside samples, a metric only some
# have, several repetitions, warm-ups, and iterations with and without
# interference and culprits, between benchmarks that have none.
mixed_batches() {
	"$PYTHON" - "$1" <<'PY'
import json, sys
def metric(name, samples, warmup=None, better="lower", reps=None):
    m = {"name": name, "unit": "usec", "better": better, "source": "workload", "samples": samples}
    if warmup:
        m["warmup"] = warmup
    if reps:
        m["repetitions"] = reps
    return m
def its(n, warm=1, disturbed=()):
    out = []
    for k in range(warm + n):
        it = {"cpu_taken": 0.0, "cpu_steal": 0.0, "cpu_available": 1.0,
              "started": 1e9 + k, "ended": 1e9 + k + 0.5}
        if k < warm:
            it["warmup"] = True
        if k - warm in disturbed:
            it.update(cpu_taken=0.5, disturbed=True,
                      culprits=[{"name": "stress-ng", "pid": 4242 + k, "cpu": 0.25},
                                {"name": "kworker/0:1", "pid": 7, "cpu": 0.125}])
        out.append(it)
    return out
def batch(name, day, shift):
    s = lambda *v: [x + shift for x in v]
    b = [{"workload": "pipe", "params": {"loops": "10"},
          "metrics": [metric("usec_per_op", s(5, 6, 7)), metric("ops", s(9, 8, 7), better="higher")]},
         {"workload": "pipe", "params": {"loops": "20"}, "failed_iterations": 3,
          "failures": ["timed out after 1 s; its process group was killed",
                       "the workload failed: Resource temporarily unavailable",
                       "timed out after 1 s; its process group was killed"], "metrics": []},
         {"workload": "messaging", "params": {"groups": "1"},
          "metrics": [metric("usec_per_op", s(1, 2, 3, 4), warmup=[9]),
                      metric("only_here", s(4, 3, 2, 1), warmup=[8])],
          "iterations": its(4, disturbed=(1, 3))},
         {"workload": "messaging", "params": {"groups": "2"}, "failed_iterations": 1,
          "failures": ["killed by signal 11 (Segmentation fault)"],
          "metrics": [metric("usec_per_op", s(2, 2.5))]},
         {"workload": "futex-wake", "params": {},
          "metrics": [metric("usec", s(1, 1.5, 2, 2.5, 3, 3.5), reps=3)],
          "iterations": its(2, warm=0)},
         {"workload": "pipe", "params": {"loops": "30"}, "failed_iterations": 1,
          "failures": ["the workload failed: Cannot allocate memory"],
          "metrics": [metric("usec_per_op", s(3, 4), warmup=[5])],
          "iterations": its(2, disturbed=(0,))}]
    return {"name": name, "started": "2026-03-%02dT00:00:00Z" % day, "complete": True,
            "environment": {"kernel.release": name}, "benchmarks": b}
runs = [batch("a", 1, 0), batch("a", 2, 0.5), batch("b", 3, 1)]
json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
PY
}
