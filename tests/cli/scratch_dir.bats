#!/usr/bin/env bats
# A workload's scratch directory (reaim's files): the runner makes one for
# each iteration and it goes however the iteration ends: a timeout, a
# signal to schedperf, kill -9 of schedperf (the guardian removes it), a
# user killed in a disk test. Each test has a TMPDIR of its own, so that it
# never sees the directories of a run of another test or suite.

load helpers

scratch_setup() {
	export TMPDIR="$BATS_TEST_TMPDIR/scratch"
	mkdir -p "$TMPDIR"
}

scratch_dirs() {	# the scratch directories now, one a line
	find "$TMPDIR" -mindepth 1 -maxdepth 1 -name 'schedperf-reaim-*'
}

none_left() {	# no scratch directory is left; quiet, for wait_for
	[ -z "$(scratch_dirs)" ]
}

no_scratch_left() {	# the same, saying what is left
	none_left || { ls -lR "$TMPDIR"; return 1; }
}

has_file() {	# has_file NAME: an iteration's directory holds a file NAME (a glob)
	compgen -G "$TMPDIR/schedperf-reaim-*/$1" >/dev/null
}

# start_reaim NAME ARGS...: a reaim run in the background, $runner, which
# runs until it is stopped, its output in $TMP/out and $TMP/err.
start_reaim() {
	local name=$1

	shift
	"$SP" run reaim -p users=2 -p jobs=100000 "$@" -i 1 --name "$name" --no-monitors \
		>"$TMP/out" 2>"$TMP/err" 3>&- &
	runner=$!
}

@test "a timeout leaves no scratch directory, nor its files" {
	scratch_setup
	run sp run reaim -p users=2 -p jobs=100000 -i 2 --timeout 0.5 --name to --no-monitors
	[ "$status" -eq 1 ]
	[[ "$output" == *"timed out after 0.5 s"* ]]
	no_scratch_left
}

@test "SIGINT and SIGTERM to the run leave no scratch directory" {
	scratch_setup
	for sig in INT TERM; do
		start_reaim "$sig"
		wait_for has_file tmpa.common
		kill -"$sig" "$runner"
		runner_ends $((128 + $(kill -l "$sig")))
		no_scratch_left
	done
}

@test "kill -9 of the run: the guardian removes the scratch directory" {
	scratch_setup
	start_reaim k9
	wait_for has_file tmpa.common
	kill -9 "$runner"
	runner_ends 137
	# the guardian kills the iteration's group and has the directory removed after it
	wait_for none_left || { ls -lR "$TMPDIR"; return 1; }
}

# stop_in_disk_test: hold the iteration of $runner while a user has its
# disk test's file; fails, with the iteration let go, at any other moment.
stop_in_disk_test() {
	hold_iteration "$runner" || return 1
	has_file 'tmpd.*' && return 0
	release_iteration
	return 1
}

@test "a run whose user was killed in a disk test leaves no file" {
	scratch_setup
	# a file of 4 MiB a disk test, which each user writes and reads again
	start_reaim user -p workfile=dbase -p filesize=4096 -p poolsize=0
	wait_for stop_in_disk_test
	# the users (and what they run) die; the workload itself ends as usual
	for pid in $(descendants "$child"); do
		kill -9 "$pid" 2>/dev/null || true
	done
	release_iteration
	runner_ends 1
	grep -q 'reaim: a user was killed by signal 9' "$TMP/err"
	no_scratch_left
}

@test "a normal run leaves no scratch directory; reaim works in the runner's" {
	scratch_setup
	sp run reaim -p users=2 -p jobs=10 -p filesize=8 -p poolsize=16 -i 2 --name n --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE failure IS NULL')" \
		-eq 2 ]
	no_scratch_left
}

@test "files that would not fit the scratch directory's free space are refused up front" {
	scratch_setup
	# 101 files (the users' and the common one) of 1 GiB + 160 MiB
	local need_kb=$((101 * (1048576 + 167772)))
	local free_kb=$(df -Pk "$TMPDIR" | awk 'NR == 2 { print $4 }')

	[ "$free_kb" -lt "$need_kb" ] || skip "$TMPDIR has more than 117 GiB free"
	run sp run reaim -p users=100 -p filesize=1048576 -p poolsize=16777216 -i 1 --name big
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"reaim needs about "*" MiB of free space for its files in $TMPDIR"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	no_scratch_left
	TMPDIR="$BATS_TEST_TMPDIR/nonexistent" run sp run reaim -i 1 --name gone
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"nonexistent, which cannot be used: "* ]]
}

@test "a normal run leaves no remover: the run removes each iteration's directory itself" {
	scratch_setup
	# a session of its own: every process the run forks stays in it, zombies too
	setsid sh -c 'echo $$ >"$1"; shift; exec "$@"' sh "$TMP/sid" \
		"$SP" run reaim -p users=2 -p jobs=10 -p filesize=8 -p poolsize=16 -i 3 \
		--name r --quiet --no-monitors 3>&-
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE failure IS NULL')" \
		-eq 3 ]
	no_scratch_left
	# a remover that outlived the run (one per iteration), alive or a zombie
	local left
	left=$(ps -s "$(cat "$TMP/sid")" -o pid=,stat=,args= || true)
	[ -z "$left" ] || { echo "left: $left"; return 1; }
}
