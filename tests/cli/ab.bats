#!/usr/bin/env bats
# schedperf ab and bisect-step: a changed sysctl is back after a normal
# exit, SIGINT, SIGTERM, and SIGKILL followed by 'ab --restore'; bad input
# changes nothing and says why in one line; the verdict and its JSON; and
# git bisect run finding the commit of eight that made a program slower.
#
# The sysctl tests change kernel.printk_ratelimit (tests/cli/sysctl.bash).
# The machine's journal after SIGKILL, with two stores and a worker, is
# tests/cli/knob_journal.bats's.

load helpers
load sysctl

# The A/A ab of 200 blocks, the default cap, is the file's longest: it
# starts here and measures while the tests before its own run, in a store
# of its own (and its knob lock is the file's, not a test's); its test
# waits for it to end.
setup_file() {
	pg_setup_file
	AA=$BATS_FILE_TMPDIR/aa
	mkdir "$AA"
	(
		SCHEDPERF_DB= "$SCHEDPERF" --db "$AA/store.db" ab command -p cmd=true \
			--a env:X=1 --b env:X=2 --margin 0.0001 --alpha 0.0001 --format json \
			>"$AA/ab.json" 2>"$AA/err" && rc=0 || rc=$?
		echo "$rc" >"$AA/rc"
	) </dev/null >/dev/null 2>&1 3>&- &
	echo "$!" >"$AA/pid"
}

teardown_file() {
	pkill -P "$(cat "$BATS_FILE_TMPDIR/aa/pid")" 2>/dev/null || true
	pg_teardown_file
}

# The fewest blocks an ab may run (3 at --alpha 0.49): for an ab that is
# there to store its runs, whatever its verdict.
FEW=(--alpha 0.49 --max-samples 3)

# at_once FUNCTION ARG...: FUNCTION ARG for each ARG at once, each in a
# subshell with a $TMP of its own ($TMP/1, $TMP/2, ...); fails when one
# failed, once all ended. The SQLite and PostgreSQL halves of a test share
# nothing but the machine: the second CPU runs one while the first runs
# the other.
at_once() {
	local f=$1 arg i=0 pid pids=() rc=0
	shift
	for arg; do
		i=$((i + 1))
		mkdir "$TMP/$i"
		(TMP=$TMP/$i; "$f" "$arg") &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || rc=1
	done
	return "$rc"
}

teardown() {
	[ -z "${PID:-}" ] || kill -9 "$PID" 2>/dev/null || true
	[ -z "${LOCKER:-}" ] || kill "$LOCKER" 2>/dev/null || true
	sysctl_teardown
	[ -z "${PGDB:-}" ] || psql_in postgres "DROP DATABASE IF EXISTS $PGDB WITH (FORCE)" || true
	rm -rf "$TMP"
}

# Start a long ab in the background that sets $KNOB to $A or $B; return
# once its sides sample (their store holds its copy of the journal: events,
# however slow the machine). $1: how to count the copy's rows.
start_ab() {
	# each ab its own runs (a name taken is refused); counted here, not in the child
	AB_STARTED=$((${AB_STARTED:-0} + 1))
	"$SP" ab command "${NOISY_CMD[@]}" --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" \
		--max-samples 100000 --name "bg-$AB_STARTED" >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	wait_for knob_changed
	wait_for copy_is 1 "${1:-sqlite_journal}"
}

iterations_above() {	# iterations_above N
	[ "$(stored_iterations)" -gt "$1" ]
}

copy_is() {	# copy_is N COUNTER
	[ "$("$2" 2>/dev/null)" = "$1" ]
}

