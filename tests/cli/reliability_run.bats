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

# compare_big N KB: import two runs of N samples each, compare them under
# ulimit -v KB in the default style and in JSON (into $TMP/cmp.json), and
# check that the 2 % slowdown is found with both intervals computed.
compare_big() {
	local n=$1 kb=$2
	skip_under_asan
	big_runs "$n" "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	run bash -c 'ulimit -v "$0" && exec "$@"' "$kb" "$SP" compare r0 r1
	[ "$status" -eq 0 ] || { echo "compare: $status: $output"; return 1; }
	run bash -c 'ulimit -v "$0" && out=$1 && shift && exec "$@" >"$out"' "$kb" \
		"$TMP/cmp.json" "$SP" compare r0 r1 --format json
	[ "$status" -eq 0 ] || { echo "compare --format json: $status: $output"; return 1; }
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/cmp.json")" = worse ]
	json '1 < d["rows"][0]["runs"][1]["ratio_ci"][0] < d["rows"][0]["runs"][1]["ratio_ci"][1] < 1.04 and d["rows"][0]["runs"][1]["hl_ci"][0] > 0' \
		"$TMP/cmp.json" | grep -qx True
}

@test "compare: every statistic of 20,000 samples a side fits in 1 GB of address space" {
	# the pairwise differences alone took 3.2 GB; every style computes every
	# statistic (Welch, Mann-Whitney, bootstrap, Hodges-Lehmann, medians)
	compare_big 20000 1000000
}

@test "compare: 60,000 samples a side (the bootstrap's large-sample limit) fit in 500 MB" {
	# the differences would take 29 GB; O(n) memory is a few megabytes
	compare_big 60000 500000
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

# in_group PGID: how many processes the group holds, zombies included: a
# child that lives a millisecond (spawn's, aim9's) is seen more often
# waiting to be reaped than running.
in_group() {
	pgrep -c -g "$1" || true
}

# start_iteration MIN ARGS...: start `schedperf run ARGS` in the background,
# its workload on CPU 0 (so that the checks here are not starved), and wait
# until its iteration's group has held at least MIN processes at once; sets
# RUNNER and GROUP. Waits for the event, not for a time: only a run that ends
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
		[ -n "$GROUP" ] && [ "$(in_group "$GROUP")" -ge "$min" ] && return 0
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

iterations_stored() {	# the store has some iteration
	[ "$(stored_iterations)" -gt 0 ]
}

# A signal that came while the runner started an iteration (between its
# check for one and the iteration's group holding the child) was lost: the
# run waited for the iteration to end by itself, for ever if it never did.
@test "run: Ctrl-C while an iteration starts ends the run, not waits for the iteration" {
	local try status
	# iterations of a few milliseconds, mostly spent starting, and once the
	# signal is sent, one that never ends: the run ends only if the signal
	# ends the iteration it finds or stops the next (before the fix, one
	# try in ten waited)
	for try in $(seq 30); do
		rm -f "$TMP/sent"
		export SCHEDPERF_DB="$TMP/try-$try.db"
		"$SP" run command -p shell=1 -p "cmd=[ -e '$TMP/sent' ] && exec sleep 1000; true" \
			-i 1000000 -q --name "try-$try" 2>"$TMP/err" 3>&- &
		RUNNER=$!
		wait_for iterations_stored
		touch "$TMP/sent"
		kill -INT "$RUNNER"
		wait_for all_gone "$RUNNER" || { kill -9 "$RUNNER"; return 1; }
		status=0
		wait "$RUNNER" || status=$?
		[ "$status" -eq 130 ] || { echo "try $try: exit $status: $(cat "$TMP/err")"; return 1; }
	done
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
	# aim9's tasks live a moment each, one at a time: a third live process
	# may never be seen (a landing waited on it for as long as aim9 runs);
	# the guardian and the workload's process are there all along
	start_iteration 2 aim9 -p test=exec -p duration=3600 -i 2 --no-monitors --name exec
	kill -KILL "$RUNNER"
	wait "$RUNNER" || true
	group_dies
	start_iteration 2 aim9 -p test=fork -p duration=3600 -i 2 --no-monitors --name fork
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

# export_stopped_or_ended TRACER: the export that strace TRACER runs has
# stopped (the trace says so), or strace has ended.
export_stopped_or_ended() {
	! kill -0 "$1" 2>/dev/null || grep -q -- "--- stopped by SIGSTOP ---" "$TMP/trace" 2>/dev/null
}

@test "export -o: a signal while it writes leaves neither the file nor a temporary" {
	command -v strace >/dev/null || skip "strace is missing (scripts/install-deps.sh)"
	local sig tracer pid status
	# 2 x 2000 samples are some 36 writes of export's file
	big_runs 2000 "$TMP/big.json"
	sp import "$TMP/big.json" >/dev/null
	mkdir "$TMP/out"
	for sig in INT TERM HUP QUIT USR1 PIPE ALRM KILL; do
		# strace stops the export (SIGSTOP) right after its third write,
		# in the middle of its file (some 36 writes); the signal comes
		# while it is stopped and takes effect when it goes on
		rm -f "$TMP/trace"
		strace -o "$TMP/trace" -e trace=write -e inject=write:signal=STOP:when=3 \
			"$SP" export r0 r1 -o "$TMP/out/x.json" 2>"$TMP/err" 3>&- &
		tracer=$!
		wait_for export_stopped_or_ended "$tracer"
		kill -0 "$tracer" 2>/dev/null || { echo "export ended: $(cat "$TMP/err")"; return 1; }
		pid=$(pgrep -P "$tracer")
		ls -l "/proc/$pid/fd" | grep -q "$TMP/out/"
		kill -s "$sig" "$pid"
		kill -CONT "$pid" 2>/dev/null || true
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

# refused WANT ARGS...: schedperf ARGS exits WANT with one line (a hang is
# a failure, ended after WAIT_LIMIT, as wait_for's), and leaves the store
# as it was.
refused() {
	local want=$1 before
	shift
	before=$(sqlite3 "$SCHEDPERF_DB" .dump | sha256sum)
	run timeout "${WAIT_LIMIT:-300}" "$SP" "$@"
	[ "$status" -eq "$want" ] || { echo "schedperf $*: exit $status: $output"; return 1; }
	assert_one_line_error
	[ "$(sqlite3 "$SCHEDPERF_DB" .dump | sha256sum)" = "$before" ] ||
		{ echo "schedperf $*: the store changed"; return 1; }
}

# one_run FILE NAME [FIELD=JSON]: a schedperf-results/1 file of one small run;
# FIELD (name, workload, unit, env) replaced by raw JSON text, bytes and all.
one_run() {
	local name=\"$2\" workload='"w"' unit='"s"' env='{"k": "v"}'
	case "${3:-}" in
	name=*) name=${3#name=} ;;
	workload=*) workload=${3#workload=} ;;
	unit=*) unit=${3#unit=} ;;
	env=*) env=${3#env=} ;;
	esac
	printf '{"schema": "schedperf-results/1", "runs": [{"name": %s,
	 "started": "2026-01-01T00:00:00Z", "complete": true, "environment": %s,
	 "benchmarks": [{"workload": %s, "params": {"a": "1"}, "metrics": [{"name": "t",
	 "unit": %s, "better": "lower", "samples": [1.5, 2, 3]}]}]}]}\n' \
		"$name" "$env" "$workload" "$unit" >"$1"
}

