# What the tests that change a sysctl share (ab.bats, knob_journal.bats).
#
# They change kernel.printk_ratelimit (harmless) and hold $SYSCTL_LOCK so
# that two checkouts' tests never change it at once; teardown puts back the
# value it had. This machine's knob journal is the test's own
# ($SCHEDPERF_TEST_RUNDIR, helpers.bash).

KNOB=kernel.printk_ratelimit
KNOB_FILE=/proc/sys/kernel/printk_ratelimit
SYSCTL_LOCK=/tmp/schedperf-tests-sysctl.lock
JOURNAL="$SCHEDPERF_TEST_RUNDIR/schedperf-knobs.journal"
KNOB_LOCK="$SCHEDPERF_TEST_RUNDIR/schedperf-knobs.lock"

# An ab's command too noisy for a verdict while a test waits on the ab:
# sleeps of 10 to 90 ms by the shell's pid (a steady 'sleep 0.02' reaches
# 'same' in half a second, and the ab is over before the test kills it).
NOISY_CMD=(-p shell=1 -p 'cmd=sleep 0.0$(($$ % 9 + 1))')

# sysctl_hold: hold $SYSCTL_LOCK until the test ends (fd 8), as a test that
# changes $KNOB does; a test that only reads it, and needs it to stay what
# it read (another test's ab sets it to that value plus 1 or 2), holds it too.
# Read-only when this user may not write the file: flock needs no more.
sysctl_hold() {
	{ exec 8>>"$SYSCTL_LOCK"; } 2>/dev/null || exec 8<"$SYSCTL_LOCK"
	flock 8
}

sysctl_setup() {
	[ -w "$KNOB_FILE" ] || skip "$KNOB is not writable here (needs root)"
	sysctl_hold
	ORIGINAL=$(cat "$KNOB_FILE")
	A=$((ORIGINAL + 1))
	B=$((ORIGINAL + 2))
}

# After the test's processes were killed: put back the value the test found,
# once none of them is left to write after it (a worker's ab dies with it,
# a moment later).
sysctl_teardown() {
	[ -n "${ORIGINAL:-}" ] || return 0
	WAIT_LIMIT=60 wait_for refute process_on_this_store '(^|/)schedperf( |$)' || true
	echo "$ORIGINAL" >"$KNOB_FILE"
	exec 8>&-
}

# kill_ab PATTERN: kill the ab $PID with SIGKILL, reap it, and return once
# the processes its command line PATTERN matches are gone too: its
# iteration's task is a fork of the ab that holds the machine's lock it
# took until the iteration's guardian kills it, a moment later (longer on a
# loaded machine), and a command started before then waits for the lock
# and says so.
kill_ab() {
	kill -9 "$PID"
	wait "$PID" 2>/dev/null || true
	PID=
	wait_for refute process_on_this_store "$1"
}

knob_is() {	# knob_is VALUE: $KNOB holds VALUE now
	[ "$(cat "$KNOB_FILE")" = "$1" ]
}

knob_changed() {
	! knob_is "$ORIGINAL"
}

# machine_journal: what this machine's knob journal holds, a "KIND NAME
# ORIGINAL" line per setting (nothing when there is no journal).
machine_journal() {
	[ -e "$JOURNAL" ] || return 0
	"$PYTHON" -c 'import json, sys
for s in json.load(open(sys.argv[1]))["settings"]:
    print(s["kind"], s["name"], s["original"])' "$JOURNAL"
}

# journal_entry KIND NAME ORIGINAL [BOOT]: a journal that holds one setting
# changed by a process that is gone (pid 1 never started at tick 1), of
# this boot unless BOOT is given.
journal_entry() {
	local boot=${4:-$(cat /proc/sys/kernel/random/boot_id)}

	cat >"$JOURNAL" <<-EOF
	{"schema": "schedperf-knobs/1", "settings": [{"kind": "$1", "name": "$2",
	 "original": "$3", "boot": "$boot", "pid": 1, "start": 1,
	 "started": "2026-12-01T00:00:00Z"}]}
	EOF
}