@test "ab: a sysctl is back after a normal exit, with the verdict and both runs" {
	sysctl_setup
	run sp ab command -p cmd=true --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" \
		--max-samples 7 --name n --seed 7
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	[[ "$output" == *"verdict: "* ]]
	[[ "$output" == *"(seed 7)"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM knob_journal')" -eq 0 ]
	run sp compare n-a n-b
	[ "$status" -eq 0 ]
	run sp show n-b
	[ "$status" -eq 0 ]
}

@test "ab: SIGINT and SIGTERM restore the sysctl and keep the samples" {
	sysctl_setup
	for sig in INT TERM; do
		# killed once a block is stored: a side killed before its first
		# sample leaves no batch (tests 'a side cut short' below), and a
		# block cut short keeps no sample
		before=$(stored_iterations)
		start_ab
		wait_for iterations_above "$((before + 1))"
		interrupt_and_wait -"$sig" "$PID"
		PID=
		[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
		if [ "$sig" = INT ]; then [ "$rc" -eq 130 ]; else [ "$rc" -eq 143 ]; fi
		grep -q 'settings are restored' "$TMP/err"
		[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM knob_journal')" -eq 0 ]
		[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	done
	# a side cut short is no run to finish: it sampled until a verdict
	local sides
	sides=$(sqlite3 "$SCHEDPERF_DB" "SELECT DISTINCT r.name FROM batches b JOIN runs r
		ON r.id = b.run_id WHERE NOT b.complete")
	[ -n "$sides" ]
	for side in $sides; do
		run sp run --resume --name "$side"
		[ "$status" -eq 2 ]
		[[ "$output" == *"the batch is a side of an ab or a bisect-step, which samples until a verdict"* ]]
	done
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches WHERE complete')" -eq 0 ]
}

# iterations_of RUN: the measured iterations RUN holds.
iterations_of() {
	sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations i JOIN benchmarks bm ON
		bm.id = i.benchmark_id JOIN batches b ON b.id = bm.batch_id JOIN runs r ON
		r.id = b.run_id WHERE r.name = '$1' AND NOT i.warmup AND i.failure IS NULL"
}

# write_gate: $TMP/gate.sh DIR SIDE, a command whose 6th call, the second
# side of block 3, waits until DIR is gone (a signal comes within a block).
write_gate() {
	cat >"$TMP/gate.sh" <<'EOF'
n=$(($(cat "$1/calls" 2>/dev/null | wc -l) + 1))
echo "$2" >>"$1/calls"
[ "$n" -ne 6 ] || { : >"$1/arrived"; while [ -d "$1" ]; do sleep 0.01; done; }
exit 0
EOF
}

@test "ab: SIGINT within a block keeps whole blocks only, says no settings it left, no JSON" {
	write_gate
	"$SP" ab command --a "cmd:sh $TMP/gate.sh $TMP a" --b "cmd:sh $TMP/gate.sh $TMP b" \
		--max-samples 50 --name in --format json >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for test -e "$TMP/arrived"
	interrupt_and_wait "$PID"
	PID=
	[ "$rc" -eq 130 ]
	# the block cut short keeps neither side's sample: two whole blocks
	[ "$(iterations_of in-a) $(iterations_of in-b)" = "2 2" ]
	local kept="the samples of whole blocks so far are kept in runs in-a and in-b"
	[ "$(cat "$TMP/err")" = "schedperf: interrupted: $kept" ]
	[ ! -s "$TMP/out" ]
}

# lock_store: a sqlite3 process takes the store's write lock and holds it
# until unlock_store (as faults.bats's).
lock_store() {
	mkfifo "$TMP/lock.fifo"
	sqlite3 "$SCHEDPERF_DB" <"$TMP/lock.fifo" >"$TMP/locker.out" 2>&1 3>&- &
	LOCKER=$!
	exec 5>"$TMP/lock.fifo"
	printf '.timeout 20000\nBEGIN EXCLUSIVE;\n' >&5
	wait_for store_locked
}

store_locked() {	# another writer cannot begin (fails at once)
	! sqlite3 "$SCHEDPERF_DB" 'BEGIN IMMEDIATE; ROLLBACK;' 2>/dev/null
}

unlock_store() {	# end of input: the sqlite3 process rolls back and exits
	exec 5>&-
	wait_for all_gone "$LOCKER"
	LOCKER=
}

@test "ab: SIGINT within a block, the store locked: the sample not dropped is said" {
	# as above, but the store's write lock is held when the signal comes
	write_gate
	"$SP" ab command --a "cmd:sh $TMP/gate.sh $TMP a" --b "cmd:sh $TMP/gate.sh $TMP b" \
		--max-samples 50 --name in >"$TMP/out" 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for test -e "$TMP/arrived"
	lock_store
	interrupt_and_wait "$PID"
	PID=
	unlock_store
	cat "$TMP/err"
	[ "$rc" -eq 130 ]
	# the 5th call was the first side of block 3: its sample stays
	local first
	first=$(sed -n 5p "$TMP/calls")
	if [ "$first" = a ]; then
		[ "$(iterations_of in-a) $(iterations_of in-b)" = "3 2" ]
	else
		[ "$(iterations_of in-a) $(iterations_of in-b)" = "2 3" ]
	fi
	local why="the unpaired sample of run in-$first's last block could not be dropped: "
	grep -q "^schedperf: warning: ab: $why.*; it stays, and compare, which pools" "$TMP/err"
	local kept="the samples of whole blocks so far are kept in runs in-a and in-b"
	local lone="and in run in-$first the unpaired sample of the block cut short"
	[ "$(tail -n 1 "$TMP/err")" = "schedperf: interrupted: $kept, $lone" ]
}

pg_journal_mine() {
	psql_in "$PGDB" "SELECT count(*) FROM knob_journal WHERE machine <> 'another-machine'"
}

sqlite_journal() {
	sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM knob_journal'
}

pg_journal() {
	psql_in "$PGDB" 'SELECT count(*) FROM knob_journal'
}

@test "ab: on a store machines share, another machine's journal is left to it" {
	sysctl_setup
	PGDB=$(pg_new_db)
	export SCHEDPERF_DB=$(pg_url "$PGDB")
	sp db init >/dev/null
	# what an ab on another machine journalled before it changed $KNOB there
	psql_in "$PGDB" "INSERT INTO knob_journal (kind, name, original, writer_boot,
		writer_pid, writer_start, started, machine) VALUES ('sysctl', '$KNOB', '12345',
		'another-boot', 1, 1, '2026-12-01T00:00:00Z', 'another-machine')"
	run sp ab --restore
	[ "$status" -eq 0 ]
	[[ "$output" == "nothing to restore"* ]]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	# an ab here is not refused for it, and journals its own original beside it
	run sp ab command -p cmd=true --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" "${FEW[@]}"
	[ "$status" -eq 0 ]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	[ "$(psql_in "$PGDB" "SELECT string_agg(machine || ' ' || original, ',') FROM knob_journal")" = \
	  "another-machine 12345" ]
	# kill -9 mid-ab: --restore here puts back this machine's original, not the other's
	start_ab pg_journal_mine
	kill_ab "schedperf ab command"
	[ "$(pg_journal)" -eq 2 ]
	run sp ab --restore
	[ "$status" -eq 0 ]
	[ "$output" = "restored sysctl $KNOB = $ORIGINAL" ]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	[ "$(psql_in "$PGDB" "SELECT string_agg(machine, ',') FROM knob_journal")" = another-machine ]
}

@test "ab: bad input is one line, exit 2 or 3, and changes nothing" {
	sysctl_setup
	check() {	# check WANT ARGS...
		local want=$1
		shift
		run sp ab command -p cmd=true "$@"
		[ "$status" -eq "$want" ] || { echo "ab $*: $status: $output"; return 1; }
		assert_one_line_error
		[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	}
	# a well-formed name this kernel lacks is the machine's lack, as a sysfs: file's
	check 3 --a sysctl:kernel.no_such_sysctl=1 --b "sysctl:$KNOB=$A"
	[[ "$output" == *"this machine has no sysctl kernel.no_such_sysctl: "* ]]
	check 3 --a sysfs:kernel/mm/no_such_file=1 --b "sysctl:$KNOB=$A"
	check 3 --a sysctl:kernel.osrelease=1 --b "sysctl:$KNOB=$A"
	check 2 --a "sysctl:$KNOB=not-a-number" --b "sysctl:$KNOB=$A"
	# a value the kernel takes only the start of: a short write, refused
	check 2 --a "sysctl:$KNOB=$A $B" --b "sysctl:$KNOB=$B"
	[[ "$output" == *"give a value the kernel accepts"* ]]
	check 2 --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$A"
	check 2 --a env:X=1 --b env:X=1
	# one sysctl, every spelling: the same configuration
	for spelling in "${KNOB//./\/}" ".$KNOB" "$KNOB." "kernel..printk_ratelimit" \
		"kernel/./printk_ratelimit" "/proc/sys/kernel/printk_ratelimit" \
		"/proc/sys//kernel/printk_ratelimit/"; do
		check 2 --a "sysctl:$spelling=$A" --b "sysctl:$KNOB=$A"
		[[ "$output" == *"are the same configuration"* ]]
		check 2 --a "sysctl:$spelling=$A" --b "sysctl:$KNOB=$B" --a "sysctl:$KNOB=$B"
		[[ "$output" == *"sets sysctl $KNOB twice ($A and $B)"* ]]
	done
	# what names no sysctl is refused before anything else
	check 2 --a "sysctl:/etc/hostname=x" --b "sysctl:$KNOB=$A"
	[[ "$output" == *"a path outside /proc/sys/"* ]]
	check 2 --a "sysctl:kernel/../kernel/printk_ratelimit=1" --b "sysctl:$KNOB=$A"
	[[ "$output" == *"is not a sysctl's name"* ]]
	check 2 --a "sysctl:./.=1" --b "sysctl:$KNOB=$A"
	[[ "$output" == *"names no sysctl"* ]]
	check 2 --a "sysctl:kernel=1" --b "sysctl:$KNOB=$A"
	[[ "$output" == *"is a directory of sysctls"* ]]
	check 2 --a "sysctl:$KNOB=" --b "sysctl:$KNOB=$A"
	check 2 --a cmd:no-such-program-anywhere --b cmd:true
	check 2 --a cmd:/ --b cmd:true	# a directory, which execve refuses
	check 2 --a "sysctl:$KNOB=$A" --b bogus:1
	check 2 --a "sysctl:$KNOB=$A"
	if [ -e /sys/kernel/debug/sched/features ] || [ -e /sys/kernel/debug/sched_features ]; then
		check 3 --a feature:NO_SUCH_FEATURE_EVER --b "sysctl:$KNOB=$A"
		[[ "$output" == *"this kernel has no scheduler feature NO_SUCH_FEATURE_EVER: "* ]]
	else
		check 3 --a feature:TTWU_QUEUE --b "sysctl:$KNOB=$A"
		[[ "$output" == *"mount debugfs"* ]]
	fi
	# exit 2 and 3 promise nothing written: no store, no journal
	[ ! -e "$SCHEDPERF_DB" ]
	[ -z "$(machine_journal)" ]
}

@test "ab: cmd: and param:cmd= on one side are cmd twice, said with the side" {
	run sp ab command --a cmd:/bin/true --a param:cmd=/bin/false --b env:X=1
	[ "$status" -eq 2 ]
	assert_one_line_error
	local twice="--a sets cmd twice ('cmd:/bin/true' and 'param:cmd=/bin/false')"
	[ "$output" = "schedperf: ab: $twice: give it once" ]
	run sp ab command --a cmd:/bin/true --b param:cmd=/bin/false --b cmd:/bin/true --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ab: --b sets cmd twice ('param:cmd=/bin/false' and 'cmd:/bin/true')"* ]]
	# one of them on each side is no repeat
	run sp ab command --a cmd:/bin/true --b param:cmd=/bin/false --dry-run
	[ "$status" -eq 0 ]
	[ ! -e "$SCHEDPERF_DB" ]
}

@test "ab: a sysctl spelled two ways is one setting: each side runs with its own value" {
	sysctl_setup
	sp ab command -p 'cmd=cat /proc/sys/kernel/printk_ratelimit' -p 'metric_regex=([0-9]+)' \
		--a "sysctl:.$KNOB=$A" --b "sysctl:/proc/sys/kernel/printk_ratelimit=$B" \
		"${FEW[@]}" --name spell -q
	for side in a b; do
		want=$([ $side = a ] && echo "$A" || echo "$B")
		sp export "spell-$side" >"$TMP/$side.json"
		[ "$(json 'sorted({v for b in d["runs"][0]["benchmarks"] for m in b["metrics"]
			if m["name"] == "value" for v in m["samples"]})' "$TMP/$side.json")" = "[$want.0]" ]
	done
	knob_is "$ORIGINAL"
	run sp ab command -p cmd=true --a "sysctl:kernel/./printk_ratelimit=$A" --b "sysctl:$KNOB=$B" \
		--dry-run
	[ "${lines[4]}" = "setting sysctl $KNOB: a $A, b $B" ]
	[ "${#lines[@]}" -eq 6 ]
}

@test "ab: sides whose first metric differs are refused with what differs" {
	local c=(-p "cmd=echo value: 1" -p "metric_regex=value: ([0-9]+)") a b want
	while IFS='|' read -r a b want; do
		run sp ab command "${c[@]}" --a "param:$a" --b "param:$b" --dry-run
		[ "$status" -eq 2 ]
		assert_one_line_error
		[ "$output" = "schedperf: ab: the sides measure $want: give --metric, or $(
			)parameters that measure it alike" ]
	done <<-EOF2
	better=lower|better=higher|value in opposite directions (lower is better on A, higher on B)
	metric_unit=s|metric_unit=ms|value in different units (s on A, ms on B)
	metric_unit=s|metric_unit=|value in different units (s on A, no unit on B)
	metric_unit=s,param:better=higher|metric_unit=ms|value in different units and $(
	)directions (s, higher is better, on A; ms, lower is better, on B)
	metric_name=x|metric_name=y|different metrics first (x on A, y on B)
	EOF2
}

@test "ab: cpus:0,1 is one CPU list, whatever follows it" {
	for spec in cpus:0,1=0,1 cpus:0-1=0-1 cpus:0,1,env:X=1=0,1 cpus:1,0-1,1=1,0-1,1; do
		run sp ab command -p cmd=true --a "${spec%=*}" --b cpus:0 --dry-run
		[ "$status" -eq 0 ]
		[[ "${lines[2]}" == "a: command {"*"} on CPUs ${spec##*=}" ]]
	done
	run sp ab command -p cmd=true --a cpus:0,1,x --b cpus:0 --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ab: --a 'x' is not a knob (give sysctl:NAME=VALUE, sysfs:PATH=VALUE, feature:[NO_]NAME, procfs:PATH=VALUE, governor:NAME, cpus:LIST, "*" or cgroup:CONTROLLER.FILE=VALUE)" ]]
	run sp ab command -p cmd=true --a cpus:0,1 --b cpus:0-1 --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"are the same configuration"* ]]
}

@test "ab: a command without a shell is its words: cmd: sides that split alike are one configuration" {
	for b in "cmd:/bin/true " "cmd:'/bin/true'" 'cmd:"/bin/true"' 'cmd:/bin/tr\ue'; do
		for dry in --dry-run ""; do
			run sp ab command --a cmd:/bin/true --b "$b" --max-samples 7 $dry
			[ "$status" -eq 2 ] || { echo "--b $b $dry: $status: $output"; false; }
			assert_one_line_error
			[[ "$output" == *"are the same configuration"* ]]
		done
	done
	run sp ab command --a cmd:/bin/true --b "cmd:/bin/true ''" --dry-run
	[ "$status" -eq 0 ]
	[ ! -e "$SCHEDPERF_DB" ]
}

@test "ab: default run names are the date, time and pid: two ab in one second never share runs" {
	"$SP" ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" --format json \
		>"$TMP/1.json" &
	one=$!
	"$SP" ab command -p cmd=true --a env:Y=1 --b env:Y=2 "${FEW[@]}" --format json \
		>"$TMP/2.json" &
	two=$!
	wait "$one"
	wait "$two"
	[[ "$(json 'd["runs"][0]' "$TMP/1.json")" =~ ^ab-[0-9]{8}-[0-9]{6}-$one-a$ ]]
	[[ "$(json 'd["runs"][0]' "$TMP/2.json")" =~ ^ab-[0-9]{8}-[0-9]{6}-$two-a$ ]]
	# and --help says so
	sp ab --help | tr -s ' \n' ' ' | grep -qF "(default: ab-DATE-TIME-PID, the date and time UTC and the process id; a worker's job: ab-job-ID)"
	sp runs --format json >"$TMP/runs.json"
	[ "$(json 'sorted(len(r["batches"]) for r in d)' "$TMP/runs.json")" = "[1, 1, 1, 1]" ]
	# a --name whose runs exist is refused: compare would pool the two ab's samples
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" --name same -q
	run sp ab command -p cmd=true --a env:X=3 --b env:X=4 --max-samples 7 --name same
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run same-a exists already"* ]]
	sp runs --format json >"$TMP/runs.json"
	[ "$(json 'sorted(len(r["batches"]) for r in d)' "$TMP/runs.json")" = "[1, 1, 1, 1, 1, 1]" ]
}

# race_ab I: two ab of the name race-I started at once, into $SCHEDPERF_DB.
race_ab() {
	local one two
	"$SP" ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" --name "race-$1" \
		-q 2>"$TMP/err1" &
	one=$!
	"$SP" ab command -p cmd=true --a env:X=1 --b env:X=3 "${FEW[@]}" --name "race-$1" \
		-q 2>"$TMP/err2" &
	two=$!
	wait "$one" && s1=0 || s1=$?
	wait "$two" && s2=0 || s2=$?
	# exactly one proceeds; the other is refused before it stores anything
	[ "$((s1 + s2))" -eq 2 ] && [ "$((s1 * s2))" -eq 0 ] || {
		echo "exit statuses $s1 $s2"; cat "$TMP/err1" "$TMP/err2"; return 1; }
	cat "$TMP/err1" "$TMP/err2" >"$TMP/err"
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	grep -q "^schedperf: run race-$1-a exists already, and compare would pool its samples" \
		"$TMP/err" || { cat "$TMP/err"; return 1; }
}

# races DB: five races of two ab on DB.
races() {
	export SCHEDPERF_DB=$1
	sp db init >/dev/null	# the race is the runs', not the schema's
	for i in 1 2 3 4 5; do
		race_ab "$i"
	done
	sp runs --format json >"$TMP/runs.json"
	[ "$(json 'sorted((r["name"], len(r["batches"])) for r in d)' "$TMP/runs.json")" = \
	  "$(json 'sorted((f"race-{i}-{s}", 1) for i in range(1, 6) for s in "ab")' "$TMP/runs.json")" ]
}

@test "ab: two ab of one --name started at once: one proceeds, the other exits 2 (SQLite, PostgreSQL)" {
	PGDB=$(pg_new_db)
	at_once races "$TMP/race.db" "$(pg_url "$PGDB")"
}

# ab_runs_own DB: an ab's runs take no later batch of run, bisect-step or import.
ab_runs_own() {
	export SCHEDPERF_DB=$1
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" --name own -q
	sp run command -p cmd=true -i 1 --name plain -q
	c=(-p 'cmd=echo v 5' -p 'metric_regex=v ([0-9]+)')
	sp run command "${c[@]}" -i 8 --name good --quiet
	sp export own-a >"$TMP/own-a.json"
	sp export plain >"$TMP/plain.json"
	sp runs --format json >"$TMP/before.json"
	run sp run command -p cmd=true -i 1 --name own-a
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run 'own-a' is an ab experiment's own, and compare would pool a batch added to it"* ]]
	run sp run command -p cmd=true -i 1 --name own-b --replace
	[ "$status" -eq 2 ]
	# a dry run, and submit's check of a job, refuse it alike
	run sp run command -p cmd=true -i 1 --name own-a --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run 'own-a' is an ab experiment's own"* ]]
	for dry in --dry-run ""; do
		run sp bisect-step command "${c[@]}" --good good --name own-b $dry
		[ "$status" -eq 255 ]
		assert_one_line_error
		[[ "$output" == *"run 'own-b' is an ab experiment's own"* ]]
	done
	if [[ "$1" == postgresql* ]]; then
		run sp submit command -p cmd=true -i 1 --name own-a
		[ "$status" -eq 2 ]
		[[ "$output" == *"run 'own-a' is an ab experiment's own"* ]]
		run sp submit bisect-step command "${c[@]}" --good good --name own-b
		[ "$status" -eq 2 ]
		[[ "$output" == *"run 'own-b' is an ab experiment's own"* ]]
		[ "$(psql_in "$PGDB" 'SELECT count(*) FROM jobs')" -eq 0 ]
	fi
	# a run's batch imported into the ab's run, and the ab's into a run's: refused
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["name"] = sys.argv[2]
json.dump(d, open(sys.argv[3], "w"))' "$TMP/plain.json" own-b "$TMP/into-ab.json"
	run sp import "$TMP/into-ab.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run 'own-b' is an ab experiment's own"* ]]
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["name"] = sys.argv[2]
json.dump(d, open(sys.argv[3], "w"))' "$TMP/own-a.json" plain "$TMP/ab-into.json"
	run sp import "$TMP/ab-into.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run 'plain' holds batches already, and compare would pool them with this ab experiment's samples"* ]]
	# nothing was stored; and the same batch again is still "imported before"
	sp runs --format json >"$TMP/after.json"
	cmp "$TMP/before.json" "$TMP/after.json"
	run sp import "$TMP/own-a.json"
	[ "$status" -eq 2 ]
	[[ "$output" == *"it was imported before"* ]]
}