@test "UTF-8: every name and value that is not is refused where it enters, exit 2" {
	sp run pipe -p loops=10 -i 1 --name a -q
	sp run pipe -p loops=10 -i 1 --name b -q
	local bad=$'\xff\xfe' overlong=$'\xc0\xaf' surrogate=$'\xed\xa0\x80' cut=$'caf\xc3'
	for s in "$bad" "$overlong" "$surrogate" "$cut"; do
		refused 2 run pipe -p loops=10 -i 1 --name "$s"
		refused 2 run --resume --name "$s"
		refused 2 run pipe -p "loops=1$s" -i 1
		refused 2 run pipe --sweep "loops=pow2:1..4$s" -i 1
		refused 2 run "pipe$s" -i 1
		refused 2 run pipe --monitors "vmstat$s" -i 1
		refused 2 compare a "b$s"
		refused 2 compare a b --workload "pipe$s"
		refused 2 compare a b --metric "usec$s"
		refused 2 show "a$s"
		refused 2 export "a$s"
		refused 2 list "pipe$s"
		# files: JSON and YAML must be UTF-8 themselves
		one_run "$TMP/bad.json" x "name=\"x$s\""
		refused 2 import "$TMP/bad.json"
		printf -- '- workload: pipe\n  params: {loops: "1%s"}\n' "$s" >"$TMP/bad.yaml"
		refused 2 run --suite "$TMP/bad.yaml" -i 1
	done
	# escapes that decode to no character, or to a NUL that would cut a name
	one_run "$TMP/bad.json" x 'name="x\udcff"'
	refused 2 import "$TMP/bad.json"
	one_run "$TMP/bad.json" x 'unit="s\u0000x"'
	refused 2 import "$TMP/bad.json"
	printf -- '- workload: "pipe\\0"\n' >"$TMP/bad.yaml"
	refused 2 run --suite "$TMP/bad.yaml" -i 1
	printf -- '- workload: pipe\n  params: {loops: "\\ud800"}\n' >"$TMP/bad.yaml"
	refused 2 run --suite "$TMP/bad.yaml" -i 1
	# the message shows the bytes, escaped, and is itself UTF-8
	run sp run pipe --name "$bad"
	[[ "$output" == *"'\\xff\\xfe' is not valid UTF-8"* ]]
	printf '%s' "$output" | iconv -f UTF-8 -t UTF-8 >/dev/null
}