sqlite_copy() {	# sqlite_copy STORE: the rows of the store's copy of the journal
	sqlite3 "$1" 'SELECT count(*) FROM knob_journal'
}

pg_copy() {	# pg_copy DATABASE: the same on PostgreSQL
	psql_in "$1" 'SELECT count(*) FROM knob_journal'
}

# every_point CHECK COMMAND...: run COMMAND under strace again and again,
# killed by SIGKILL on entering the Nth syscall of each kind in
# $POINT_SYSCALLS that touches $POINT_FILE (default $KNOB_FILE) or this
# machine's journal (a kind also in $POINT_ANYWHERE whatever it touches);
# after each, CHECK the machine. POINTS counts the points killed at.
# strace counts each syscall apart.
#
# Each kind's calls are counted beforehand by one whole run of COMMAND,
# CHECKed too, that traces every kind unfiltered (a kind not in
# $POINT_ANYWHERE counts the calls that name the file or the journal, as
# strace's -P does in the runs that kill): the whole run is the longest of
# all (every point is a run up to it), and one serves every kind. A kind's
# points end early at a run that makes fewer calls than its point.
#
# A call the same as the two before it and the one after it (the same
# syscall of the same file with the same flags: each block of an ab writes
# its side's value so) is one more of a run whose first two and last are
# killed at, which leave the machine in every state the others do: it is
# not killed at. Every kind, and every call that differs from its
# neighbours, still is.
POINT_SYSCALLS="openat rename,renameat,renameat2 unlink,unlinkat"
POINT_ANYWHERE=""

every_point() {
	local check=$1 sc file
	local -A points
	shift

	file=${POINT_FILE:-$KNOB_FILE}
	strace -f -qq -o "$TMP/strace" -e trace="${POINT_SYSCALLS// /,}" "$@" \
		>"$TMP/out" 2>"$TMP/err" || true
	"$check" || { echo "after a whole run: $(cat "$TMP/err")"; return 1; }
	for sc in $POINT_SYSCALLS; do
		grep -E "^[0-9]+ +(${sc//,/|})\(" "$TMP/strace" >"$TMP/calls" || true
		if [[ " $POINT_ANYWHERE " != *" $sc "* ]]; then
			grep -F -e "\"$file\"" -e "\"$JOURNAL\"" -e "\"$JOURNAL.new\"" \
				"$TMP/calls" >"$TMP/calls.path" || true
			mv "$TMP/calls.path" "$TMP/calls"
		fi
		# each call's text without its pid and result: the numbers of
		# the calls to kill at
		points[$sc]=$(sed -E 's/^[0-9]+ +//; s/ += .*$//' "$TMP/calls" | awk '
			{ call[NR] = $0 }
			END {
				for (n = 1; n <= NR; n++)
					if (!(n > 2 && n < NR && call[n] == call[n - 1] &&
					      call[n] == call[n - 2] && call[n] == call[n + 1]))
						printf "%d ", n
			}')
	done
	POINTS=0
	for sc in $POINT_SYSCALLS; do
		points_of "$sc" "${points[$sc]}" "$check" "$@" || return 1
	done
}

# points_of KIND NS CHECK COMMAND...: every_point's kills at KIND's calls
# numbered NS (ascending), added to POINTS; over at a run that makes fewer
# calls than its number.
points_of() {
	local sc=$1 ns=$2 check=$3 n calls paths
	shift 3

	paths=(-P "${POINT_FILE:-$KNOB_FILE}" -P "$JOURNAL" -P "$JOURNAL.new")
	[[ " $POINT_ANYWHERE " == *" $sc "* ]] && paths=()
	for n in $ns; do
		strace -f -qq -o "$TMP/strace" "${paths[@]}" -e trace="$sc" \
			-e inject="$sc:signal=KILL:when=$n" "$@" >"$TMP/out" 2>"$TMP/err" || true
		calls=$(grep -cE "^[0-9]+ +(${sc//,/|})\(" "$TMP/strace" || true)
		"$check" || { echo "after a SIGKILL at $sc #$n: $(cat "$TMP/err")"; return 1; }
		[ "$calls" -ge "$n" ] || break
		POINTS=$((POINTS + 1))
	done
}