@test "ab: its runs are its own: run, --replace and import add no batch to them (SQLite, PostgreSQL)" {
	PGDB=$(pg_new_db)
	at_once ab_runs_own "$TMP/own.db" "$(pg_url "$PGDB")"
	# an ab's runs exported go into a store without them, whole
	SCHEDPERF_DB=$TMP/fresh.db sp import "$TMP/2/own-a.json" >/dev/null
	[ "$(SCHEDPERF_DB=$TMP/fresh.db sp runs --format json | "$PYTHON" -c 'import json, sys
print([(r["name"], len(r["batches"])) for r in json.load(sys.stdin)])')" = "[('own-a', 1)]" ]
}

# tests/data/bestof.c with WORK set: a CPU-bound program printing its best
# round's CPU time, slower in every sample when it does more work.
write_prog() {	# write_prog FILE WORK
	sed "s/^#define WORK 1000$/#define WORK $2/" "$BATS_TEST_DIRNAME/../data/bestof.c" >"$1"
}

@test "ab: two builds through cmd:, the slower one DIFFERENT and worse, as JSON" {
	command -v cc >/dev/null || skip "no C compiler"
	write_prog "$TMP/fast.c" 1000
	write_prog "$TMP/slow.c" 2000
	cc -O1 -o "$TMP/fast" "$TMP/fast.c" &	# the two builds at once
	cc -O1 -o "$TMP/slow" "$TMP/slow.c"
	wait "$!"
	run sp ab command -p 'metric_regex=best ([0-9.]+)' -p metric_name=best \
		--a "cmd:$TMP/fast" --b "cmd:$TMP/slow" --max-samples 60 --format json \
		--fail-on-regression --name builds
	echo "$output"
	[ "$status" -eq 1 ]
	echo "$output" >"$TMP/ab.json"
	[ "$(json 'd["verdict"]' "$TMP/ab.json")" = different ]
	[ "$(json 'd["direction"]' "$TMP/ab.json")" = worse ]
	[ "$(json 'd["metric"]' "$TMP/ab.json")" = best ]
	# B takes twice the work: about -100 % (+ is better; a loaded machine
	# has shown -48 %), the interval around it
	[ "$(json '-200 < d["estimate_pct"] < -20' "$TMP/ab.json")" = True ]
	[ "$(json 'd["ci_pct"][0] <= d["estimate_pct"] <= d["ci_pct"][1] < 0' "$TMP/ab.json")" = True ]
	[ "$(json 'd["samples_a"] == d["samples_b"] == d["blocks"] >= 5' "$TMP/ab.json")" = True ]
	[ "$(json 'd["reason"]' "$TMP/ab.json")" = "interval excludes no change" ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM runs WHERE name IN ('builds-a', 'builds-b')")" -eq 2 ]
}

# An ab of a metric that never varies: the command prints it.
fixed_ab() {	# fixed_ab A B [ab options]: a prints "v A", b "v B"
	local a=$1 b=$2
	shift 2
	sp ab command -p 'metric_regex=v ([0-9.]+)' --a "cmd:echo v $a" --b "cmd:echo v $b" \
		--a env:S=a --b env:S=b "$@"
}

# ab, bisect-step and bisect refuse alike a cap at which no verdict can come
# at the --alpha given, naming the fewest (bisect said "7..1000000" to 1 at
# --alpha 0.01, which needs 10; ab took 8 at 1e-300, which needs 1236).
@test "ab, bisect-step, bisect: a --max-samples too few for the --alpha is refused with the least" {
	local cmd least want
	cd "$TMP"
	for cmd in "ab command -p cmd=true --a env:X=1 --b env:X=2" \
		"bisect-step command -p cmd=true --good x" \
		"bisect command -p cmd=true --good HEAD~1 --bad HEAD"; do
		for least in "0.05 7" "0.01 10" "1e-300 1236"; do
			run sp $cmd --alpha "${least% *}" --max-samples 1
			# bisect-step's every error is 255, which stops git bisect run
			want=2
			[ "${cmd%% *}" != bisect-step ] || want=255
			[ "$status" -eq "$want" ]
			[ "$output" = "schedperf: ${cmd%% *}: --max-samples 1 is too few at \
--alpha ${least% *}: no verdict can come in fewer than ${least#* } (give at least that)" ]
			run sp $cmd --alpha "${least% *}" --max-samples $((${least#* } - 1))
			[[ "$output" == *"fewer than ${least#* } (give at least that)" ]]
		done
		run sp $cmd --max-samples 0
		[[ "$output" == *"--max-samples '0' is not a whole number in 1..1000000"* ]]
		# not given: the default cap is named as such, and the option to give
		run sp $cmd --alpha 1e-300
		[ "$status" -eq "$want" ]
		[ "$output" = "schedperf: ${cmd%% *}: the default cap of 200 samples is too few \
at --alpha 1e-300: no verdict can come in fewer than 1236 (give --max-samples 1236 or more)" ]
	done
	# the least is taken (a dry run checks the arguments)
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 --alpha 1e-300 --max-samples 1236 \
		--dry-run >/dev/null
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7 --dry-run >/dev/null
	# --max-time alone lifts the cap: nothing to refuse
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 --alpha 1e-300 --max-time 5 \
		--dry-run >/dev/null
	[ ! -e "$SCHEDPERF_DB" ]
}

slow_ab() {	# slow_ab A B [ab options]: fixed_ab's sides in 0.3 s each, for 1 s
	local a=$1 b=$2
	shift 2
	sp ab command -p shell=1 -p 'metric_regex=v ([0-9.]+)' --a "cmd:sleep 0.3; echo v $a" \
		--b "cmd:sleep 0.3; echo v $b" --a env:S=a --b env:S=b --max-time 1 "$@"
}

@test "ab: a metric that never varies: the interval is the exact change, 0 for equal sides; unbounded at first, never inf" {
	# fewer than 7 blocks cannot bound anything at alpha 0.05 (a --max-samples
	# below that is refused, but --max-time stops sooner: iterations of 0.3 s,
	# at most 2 blocks in 1 s): the interval is unbounded, in words and null
	# in JSON, not -100 % or inf. The four sleep: they run at once, each
	# its own runs (named by its pid), their output and errors as run's;
	# and so do, meanwhile, the five of fixed values checked first, their
	# JSON's errors apart (its status kept in NAME.rc).
	local b pids=() name
	for b in 5 6; do
		slow_ab 5 $b >"$TMP/unknown-$b.txt" 2>&1 &
		pids+=($!)
		slow_ab 5 $b --format json >"$TMP/unknown-$b.json" 2>&1 &
		pids+=($!)
	done
	fixed_at_once() {	# fixed_at_once NAME ARGS...: fixed_ab ARGS into $TMP/NAME
		local name=$1
		shift
		fixed_ab "$@" >"$TMP/$name" 2>"$TMP/$name.err" && rc=0 || rc=$?
		echo "$rc" >"$TMP/$name.rc"
	}
	fixed_at_once same.txt 5 5 --max-samples 30 &
	pids+=($!)
	fixed_at_once same.json 5 5 --max-samples 30 --format json &
	pids+=($!)
	fixed_at_once worse.txt 5 6 --max-samples 30 &
	pids+=($!)
	fixed_at_once worse.json 5 6 --max-samples 30 --format json &
	pids+=($!)
	fixed_at_once better.txt 5 6 -p better=higher --max-samples 30 &
	pids+=($!)
	for pid in "${pids[@]}"; do
		wait "$pid" || true
	done
	for name in same.txt same.json worse.txt worse.json better.txt; do
		cat "$TMP/$name.err"
	done
	mapfile -t lines <"$TMP/same.txt"
	[ "$(cat "$TMP/same.txt.rc")" -eq 0 ]
	[ "${lines[2]}" = "verdict: same: b vs a +0.00% (interval +0.00% .. +0.00%; + is better)" ]
	[ "$(cat "$TMP/same.json.rc")" -eq 0 ]
	[ "$(json '(d["verdict"], d["estimate_pct"], d["ci_pct"])' "$TMP/same.json")" = \
	  "('same', 0.0, [0.0, 0.0])" ]
	# b takes 6 where a takes 5: 20 % worse, and the interval is that point
	mapfile -t lines <"$TMP/worse.txt"
	[ "${lines[2]}" = "verdict: different: b is worse than a by 20.00% (interval -20.00% .. -20.00%; + is better)" ]
	[ "$(cat "$TMP/worse.json.rc")" -eq 0 ]
	[ "$(json '[round(x, 9) for x in [d["estimate_pct"]] + d["ci_pct"]]' "$TMP/worse.json")" = \
	  "[-20.0, -20.0, -20.0]" ]
	mapfile -t lines <"$TMP/better.txt"
	[ "${lines[2]}" = "verdict: different: b is better than a by 20.00% (interval +20.00% .. +20.00%; + is better)" ]
	for b in 5 6; do
		mapfile -t lines <"$TMP/unknown-$b.txt"
		[[ "${lines[2]}" == "verdict: unknown: b vs a "*"% (interval unbounded; + is better)" ]]
		output=$(cat "$TMP/unknown-$b.json")
		[[ "$output" != *[Ii]nf* && "$output" != *[Nn]a[Nn]* ]]
		[ "$(json 'd["ci_pct"]' "$TMP/unknown-$b.json")" = "[None, None]" ]
		[ "$(json 'd["verdict"]' "$TMP/unknown-$b.json")" = unknown ]
	done
	# and the status line of a terminal says it as the verdict does
	out=$(SCHEDPERF_DB="$SCHEDPERF_DB" script -qec "$SP ab command -p 'metric_regex=v ([0-9.]+)' \
		-p 'cmd=echo v 5' --a env:S=a --b env:S=b --max-samples 8" /dev/null)
	[[ "$out" == *"[ab] block 1: b vs a +0.0% [unbounded, unbounded]"* ]]
	[[ "$out" == *"[ab] block 7: b vs a +0.0% [+0.0%, +0.0%]"* ]]
	[[ "$out" != *inf* && "$out" != *nan* ]]
}

# ab_refused_frees DB: a refused ab and one that measured nothing (failed, or capped
# first) keep no name taken.
ab_refused_frees() {
	export SCHEDPERF_DB=$1
	# cpus=cross on a side of one CPU: refused by the dry run and the run, nothing made
	run sp ab pipe -p cpus=cross -p loops=100 --a cpus:1 --b cpus:0 --name X --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"'cross' needs two CPUs"*"cpus:"* ]]
	run sp ab pipe -p cpus=cross -p loops=100 --a cpus:1 --b cpus:0 --name X
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$SCHEDPERF_DB" == postgresql* ]] || [ ! -e "$SCHEDPERF_DB" ]
	# a side that fails at once: exit 3, its runs gone, the name free, and
	# the store it made gone too (a PostgreSQL database, made by its owner, stays)
	run sp ab command -p cmd=false --a env:X=1 --b env:X=2 --max-samples 7 --name F
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" != *"schedperf show"* ]]
	# a cap reached before any sample: a verdict, unknown, that says so; nothing kept
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-time 1e-9 --name F
	[ "$status" -eq 0 ]
	[[ "$output" == *"verdict: unknown: no sample was measured"*"runs: none kept"* ]]
	[[ "$output" != *nan* ]]
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-time 1e-9 --name F \
		--format json >"$TMP/capped.json"
	[ "$(json '(d["estimate_pct"], d["ci_pct"], d["runs"], d["samples_a"] + d["samples_b"])' \
	     "$TMP/capped.json")" = "(None, [None, None], [], 0)" ]
	if [[ "$SCHEDPERF_DB" == postgresql* ]]; then
		run sp runs --format json
		[ "$output" = "[]" ]
	else
		[ -z "$(compgen -G "$SCHEDPERF_DB*")" ] || { ls -A "$TMP"; false; }
	fi
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" --name F -q
	sp ab pipe -p cpus=same -p loops=100 --a cpus:1 --b cpus:0 "${FEW[@]}" --name X -q
	# a store that was there stays, as it was
	run sp ab command -p cmd=false --a env:X=1 --b env:X=2 --max-samples 7 --name G
	[ "$status" -eq 3 ]
	sp runs --format json >"$TMP/runs.json"
	[ "$(json 'sorted((r["name"], len(r["batches"])) for r in d)' "$TMP/runs.json")" = \
	  "[('F-a', 1), ('F-b', 1), ('X-a', 1), ('X-b', 1)]" ]
	# now taken: the dry run refuses the name as the ab would
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --name F --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run F-a exists already"* ]]
}

@test "ab: refused, or with nothing measured, it stores nothing and its --name stays free (SQLite, PostgreSQL)" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	PGDB=$(pg_new_db)
	at_once ab_refused_frees "$TMP/refused.db" "$(pg_url "$PGDB")"
}

# ab_killed_frees DB: an ab killed by SIGKILL in its first iteration holds
# its --name while it lives, and leaves it free once it is gone.
ab_killed_frees() {
	export SCHEDPERF_DB=$1
	# the first iteration waits until $TMP/go is there (or $TMP is gone)
	echo 'until [ -e "$1/go" ] || [ ! -d "$1" ]; do sleep 0.01; done' >"$TMP/block.sh"
	"$SP" ab command --a "cmd:sh $TMP/block.sh $TMP" --b "cmd:sh $TMP/block.sh $TMP b" \
		--name k --max-samples 7 >/dev/null 2>"$TMP/err" 3>&- &
	PID=$!
	wait_for iteration_child "$PID"
	# while it lives, its batches hold the name, sample or none
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7 --name k
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run k-a exists already"* ]]
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --name k --dry-run
	[ "$status" -eq 2 ]
	kill -9 "$PID"
	wait_for all_gone "$PID"
	kill -KILL -- "-$group" 2>/dev/null || true
	PID=
	run sp runs --format json
	[ "$(echo "$output" | json 'sorted((r["name"], r["samples"]) for r in d)' /dev/stdin)" = \
	  "[('k-a', 0), ('k-b', 0)]" ]
	# gone, its runs hold no sample: the name is free, as after a SIGINT
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --name k --dry-run
	[ "$status" -eq 0 ]
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" --name k
	echo "$output"
	[ "$status" -eq 0 ]
	run sp runs --format json
	local runs='sorted((r["name"], len(r["batches"]), r["samples"] > 0) for r in d)'
	[ "$(echo "$output" | json "$runs" /dev/stdin)" = \
	  "[('k-a', 1, True), ('k-b', 1, True)]" ]
	# one that has a sample keeps its name taken, killed or not
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-samples 7 --name k
	[ "$status" -eq 2 ]
}

@test "ab: killed by SIGKILL before its first sample, its --name is free again (SQLite, PG)" {
	PGDB=$(pg_new_db)
	at_once ab_killed_frees "$TMP/killed.db" "$(pg_url "$PGDB")"
}

@test "ab: a new store another process has open stays when the ab stores nothing" {
	mkdir "$TMP/new"
	local db="$TMP/new/store.db" holder rc=0
	# the side fails once the other process has the store open
	printf '#!/bin/sh\nuntil [ -e %s ]; do sleep 0.05; done\nexit 1\n' "$TMP/held" >"$TMP/prog"
	chmod +x "$TMP/prog"
	"$SP" --db "$db" ab command -p "cmd=$TMP/prog" --a env:X=1 --b env:X=2 --max-samples 7 \
		--name F 2>"$TMP/err" &
	PID=$!
	wait_for test -s "$db"
	"$PYTHON" -c '
import os, sqlite3, sys, time
c = sqlite3.connect(sys.argv[1])
c.execute("SELECT count(*) FROM runs").fetchall()
open(sys.argv[2], "w").close()
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
c.execute("INSERT INTO runs (name) VALUES (?)", ("late",))
c.commit()' "$db" "$TMP/held" "$TMP/done" &
	holder=$!
	wait "$PID" || rc=$?
	PID=
	[ "$rc" -eq 3 ] || { cat "$TMP/err"; false; }
	touch "$TMP/done"
	wait "$holder"
	[ "$(sqlite3 "$db" 'SELECT name FROM runs')" = late ]
}

@test "ab: a store behind a symbolic link stays, and the link, when the ab stores nothing" {
	mkdir "$TMP/real"
	: >"$TMP/real/store.db"
	ln -s "$TMP/real/store.db" "$TMP/link.db"
	run sp --db "$TMP/link.db" ab command -p cmd=false --a env:X=1 --b env:X=2 \
		--max-samples 7 --name F
	[ "$status" -eq 3 ]
	[ -L "$TMP/link.db" ]
	[ "$(sqlite3 "$TMP/real/store.db" 'SELECT count(*) FROM runs')" -eq 0 ]
}

@test "ab: the command workload's failure stops ab with its reason" {
	run sp ab command --a 'cmd:sh -c "echo broken build >&2; exit 1"' --b cmd:true \
		--max-samples 20
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"broken build"* ]]
}

