#!/usr/bin/env bats
# The classes of failure behind the hostile cases that got through the first
# hardening: statistics whose memory grew with the square of the samples,
# runs killed by any signal, silent deaths by resource limits, names and
# values that are not UTF-8, and files that are not regular. Each test
# covers a class (every signal, every entry point, every statistic), not
# only the case that was found. None depends on the machine's speed.

load helpers

# big_runs N FILE: a schedperf-results/1 file of two runs "r0" and "r1" of
# one benchmark with N lognormal samples each, the second 2 % slower.
big_runs() {
	"$PYTHON" - "$1" >"$2" <<-'PY'
	import json, random, sys
	n = int(sys.argv[1])
	rng = random.Random(n)
	runs = []
	for r, scale in enumerate((1.0, 1.02)):
	    runs.append({"name": "r%d" % r, "started": "2026-01-01T00:00:0%dZ" % r,
	                 "complete": True, "environment": {"kernel.release": "k"},
	                 "benchmarks": [{"workload": "w", "params": {}, "metrics": [
	                     {"name": "seconds", "unit": "s", "better": "lower",
	                      "samples": [scale * rng.lognormvariate(0, 0.3) for _ in range(n)]}]}]})
	json.dump({"schema": "schedperf-results/1", "runs": runs}, sys.stdout)
	PY
}

# ASan reserves terabytes of address space, so no ulimit -v applies to it.
skip_under_asan() {
	[ -z "${ASAN_OPTIONS:-}" ] || skip "ulimit -v cannot bound an ASan build"
}

@test "compare: every statistic of 20,000 samples a side fits in 1 GB of address space" {
	skip_under_asan
	big_runs 20000 "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	# the pairwise differences alone took 3.2 GB; every style computes every
	# statistic (Welch, Mann-Whitney, bootstrap, Hodges-Lehmann, medians)
	run bash -c 'ulimit -v 1000000 && exec "$@"' - "$SP" compare r0 r1
	[ "$status" -eq 0 ] || { echo "compare: $status: $output"; return 1; }
	run bash -c 'ulimit -v 1000000 && exec "$@" >"$0"' "$TMP/cmp.json" \
		"$SP" compare r0 r1 --format json
	[ "$status" -eq 0 ] || { echo "compare --format json: $status: $output"; return 1; }
	# the 2 % slowdown found, with both intervals computed
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/cmp.json")" = worse ]
	json 'd["rows"][0]["runs"][1]["ratio_ci"][0] > 1 and d["rows"][0]["runs"][1]["hl_ci"][0] > 0' \
		"$TMP/cmp.json" | grep -qx True
}

@test "compare: 60,000 samples a side (the bootstrap's large-sample limit) fit in 500 MB" {
	skip_under_asan
	big_runs 60000 "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	# the differences would take 29 GB; O(n) memory is a few megabytes
	run bash -c 'ulimit -v 500000 && exec "$@" >"$0"' "$TMP/cmp.json" \
		"$SP" compare r0 r1 --format json
	[ "$status" -eq 0 ] || { echo "compare: $status: $output"; return 1; }
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/cmp.json")" = worse ]
	json '1 < d["rows"][0]["runs"][1]["ratio_ci"][0] < d["rows"][0]["runs"][1]["ratio_ci"][1] < 1.04' \
		"$TMP/cmp.json" | grep -qx True
}

# live_in_group PGID: how many processes of the group are alive (zombies,
# which hold nothing but their exit status, are not counted).
live_in_group() {
	pgrep -c -g "$1" -r R,S,D,T,t,W,I || true
}