@test "UTF-8: names beyond ASCII go through run, export, import, runs and compare" {
	local name='Lauf ü 名前 😀'
	sp run pipe -p loops=10 -i 2 --name "$name" -q
	sp export "$name" -o "$TMP/x.json"
	[ "$(json 'd["runs"][0]["name"]' "$TMP/x.json")" = "$name" ]
	sp --db "$TMP/other.db" import "$TMP/x.json" >/dev/null
	sp --db "$TMP/other.db" runs --format json >"$TMP/runs.json"
	json '[r["name"] for r in d]' "$TMP/runs.json" | grep -qF "$name"
	sp run pipe -p loops=10 -i 2 --name base -q
	sp compare base "$name" --format json >"$TMP/cmp.json"
	[ "$(json 'd["rows"][0]["runs"][1]["name"]' "$TMP/cmp.json")" = "$name" ]
	# and what the machine says, when it is not UTF-8, is kept escaped
	one_run "$TMP/env.json" envrun 'env={"k": "caf\u00e9"}'
	sp import "$TMP/env.json" >/dev/null
	sp export envrun -o "$TMP/env-out.json"
	[ "$(json 'd["runs"][0]["environment"]["k"]' "$TMP/env-out.json")" = "café" ]
}

@test "files that are not regular are refused wherever a path is read, without waiting" {
	mkfifo "$TMP/fifo"
	sp run pipe -p loops=10 -i 1 --name a -q
	# a FIFO with no writer blocked these forever; devices and directories
	# are no input files either
	for f in "$TMP/fifo" /dev/zero /dev/null "$TMP"; do
		refused 2 import "$f"
		refused 2 run --suite "$f" -i 1
	done
	run sp import "$TMP/fifo"
	[[ "$output" == *"a FIFO, not a regular file"* ]]
	# standard input is the way to import from a pipe
	one_run "$TMP/one.json" piped
	run bash -c 'cat "$1" | "$2" import -' - "$TMP/one.json" "$SP"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	sp show piped >/dev/null
}

@test "a YAML suite of several documents is refused, not run as its first" {
	printf -- '- workload: pipe\n  params: {loops: 10}\n---\n- workload: pipe\n  params: {loops: 20}\n' \
		>"$TMP/two.yaml"
	run sp run --suite "$TMP/two.yaml" -i 1
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"two.yaml:3: a second YAML document"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	# one document with an explicit start and end is one document
	printf -- '---\n- workload: pipe\n  params: {loops: 10}\n...\n' >"$TMP/one.yaml"
	sp run --suite "$TMP/one.yaml" -i 1 -q
}

@test "out of memory while importing is exit 3 'out of memory', at every limit" {
	skip_under_asan
	big_runs 200000 "$TMP/big.json"
	local kb
	# wherever the limit cuts (parsing, validating, storing), the one line
	# says so; a limit that is enough imports everything. Below about 25 MB
	# the dynamic loader cannot map libpq's libraries: no main() to report.
	for kb in 25000 30000 40000 50000 60000 80000 120000; do
		rm -f "$TMP"/mem.db*
		run bash -c 'ulimit -v "$0" && exec "$@"' "$kb" "$SP" --db "$TMP/mem.db" import \
			"$TMP/big.json"
		if [ "$status" -ne 0 ]; then
			[ "$status" -eq 3 ] || { echo "ulimit -v $kb: exit $status: $output"; return 1; }
			assert_one_line_error
			[[ "$output" == *"out of memory"* ]] || { echo "ulimit -v $kb: $output"; return 1; }
		fi
	done
	# the last limit is enough
	[ "$status" -eq 0 ]
}

@test "samples near the largest double: finite statistics, numbers printed whole" {
	"$PYTHON" - >"$TMP/huge.json" <<-'PY'
	import json
	runs = []
	for r, top in enumerate((1.7e308, 1.75e308)):
	    runs.append({"name": "h%d" % r, "started": "2026-01-01T00:00:0%dZ" % r,
	                 "complete": True, "environment": {},
	                 "benchmarks": [{"workload": "w", "params": {}, "metrics": [
	                     {"name": "t", "unit": "s", "better": "lower",
	                      "samples": [top * (1 - 0.01 * i) for i in range(10)]}]}]})
	print(json.dumps({"schema": "schedperf-results/1", "runs": runs}))
	PY
	sp import "$TMP/huge.json" >/dev/null
	local args
	for args in "" "--style lkp" "--style benchstat" "--format markdown" "--format csv" \
		    "--format json"; do
		run sp compare h0 h1 $args
		[ "$status" -eq 0 ] || { echo "compare $args: $output"; return 1; }
		# no infinity or NaN, and no number wider than a double's 17 digits
		# (with %g's at most four leading zeros)
		! grep -qiE 'inf|nan' <<<"$output" || { echo "compare $args: $output"; return 1; }
		! grep -qE '[0-9]{22}' <<<"$output" || { echo "compare $args: $output"; return 1; }
	done
	sp compare h0 h1 --format json >"$TMP/cmp.json"
	json 'd["rows"][0]["runs"][1]["amean"] > 1.6e308 and d["rows"][0]["runs"][1]["ratio_ci"][0] > 1' \
		"$TMP/cmp.json" | grep -qx True
	run sp show h0
	! grep -qiE 'inf|nan|[0-9]{22}' <<<"$output"
}