@test "ab: blocks failing in a row name the side that failed them, and its last reason" {
	# a fails once, its 2nd time; b always from its 3rd: the reason is b's, not a's old one
	run sp ab command -p shell=1 --a env:S=a --b env:S=b --max-samples 20 --name f -p \
		"cmd=n=\$((\$(cat $TMP/\$S 2>/dev/null || echo 0) + 1)); echo \$n >$TMP/\$S
		[ \$S = a ] && { [ \$n -ne 2 ] || exit 5; } || [ \$n -lt 3 ] || exit 7"
	echo "$output"
	[ "$status" -eq 3 ]
	want="the last because: the program exited with status 7 (see 'schedperf show f-b"
	want+=" --db $SCHEDPERF_DB')"
	[[ "${lines[-1]}" == *"3 blocks in a row failed, $want" ]]
}

@test "ab: a block whose second side fails keeps neither side's sample, and says so" {
	# b fails its 3rd call and measures 0 (no sample) its 5th; --seed 4
	# runs a first in both blocks, whose sample of each then goes
	cat >"$TMP/side.sh" <<'EOF'
n=$(($(cat "$1/$2" 2>/dev/null || echo 0) + 1))
echo "$n" >"$1/$2"
[ "$2:$n" != b:3 ] || exit 7
[ "$2:$n" != b:5 ] || { echo "v 0"; exit 0; }
echo "v $((n + 10))"
EOF
	run sp ab command -p 'metric_regex=v ([0-9]+)' --a "cmd:sh $TMP/side.sh $TMP a" \
		--b "cmd:sh $TMP/side.sh $TMP b" --max-samples 7 --seed 4 --name f
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$TMP/a") $(cat "$TMP/b")" = "9 9" ]
	w="schedperf: warning: side b: iteration failed:"
	[ "$(grep -c "^$w .*; its block is dropped, side a's sample of it deleted$" \
		<<<"$output")" -eq 2 ]
	[[ "$output" == *"$w the program exited with status 7; its block"* ]]
	[[ "$output" == *"$w metric value measured 0, not a positive number; its block"* ]]
	[[ "$output" == *"samples: 7 a, 7 b in 7 blocks (seed 4)"* ]]
	# the store, which compare pools, holds the seven whole blocks only
	[ "$(iterations_of f-a) $(iterations_of f-b)" = "7 7" ]
}