# group_of RUNNER: the process group of RUNNER's iteration, led by the
# guardian (the child of RUNNER that leads its own group), once it exists.
group_of() {
	local pid stat
	for pid in $(pgrep -P "$1"); do
		read -r stat <"/proc/$pid/stat" 2>/dev/null || continue
		set -- ${stat##*) }
		[ "$3" = "$pid" ] && echo "$pid" && return
	done
	return 0
}

# start_iteration MIN ARGS...: start `schedperf run ARGS` in the background,
# its workload on CPU 0 (so that the checks here are not starved), and wait
# until its iteration's group has at least MIN live processes; sets RUNNER
# and GROUP. Waits for the event, not for a time: only a run that ends
# first fails it.
start_iteration() {
	local min=$1
	shift
	"$SP" run "$@" --cpus 0 -q 2>"$TMP/err" 3>&- &
	RUNNER=$!
	GROUP=
	while :; do
		kill -0 "$RUNNER" 2>/dev/null || { echo "the run ended first: $(cat "$TMP/err")"; return 1; }
		[ -n "$GROUP" ] || GROUP=$(group_of "$RUNNER")
		[ -n "$GROUP" ] && [ "$(live_in_group "$GROUP")" -ge "$min" ] && return 0
		sleep 0.05
	done
}

# group_dies: every process of $GROUP ends, soon after the runner did (the
# guardian wakes at once; 60 s only bounds a broken build).
group_dies() {
	for _ in $(seq 1200); do
		kill -0 -- "-$GROUP" 2>/dev/null || return 0
		[ "$(live_in_group "$GROUP")" -eq 0 ] && return 0
		sleep 0.05
	done
	echo "left running in group $GROUP:"
	ps -e -o pid=,pgid=,stat=,cmd= | awk -v g="$GROUP" '$2 == g'
	return 1
}

@test "run: every terminating signal ends the run and the tasks of its iteration with it" {
	local sig status
	for sig in KILL INT TERM HUP QUIT USR1 USR2 ALRM PIPE XCPU VTALRM PROF IO PWR STKFLT \
		   RTMIN RTMIN+5 RTMAX; do
		# messaging forks 4 senders and 4 receivers: grandchildren of the runner
		start_iteration 10 messaging -p groups=1 -p fds=4 -p loops=10000000 -i 2 \
			--no-monitors --name "sig-$sig"
		kill -s "$sig" "$RUNNER"
		status=0
		wait "$RUNNER" || status=$?
		group_dies
		[ "$status" -eq $((128 + $(kill -l "$sig"))) ] ||
			{ echo "SIG$sig: exit $status: $(cat "$TMP/err")"; return 1; }
		if [ "$sig" != KILL ]; then
			# the run ended as for Ctrl-C: one line, the batch incomplete
			run cat "$TMP/err"
			assert_one_line_error
			[[ "$output" == *"interrupted"*"marked incomplete"* ]]
		fi
		[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT b.complete FROM batches b JOIN runs r
			ON r.id = b.run_id WHERE r.name = 'sig-$sig'")" = 0 ]
	done
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
}

@test "run: SIGKILL of the runner leaves no task of any kind of workload" {
	# threads in one process, exec'd helpers, fork+exec, forked processes
	start_iteration 2 messaging -p groups=1 -p fds=4 -p loops=10000000 -p mode=thread -i 2 \
		--no-monitors --name threads
	kill -KILL "$RUNNER"
	wait "$RUNNER" || true
	group_dies
	start_iteration 3 spawn -p count=10000000 -p parallel=8 -i 2 --no-monitors --name spawn
	kill -KILL "$RUNNER"
	wait "$RUNNER" || true
	group_dies
	start_iteration 3 aim9 -p test=exec -p duration=3600 -i 2 --no-monitors --name exec
	kill -KILL "$RUNNER"
	wait "$RUNNER" || true
	group_dies
	start_iteration 3 aim9 -p test=fork -p duration=3600 -i 2 --no-monitors --name fork
	kill -KILL "$RUNNER"
	wait "$RUNNER" || true
	group_dies
}

# limited BLOCKS CMD...: CMD under a file-size limit of BLOCKS kilobytes
limited() {
	local blocks=$1
	shift
	bash -c 'ulimit -f "$0" && exec "$@"' "$blocks" "$@"
}

@test "a file-size limit: run, import and export end with one line and exit 3, nothing left" {
	# run: the store outgrows the limit while iterations are committed
	run limited 200 "$SP" run pipe -p loops=100 -i 1000 --name big
	[ "$status" -eq 3 ] || { echo "run: $status: $output"; return 1; }
	assert_one_line_error
	[[ "$output" == *"ulimit -f"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')" -gt 0 ]
	# import: a new store that cannot hold the file
	big_runs 20000 "$TMP/big.json"
	run limited 100 "$SP" --db "$TMP/new.db" import "$TMP/big.json"
	[ "$status" -eq 3 ] || { echo "import: $status: $output"; return 1; }
	assert_one_line_error
	[[ "$output" == *"ulimit -f"* ]]
	# export: to a file (written whole or not at all) and to standard output
	sp import "$TMP/big.json" >/dev/null
	run limited 100 "$SP" export r0 r1 -o "$TMP/out/x.json"
	[ "$status" -eq 2 ] || [ "$status" -eq 3 ]	# no such directory yet
	mkdir "$TMP/out"
	run limited 100 "$SP" export r0 r1 -o "$TMP/out/x.json"
	[ "$status" -eq 3 ] || { echo "export -o: $status: $output"; return 1; }
	assert_one_line_error
	[[ "$output" == *"ulimit -f"* ]]
	[ -z "$(ls -A "$TMP/out")" ]
	run bash -c 'ulimit -f 100 && exec "$@" >"$0"' "$TMP/out/y.json" "$SP" export r0 r1
	[ "$status" -eq 3 ] || { echo "export: $status: $output"; return 1; }
	assert_one_line_error
	[[ "$output" == *"ulimit -f"* ]]
}

@test "export -o: a signal while it writes leaves neither the file nor a temporary" {
	command -v strace >/dev/null || skip "strace is missing (scripts/install-deps.sh)"
	local sig tracer pid status
	big_runs 20000 "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	mkdir "$TMP/out"
	for sig in INT TERM HUP QUIT USR1 PIPE ALRM KILL; do
		# every write after the first two waits 0.2 s: the export is in the
		# middle of its file when the signal comes, however fast the machine
		strace -f -o /dev/null -e trace=write -e inject=write:delay_enter=200000:when=3+ \
			"$SP" export r0 r1 -o "$TMP/out/x.json" 2>"$TMP/err" 3>&- &
		tracer=$!
		pid=
		while :; do
			kill -0 "$tracer" 2>/dev/null || { echo "export ended: $(cat "$TMP/err")"; return 1; }
			[ -n "$pid" ] || pid=$(pgrep -P "$tracer" || true)
			[ -n "$pid" ] && ls -l "/proc/$pid/fd" 2>/dev/null | grep -q "$TMP/out/" && break
			sleep 0.05
		done
		kill -s "$sig" "$pid"
		status=0
		wait "$tracer" || status=$?
		[ "$status" -eq $((128 + $(kill -l "$sig"))) ] || { echo "SIG$sig: $status"; return 1; }
		[ -z "$(ls -A "$TMP/out")" ] || { echo "SIG$sig left: $(ls -A "$TMP/out")"; return 1; }
		if [ "$sig" != KILL ]; then
			run cat "$TMP/err"
			assert_one_line_error
			[[ "$output" == *"'$TMP/out/x.json' was not written"* ]]
		fi
	done
}