@test "ab: a hint names the store unless it is ./schedperf.db, and runs as it is said" {
	db="$TMP/an \$other store.db"
	# b measures once, then fails: three failed blocks stop ab with its hint
	run sp ab command --a cmd:true --b "cmd:sh -c '[ -e $TMP/ran ] && exit 7; : >$TMP/ran'" \
		--max-samples 20 --name h --db "$db"
	[ "$status" -eq 3 ]
	[[ "${lines[-1]}" == *"(see 'schedperf show h-b --db '$TMP/an \$other store.db'')" ]]
	hint=${lines[-1]##*(see \'}
	hint=${hint%\')}
	run eval "$SP ${hint#schedperf }"
	[ "$status" -eq 0 ]
	[[ "$output" == *"h-b"* ]]
	# the verdict's compare line alike; none for the default store
	run sp ab command --a env:X=1 --b env:X=2 -p cmd=true "${FEW[@]}" --name v --db "$db"
	[ "$status" -eq 0 ]
	hint=${lines[-1]##*(}
	hint=${hint%)}
	[[ "$hint" == "schedperf compare v-a v-b --db '"* ]]
	run eval "$SP ${hint#schedperf }"
	[ "$status" -eq 0 ]
	# $SCHEDPERF_DB is named (a worker sets it for its job); ./schedperf.db is not
	run sp ab command --a env:X=1 --b env:X=2 -p cmd=true "${FEW[@]}" --name v
	[ "${lines[-1]}" = "runs: v-a and v-b (schedperf compare v-a v-b --db $SCHEDPERF_DB)" ]
	cd "$TMP"
	SCHEDPERF_DB= run sp ab command --a env:X=1 --b env:X=2 -p cmd=true "${FEW[@]}" --name v
	[ "${lines[-1]}" = "runs: v-a and v-b (schedperf compare v-a v-b)" ]
	[ -e "$TMP/schedperf.db" ]
}

# The slow commit doubles the program's work: bisect-step compares with runs
# stored earlier, and on a machine as loaded as the one this was written on
# (load 20 on 2 CPUs) the level of even a best-of-ten CPU time drifts by
# 10-15 % between then and a step, which can leave a 20 % step undecided
# (skip); ab's paired blocks are what finds 20 % (bench/ab-power.sh).
@test "ab: a hint's PostgreSQL URL holds no password, and runs as said" {
	PGDB=$(pg_new_db)
	# trust authentication takes any password: the URL's two are there to be hidden
	url="postgresql://postgres:s3cret@/$PGDB?host=$SCHEDPERF_TEST_PGHOST&password=s3cret2"
	url+="&sslmode=disable"
	run sp --db "$url" ab command -p cmd=true --a env:X=1 --b env:X=2 "${FEW[@]}" \
		--name p
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *s3cret* ]]
	hint=${lines[-1]##*(schedperf }
	hint=${hint%)}
	want="compare p-a p-b --db 'postgresql://postgres@/$PGDB?host="
	[[ "$hint" == "$want"*"&sslmode=disable'" ]]
	eval "sp $hint" >/dev/null
	# b measures once, then fails: three failed blocks stop ab with its hint
	run sp --db "$url" ab command --a cmd:true \
		--b "cmd:sh -c '[ -e $TMP/ran ] && exit 7; : >$TMP/ran'" --max-samples 20 --name h
	echo "$output"
	[ "$status" -eq 3 ]
	[[ "$output" != *s3cret* ]]
	hint=${lines[-1]##*(see \'}
	[[ "$hint" == "schedperf show h-b --db 'postgresql://postgres@/$PGDB?"*"')" ]]
	hint=${hint%\')}
	eval "sp ${hint#schedperf }" >/dev/null
}

@test "bisect-step: git bisect run finds the commit that made the program slower" {
	command -v cc >/dev/null && command -v git >/dev/null || skip "no C compiler or git"
	git init -q "$TMP/repo"
	cd "$TMP/repo"
	git config user.email test@example.com
	git config user.name test
	for i in 1 2 3 4 5 6 7 8; do
		write_prog prog.c $([ "$i" -ge 5 ] && echo 2000 || echo 1000)
		echo "/* change $i */" >>prog.c
		git add prog.c
		git commit -q -m "change $i"
	done
	first=$(git rev-list --max-parents=0 HEAD)
	slow=$(git rev-list HEAD | sed -n 4p)	# change 5
	p=(-p cmd=./prog -p 'metric_regex=best ([0-9.]+)' -p metric_name=best)
	cc -O1 -o prog prog.c
	sp run command "${p[@]}" -i 10 --name bad --quiet
	git checkout -q "$first"
	cc -O1 -o prog prog.c
	sp run command "${p[@]}" -i 10 --name good --quiet
	git checkout -q -
	git bisect start HEAD "$first" >/dev/null
	run git bisect run sh -c 'cc -O1 -o prog prog.c || exit 125
		exec "$0" bisect-step command -p cmd=./prog -p "metric_regex=best ([0-9.]+)" \
			-p metric_name=best --good good --bad bad --max-samples 60' "$SP"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"$slow is the first bad commit"* ]]
	# each step is a run named after its commit
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM runs WHERE name = '${slow:0:12}'")" -eq 1 ]
	# --print-verdict: the word on stdout, exit 0
	git bisect reset >/dev/null 2>&1
	run sp bisect-step command "${p[@]}" --good good --bad bad --print-verdict --name tip \
		--max-samples 60 --quiet
	[ "$status" -eq 0 ]
	[ "$output" = bad ]
}

@test "bisect-step: errors exit 255 so that git bisect run stops" {
	run sp bisect-step command -p cmd=true --good nosuch --name x
	[ "$status" -eq 255 ]
	run sp bisect-step command -p cmd=true
	[ "$status" -eq 255 ]
	[[ "$output" == *"--good RUN is required"* ]]
	cd "$TMP"
	sp run command -p cmd=true -i 3 --name few --quiet
	run sp bisect-step command -p cmd=true --good few
	[ "$status" -eq 255 ]
	[[ "$output" == *"give --name"* ]]
	run sp bisect-step command -p cmd=true --good few --name x
	[ "$status" -eq 255 ]
	[[ "$output" == *"too few"* ]]
}

# SIGINT and SIGTERM stop a step as they stop run and ab: one line saying so
# and what was kept, exit 128 + the signal (which stops git bisect run).
@test "bisect-step: a signal stops the step with one line saying what it kept" {
	local c=(-p "cmd=$TMP/prog" -p 'metric_regex=value: ([0-9.]+)') sig code rc before
	# the ends and the step one benchmark: the program's value is the file's
	printf '#!/bin/sh\n[ -e %s ] && exec sleep 600\n! [ -e %s ] || touch %s\necho "value: $(cat %s)"\n' \
		"$TMP/first" "$TMP/step" "$TMP/first" "$TMP/value" >"$TMP/prog"
	chmod +x "$TMP/prog"
	echo 10 >"$TMP/value"
	sp run command "${c[@]}" -i 8 --name good --quiet
	echo 20 >"$TMP/value"
	sp run command "${c[@]}" -i 8 --name bad --quiet
	touch "$TMP/step"
	for sig in INT TERM; do
		rm -f "$TMP/first"
		before=$(stored_iterations)
		# its first iteration stores a sample; the next waits for the signal
		"$SP" -q bisect-step command "${c[@]}" --good good --bad bad --name "step-$sig" \
			2>"$TMP/err" &
		PID=$!
		wait_for iterations_above "$before"
		interrupt_and_wait -"$sig" "$PID"
		PID=
		code=$((128 + $(kill -l "$sig")))
		cat "$TMP/err"
		[ "$rc" -eq "$code" ]
		[ "$(wc -l <"$TMP/err")" -eq 1 ]
		[[ "$(cat "$TMP/err")" == "schedperf: interrupted: "*" completed iterations are kept; batch "*" of run 'step-$sig' is marked incomplete" ]]
		[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT b.complete FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'step-$sig'")" = 0 ]
	done
}

@test "bisect-step: pipe's cpus=cross under --cpus of one CPU is refused before a batch, dry run alike" {
	[ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	sp run pipe -p cpus=cross -p loops=100 -i 8 --name good --quiet
	sp runs --format json >"$TMP/before.json"
	for dry in --dry-run ""; do
		run sp bisect-step pipe -p cpus=cross -p loops=100 --good good --cpus 1 --name cc $dry
		[ "$status" -eq 255 ]
		assert_one_line_error
		[[ "$output" == *"'cross' needs two CPUs"*"--cpus"* ]]
	done
	sp runs --format json >"$TMP/after.json"
	cmp "$TMP/before.json" "$TMP/after.json"
	# two CPUs are enough (whatever else the step says of a good run so short)
	run sp bisect-step pipe -p cpus=cross -p loops=100 --good good --cpus 0-1 --name cc --dry-run
	[[ "$output" != *"needs two CPUs"* ]]
}

@test "ab: a SPEC's control characters are shown as \\xHH, its sides on one line" {
	run sp ab command -p cmd=true --a $'env:X=a\nb\e[1m' --b $'sysctl:kernel.ostype=6\n7' \
		--dry-run
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'ab command: a = env:X=a\x0ab\x1b[1m, b = sysctl:kernel.ostype=6\x0a7' ]
	[ "${lines[4]}" = 'setting sysctl kernel.ostype: a (as it is), b 6\x0a7' ]
	run sp ab command -p cmd=true --a $'env:X=a\nb' --b env:X=1 "${FEW[@]}" --name c
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'ab command: a = env:X=a\x0ab, b = env:X=1' ]
}

@test "ab --dry-run and bisect-step --dry-run check, print, and touch nothing" {
	sysctl_setup
	run sp ab command -p cmd=true --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" --name dry \
		--dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[2]}" == 'a: command {'*'"cmd":"true"'* ]]
	[ "${lines[4]}" = "setting sysctl $KNOB: a $A, b $B" ]
	[ "${lines[5]}" = "runs: dry-a and dry-b; dry run: nothing was run, read or changed" ]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	[ ! -e "$SCHEDPERF_DB" ]
	# what it can tell without the machine is still bad input
	run sp ab command -p cmd=true --a env:X=1 --b env:X=1 --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp ab command --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	# bisect-step reads the stored runs and samples nothing (a metric that
	# never varies, so that the margin can be decided on any machine)
	c=(-p 'cmd=echo v 5' -p 'metric_regex=v ([0-9]+)')
	sp run command "${c[@]}" -i 8 --name good --quiet
	cd "$TMP"
	run sp bisect-step command "${c[@]}" --good good --dry-run
	[ "$status" -eq 0 ]
	# outside git the step itself would stop: the dry run says what it needs
	[[ "${lines[0]}" == "bisect-step: command {"*"against good;"*"run: none: not inside a git repository here, so the step needs --name" ]]
	run sp bisect-step command "${c[@]}" --good good --dry-run --name step
	[[ "${lines[0]}" == *"; run: step" ]]
	# inside one, the commit it would be named after
	git init -q "$TMP/repo"
	git -C "$TMP/repo" -c user.name=t -c user.email=t@t commit -q --allow-empty -m c
	cd "$TMP/repo"
	run sp bisect-step command "${c[@]}" --good good --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *"; run: $(git rev-parse --short=12 HEAD)" ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM batches')" -eq 1 ]
	run sp bisect-step command "${c[@]}" --good nosuch --dry-run
	[ "$status" -eq 255 ]
	# --restore changes settings: no dry run of it; it restores this machine,
	# and makes no store to correct the copy of a mistyped --db in
	for o in --dry-run "--name foo" "--format json" "--max-samples 7" "-p loops=1" "--seed 3"; do
		run sp ab --restore $o
		[ "$status" -eq 2 ]
		assert_one_line_error
	done
	[[ "$output" == *"--restore takes no --seed"* ]]
	run sp --db "$TMP/none.db" ab --restore
	[ "$status" -eq 0 ]
	[[ "$output" == "nothing to restore: "* ]]
	[ ! -e "$TMP/none.db" ]
}

@test "ab --dry-run --format json prints the plan as one JSON object, touching nothing" {
	# a dry run reads no setting: no root needed for a sysctl it names
	k=sysctl:kernel.sched_autogroup_enabled
	run sp ab pipe -p loops=100 --a "$k=0" --b "$k=1,cpus:0" --b env:X=1 --name dj \
		--max-time 30 --dry-run --format json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
	printf '%s\n' "$output" >"$TMP/plan.json"
	[ "$(json 'd["dry_run"], d["workload"], d["runs"]' "$TMP/plan.json")" = \
		"True pipe ['dj-a', 'dj-b']" ]
	[ "$(json 'd["a"]["specs"], d["b"]["specs"]' "$TMP/plan.json")" = \
		"['$k=0'] ['$k=1,cpus:0', 'env:X=1']" ]
	[ "$(json 'd["a"]["params"]["loops"], d["a"]["cpus"], d["b"]["cpus"]' "$TMP/plan.json")" = \
		"100 None 0" ]
	setting="{'kind': 'sysctl', 'name': 'kernel.sched_autogroup_enabled', 'a': '0', 'b': '1'}"
	[ "$(json 'd["settings"]' "$TMP/plan.json")" = "[$setting]" ]
	[ "$(json 'd["metric"], d["unit"], d["better"], d["alpha"], d["margin_pct"]' \
		"$TMP/plan.json")" = "usec_per_op usec lower 0.05 2.0" ]
	[ "$(json 'd["max_samples"], d["max_time"]' "$TMP/plan.json")" = "None 30.0" ]
	[ "$(json 'd["seed"], d["timeout"]' "$TMP/plan.json")" = "None None" ]
	[ ! -e "$SCHEDPERF_DB" ]
	# the default cap, and a setting one side leaves as it is: null; the
	# seed and the iterations' timeout as given
	run sp ab pipe -p loops=100 --a "$k=0" --b env:X=1 --seed 17 --timeout 7.5 --dry-run \
		--format json
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$TMP/plan.json"
	[ "$(json 'd["max_samples"], d["max_time"], d["settings"][0]["b"]' "$TMP/plan.json")" = \
		"200 None None" ]
	[ "$(json 'd["seed"], d["timeout"]' "$TMP/plan.json")" = "17 7.5" ]
	# the text says them too
	run sp ab pipe -p loops=100 --a "$k=0" --b env:X=1 --seed 17 --timeout 7.5 --dry-run
	[ "$status" -eq 0 ]
	[[ "${lines[1]}" == *", at most 200 blocks, seed 17, an iteration killed after 7.5 s" ]]
	[[ "$(json 'd["runs"][0]' "$TMP/plan.json")" == ab-*-a ]]
	# text stays the default
	run sp ab pipe -p loops=100 --a "$k=0" --b "$k=1" --name dj --dry-run
	[ "$status" -eq 0 ]
	[ "${lines[5]}" = "runs: dj-a and dj-b; dry run: nothing was run, read or changed" ]
}

@test "ab command: a program a side's env:PATH does not hold is refused before anything runs" {
	# found in schedperf's own PATH, not in side a's
	for dry in --dry-run ""; do
		run sp ab command -p cmd=true --a env:PATH=/nonexistent --b env:X=1 \
			--max-samples 7 $dry
		[ "$status" -eq 2 ]
		assert_one_line_error
		want="cannot run 'true' for ab --a: no such executable in its env:PATH=/nonexistent"
		[[ "$output" == *"$want (give the program's full path"* ]]
	done
	run sp ab command -p cmd=true --a env:X=1 --b env:PATH=/nonexistent --dry-run
	[ "$status" -eq 2 ]
	[[ "$output" == *"for ab --b: "* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	# a PATH that holds it, or a path that needs none, passes
	dir=$(dirname "$(type -P true)")
	run sp ab command -p cmd=true --a "env:PATH=$dir" --b env:X=1 --dry-run
	[ "$status" -eq 0 ]
	run sp ab command -p cmd="$(type -P true)" --a env:PATH=/nonexistent --b env:X=1 \
		--dry-run
	[ "$status" -eq 0 ]
}

pg_job() {	# pg_job SQL-EXPRESSION: of job 1
	psql_in "$PGDB" "SELECT $1 FROM jobs WHERE id = 1"
}

# ab_job_running MAX_SAMPLES LEASE: on a new PostgreSQL store, a worker
# (PID) runs an ab job that sets $KNOB; returns once the setting changed
# and the store holds its copy of the journal.
ab_job_running() {
	sysctl_setup
	PGDB=$(pg_new_db)
	export SCHEDPERF_DB=$(pg_url "$PGDB")
	sp submit ab command "${NOISY_CMD[@]}" --a "sysctl:$KNOB=$A" --b "sysctl:$KNOB=$B" \
		--max-samples "$1" >/dev/null
	"$SP" worker --once --lease "$2" >/dev/null 2>"$TMP/err" &
	PID=$!
	wait_for knob_changed
	wait_for copy_is 1 pg_journal
}

@test "worker: SIGTERM reaches the ab it runs, which puts the sysctl back; the job is queued again" {
	ab_job_running 100000 60
	interrupt_and_wait -TERM "$PID"
	PID=
	[ "$rc" -eq 143 ]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	[ "$(pg_journal)" -eq 0 ]
	[ "$(pg_job "state || ' ' || attempts")" = "queued 0" ]
	grep -q "job 1: the worker was stopped by signal 15; the job is queued again" "$TMP/err"
}

@test "worker: the next ab job puts back what a SIGKILLed worker's ab left changed" {
	ab_job_running 7 1
	kill -KILL "$PID"
	wait "$PID" || true
	PID=
	# its ab dies with it, the setting and its journal stay
	wait_for refute process_on_this_store "schedperf -q ab command"
	knob_changed
	v=$(cat "$KNOB_FILE")
	[ "$(pg_journal)" -eq 1 ]
	[ "$(machine_journal)" = "sysctl $KNOB $ORIGINAL" ]
	wait_for pg_lease_over
	run sp worker --once
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "schedperf: put back sysctl $KNOB = $ORIGINAL (it was $v): an ab (process "*") changed it and was killed before it put it back, and this worker's jobs measure" ]]
	[ "${lines[1]}" = "job 1: done" ]
	[ "$(pg_job "state || ' ' || attempts")" = "done 2" ]
	[ "$(cat "$KNOB_FILE")" = "$ORIGINAL" ]
	[ "$(pg_journal)" -eq 0 ]
}

pg_lease_over() {
	[ "$(pg_job "(lease_until < now())::int")" -eq 1 ]
}

# Last in the file: it waits for setup_file's ab of 200 blocks, which runs
# alongside the tests before it (under ASan longer than the first 14 of them).
@test "ab: --max-time alone lifts the cap on samples; the default cap is said in the reason" {
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-time 30 --dry-run
	[[ "${lines[1]}" == *", at most 30 s" ]]
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --max-time 30 --max-samples 9 --dry-run
	[[ "${lines[1]}" == *", at most 9 blocks or 30 s" ]]
	run sp ab command -p cmd=true --a env:X=1 --b env:X=2 --dry-run
	[[ "${lines[1]}" == *", at most 200 blocks" ]]
	# an A/A test never decides within 1e-4 %: the cap ends it, and says
	# which (the one of 200 blocks is setup_file's)
	sp ab command -p cmd=true --a env:X=1 --b env:X=2 --margin 0.0001 --alpha 0.0001 \
		--max-samples 18 --format json >"$TMP/ab.json"
	[ "$(json 'd["reason"]' "$TMP/ab.json")" = "max-samples" ]
	local aa=$BATS_FILE_TMPDIR/aa
	wait_for test -s "$aa/rc"
	cat "$aa/err"
	[ "$(cat "$aa/rc")" -eq 0 ]
	[ "$(json 'd["reason"]' "$aa/ab.json")" = "max-samples: the default of 200 per side (give --max-samples N, or --max-time SEC alone for no cap)" ]
	[ "$(json 'd["blocks"]' "$aa/ab.json")" -eq 200 ]
}
