#!/usr/bin/env bats
# The knobs of issue 31 (runner/knobs.h): each set for ab's sides, run's
# and bisect-step's --knob, read back from the kernel inside the
# workload's tasks (the command workload's program reads /proc/self/sched,
# the file under /sys, its cgroup's file), recorded in the batch's
# environment, and put back after; refused with exit 3 where the machine
# lacks it, before anything changes; and an ab killed by SIGKILL at every
# point that touches them leaves what ab --restore puts back, on SQLite and
# on PostgreSQL, its scratch cgroups removed by the reaper at once.

load helpers
load sysctl
pg_file

# A file under /sys that changes nothing while KSM is off (its run file 0):
# how many pages KSM would scan. $SYSFS_LOCK keeps two checkouts' tests
# from changing it at once; teardown puts back the value it had.
SYSFS=/sys/kernel/mm/ksm/pages_to_scan
SYSFS_LOCK=/tmp/schedperf-tests-sysfs.lock

teardown() {
	[ -n "${PID:-}" ] && kill -9 "$PID" 2>/dev/null
	if [ -n "${ORIGINAL:-}" ]; then
		echo "$ORIGINAL" >"$SYSFS"
		exec 8>&-
	fi
	for db in ${PGDBS:-}; do
		psql_in postgres "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true
	done
	rm -rf "$TMP"
}

sysfs_setup() {
	[ -w "$SYSFS" ] && [ "$(cat /sys/kernel/mm/ksm/run 2>/dev/null)" = 0 ] ||
		skip "$SYSFS is not here, not writable, or KSM runs"
	exec 8>"$SYSFS_LOCK"
	flock 8
	ORIGINAL=$(cat "$SYSFS")
	A=$((ORIGINAL + 1))
	B=$((ORIGINAL + 2))
}

# The cpu controller's weight file and two values for it (v2, else v1), or skip.
cgroup_setup() {
	[ "$(id -u)" = 0 ] || skip "scratch cgroups need root here"
	if grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		WEIGHT=cpu.weight W1=50 W2=200 CPUDIR=/sys/fs/cgroup
	elif [ -d /sys/fs/cgroup/cpu ] && [ -e /sys/fs/cgroup/cpu/cpu.shares ]; then
		WEIGHT=cpu.shares W1=512 W2=2048 CPUDIR=/sys/fs/cgroup/cpu
	else
		skip "no cpu controller at /sys/fs/cgroup"
	fi
}

# A program for the command workload that prints what the kernel says of
# its own task: the line NAME of /proc/self/sched (its number alone).
sched_line() {
	echo "cmd=sh -c 'grep -E \"^$1 \" /proc/self/sched'"
}

# samples RUN [STORE]: the distinct values of metric "value" in RUN.
samples() {
	sp ${2:+--db "$2"} export "$1" | "$PYTHON" -c 'import json, sys
print(" ".join(sorted({"%g" % v for r in json.load(sys.stdin)["runs"] for b in r["benchmarks"]
                       for m in b["metrics"] if m["name"] == "value" for v in m["samples"]})))'
}

# cgroup_program: for the command workload with shell=1, a line that prints
# its own cgroup's weight (its cgroup of the cpu controller on v1, else v2's).
cgroup_program() {
	echo "cmd=cat $CPUDIR\$(awk -F: '\$2 ~ /(^|,)cpu(,|\$)/ { c = \$3 } \$1 == 0 { u = \$3 } END { print c != \"\" ? c : u }' /proc/self/cgroup)/$WEIGHT"
}

# Each schedperf this test runs, its pid in $TMP/pids (sh execs it, keeping
# its pid): scratch cgroups are named by the pid of the process that made
# them, and another checkout's tests running at once make theirs.
RECORD_PID='echo $$ >>"$0"; exec "$@"'
sp() {
	sh -c "$RECORD_PID" "$TMP/pids" "$SP" "$@"
}

scratch_cgroups() {	# this test's scratch cgroups of knobs (a side's, "a" "b", or a run's, "k")
	local pids
	pids=$(sort -u "$TMP/pids" 2>/dev/null | paste -sd '|')
	[ -n "$pids" ] || return 0
	find /sys/fs/cgroup -maxdepth 3 -type d \( -name 'schedperf-*-a' -o -name 'schedperf-*-b' \
		-o -name 'schedperf-*-k' \) 2>/dev/null | grep -E "/schedperf-($pids)-[0-9]+-[abk]\$" || true
}

no_scratch_cgroups() {
	[ -z "$(scratch_cgroups)" ]
}

none_of() {	# none_of PID: no scratch cgroup that process PID made is left
	! scratch_cgroups | grep -q "/schedperf-$1-"
}

machine_journal() {	# "KIND NAME ORIGINAL" per journalled setting
	[ -e "$JOURNAL" ] || return 0
	"$PYTHON" -c 'import json, sys
for s in json.load(open(sys.argv[1]))["settings"]:
    print(s["kind"], s["name"], s["original"])' "$JOURNAL"
}

@test "knobs: slice, policy and nice are the workload's tasks' own, read back there" {
	sp run command -p "$(sched_line se.slice)" -p 'metric_regex=: +([0-9]+)' \
		--knob slice:3000 -i 2 --name slice -q
	[ "$(samples slice)" = 3e+06 ]
	[ "$(env_of slice knob.slice)" = 3000 ]
	# SCHED_BATCH is policy 3; nice 5 is prio 125
	sp run command -p "$(sched_line policy)" -p 'metric_regex=: +([0-9]+)' \
		--knob policy:batch --knob nice:5 -i 1 --name batch -q
	[ "$(samples batch)" = 3 ]
	sp run command -p "$(sched_line prio)" -p 'metric_regex=: +([0-9]+)' \
		--knob policy:batch,nice:5 -i 1 --name nice -q
	[ "$(samples nice)" = 125 ]
	[ "$(env_of nice knob.policy)" = batch ]
	# each side's own, in one ab
	sp ab command -p "$(sched_line se.slice)" -p 'metric_regex=: +([0-9]+)' \
		--a slice:3000 --b slice:300 --max-samples 7 --name sl -q
	[ "$(samples sl-a)" = 3e+06 ]
	[ "$(samples sl-b)" = 300000 ]
	# and without the knob the kernel's own, unmarked
	sp run command -p "$(sched_line se.slice)" -p 'metric_regex=: +([0-9]+)' -i 1 --name plain -q
	[ "$(samples plain)" != 3e+06 ]
	[ "$(env_of plain knob.slice)" = "(absent)" ]
	# tasks that inherit SCHED_IDLE keep the default slice: bad input, not an old kernel
	run chrt -i 0 "$SP" run command -p cmd=true --knob slice:300 -i 1 --name idle
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"SCHED_IDLE, this process's policy, "* ]]
}

@test "knobs: a real-time policy for the tasks, where this process may give one" {
	run sp run command -p "$(sched_line prio)" -p 'metric_regex=: +([0-9]+)' \
		--knob policy:fifo:10 -i 1 --name fifo -q
	if [ "$status" -eq 3 ]; then
		assert_one_line_error
		[[ "$output" == *"not permitted here"* ]]
		skip "SCHED_FIFO is not permitted here"
	fi
	[ "$status" -eq 0 ]
	# prio 99 - 10 for SCHED_FIFO priority 10
	[ "$(samples fifo)" = 89 ]
	# a new v1 cpu cgroup has no real-time runtime: bad input, not "run as root"
	[ -w /sys/fs/cgroup/cpu/cpu.rt_runtime_us ] || return 0
	run sp run command -p cmd=true --knob policy:fifo:10,cgroup:cpu.shares=1024 -i 1 --name rt
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"(give its cgroup some, e.g. cgroup:cpu.rt_runtime_us=10000"* ]]
	sp run command -p cmd=true --knob policy:fifo:10,cgroup:cpu.rt_runtime_us=10000 -i 1 \
		--name rt -q
}

@test "knobs: what the machine lacks is refused with why, exit 3, before anything changes" {
	for spec in uclamp:0-512 governor:performance sysfs:/sys/nosuch/file=1 \
		    slice:3000,uclamp:0-512; do
		run sp run command -p cmd=true --knob "$spec" -i 1 --name lacks
		case $spec in
		uclamp*) grep -q CONFIG_UCLAMP_TASK=y "/boot/config-$(uname -r)" 2>/dev/null &&
			 continue ;;
		governor*) ls /sys/devices/system/cpu/cpu0/cpufreq >/dev/null 2>&1 && continue ;;
		esac
		[ "$status" -eq 3 ] || { echo "$spec: $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"CONFIG_UCLAMP_TASK"* || "$output" == *"cpufreq"* ||
		   "$output" == *"has no /sys/nosuch/file"* ]]
	done
	# nothing was journalled or stored
	[ -z "$(machine_journal)" ]
	[ ! -e "$SCHEDPERF_DB" ]
	# bad input is exit 2, before the machine is asked anything
	for spec in slice:50 policy:fifo nice:40 uclamp:9-1 cgroup:cpu=1 sysfs:/etc/passwd=x \
		    procfs:/proc/meminfo=1 cpus:0 param:x=1; do
		run sp run command -p cmd=true --knob "$spec" -i 1 --name bad
		[ "$status" -eq 2 ] || { echo "$spec: $output"; return 1; }
		assert_one_line_error
	done
	run sp run --resume --knob slice:300
	[ "$status" -eq 2 ]
}

@test "knobs: sysfs: each side's value read back by its tasks, the original put back after" {
	sysfs_setup
	sp ab command -p "cmd=cat $SYSFS" -p 'metric_regex=([0-9]+)' --a "sysfs:$SYSFS=$A" \
		--b "sysfs:kernel/mm/./ksm//pages_to_scan=$B" --max-samples 7 --name s -q
	[ "$(samples s-a)" = "$A" ]
	[ "$(samples s-b)" = "$B" ]
	[ "$(cat "$SYSFS")" = "$ORIGINAL" ]
	[ -z "$(machine_journal)" ]
	sp run command -p "cmd=cat $SYSFS" -p 'metric_regex=([0-9]+)' --knob "sysfs:$SYSFS=$A" \
		-i 2 --name r -q
	[ "$(samples r)" = "$A" ]
	[ "$(env_of r "knob.sysfs.$SYSFS")" = "$A (original $ORIGINAL)" ]
	[ "$(cat "$SYSFS")" = "$ORIGINAL" ]
}

@test "knobs: cgroup: each side's tasks in a scratch cgroup with its setting, removed after" {
	cgroup_setup
	sp ab command -p shell=1 -p "$(cgroup_program)" -p 'metric_regex=([0-9]+)' \
		--a "cgroup:$WEIGHT=$W1" --b "cgroup:$WEIGHT=$W2" --max-samples 7 --name c -q
	[ "$(samples c-a)" = "$W1" ]
	[ "$(samples c-b)" = "$W2" ]
	no_scratch_cgroups
	[ -z "$(machine_journal)" ]
	sp run command -p shell=1 -p "$(cgroup_program)" -p 'metric_regex=([0-9]+)' \
		--knob "cgroup:$WEIGHT=$W1" -i 2 --name r -q
	[ "$(samples r)" = "$W1" ]
	[ "$(env_of r "knob.cgroup.$WEIGHT")" = "$W1" ]
	no_scratch_cgroups
	# a file the machine's version of the controller lacks: exit 3, nothing left
	other=cpu.weight
	[ "$WEIGHT" = cpu.weight ] && other=cpu.shares
	run sp run command -p cmd=true --knob "cgroup:$other=100" -i 1 --name lacks
	[ "$status" -eq 3 ]
	assert_one_line_error
	no_scratch_cgroups
	[ -z "$(machine_journal)" ]
}

# The memory controller's limit file (v2, else v1) where it counts OOM kills, or skip.
memory_setup() {
	[ "$(id -u)" = 0 ] || skip "scratch cgroups need root here"
	if grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
		LIMIT=memory.max
	elif grep -qs '^oom_kill ' /sys/fs/cgroup/memory/memory.oom_control; then
		LIMIT=memory.limit_in_bytes
	else
		skip "no memory controller that counts OOM kills at /sys/fs/cgroup"
	fi
}

@test "knobs: an iteration the OOM killer killed at its cgroup's memory limit says so" {
	memory_setup
	run sp run pipe -p loops=1000 -i 1 --knob "cgroup:$LIMIT=1" --name oom
	[ "$status" -eq 1 ]
	[[ "$output" == *"the last failed: killed by signal 9 (Killed); the kernel's OOM $(
		)killer killed a task of it, at its cgroup's memory limit (see "* ]]
	no_scratch_cgroups
	# a signal 9 that is no OOM kill is not said to be one
	run sp run command -p "cmd=sh -c 'kill -9 \$\$'" -p shell=0 -i 1 \
		--knob "cgroup:$LIMIT=1000000000" --name nine
	[ "$status" -eq 1 ]
	[[ "$output" == *"killed by signal 9"* ]]
	[[ "$output" != *"OOM"* ]]
	no_scratch_cgroups
}

@test "knobs: a side's cpus: and env: are in its batch's environment; one knob given twice is refused" {
	sp ab command -p cmd=true --a env:AB=x,cpus:0 --b 'env:AB=y
z' --max-samples 7 --name e -q
	[ "$(env_of e-a knob.env.AB)" = x ]
	[ "$(env_of e-a knob.cpus)" = 0 ]
	[ "$(env_of e-b knob.env.AB)" = 'y\nz' ]
	[ "$(env_of e-b knob.cpus)" = "(absent)" ]
	for twice in env:AB=1,env:AB=2 cpus:0,cpus:1 cgroup:cpu.weight=5,cgroup:cpu.weight=6 \
		     cmd:true; do
		# cmd: takes the rest of its SPEC: twice is two --a
		run sp ab command -p cmd=true --a "$twice" --a "${twice/#cmd:true/cmd:false}" \
			--b env:AB=3 --max-samples 7 --name twice
		[ "$status" -eq 2 ] || { echo "$twice: $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"twice"* ]]
	done
	# the same value twice is the one setting
	sp run command -p cmd=true --knob env:AB=1,env:AB=1 -i 1 --name once -q
	[ "$(env_of once knob.env.AB)" = 1 ]
}

@test "knobs: a value is recorded as the kernel took it; two sides it took alike are refused" {
	sysfs_setup
	cgroup_setup
	[ -e /sys/fs/cgroup/cpuset/cpuset.cpus ] ||
		grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
		skip "no cpuset controller"
	[ "$(nproc)" -ge 2 ] || skip "one CPU"
	# a list with commas is one cgroup: value, recorded as the kernel spells it
	sp ab command -p cmd=true --a cgroup:cpuset.cpus=0,1 --b cgroup:cpuset.cpus=0 \
		--max-samples 7 --name cs -q
	[ "$(env_of cs-a knob.cgroup.cpuset.cpus)" = 0-1 ]
	for pair in "sysfs:$SYSFS=0$A sysfs:$SYSFS=$A" \
		    "cgroup:cpuset.cpus=0,1 cgroup:cpuset.cpus=0-1"; do
		run sp ab command -p cmd=true --a "${pair% *}" --b "${pair#* }" --max-samples 7 \
			--name alike
		[ "$status" -eq 2 ] || { echo "$pair: $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"took the two sides' values alike"* ]]
	done
	# one side's value taken as the value the other keeps: they do not differ in it
	run sp ab command -p cmd=true --a "sysfs:$SYSFS=0$ORIGINAL" --b env:X=1 --max-samples 7 \
		--name alike
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"the kernel took side a's value '0$ORIGINAL' as '$ORIGINAL', the value of side b: the sides do not differ in it"* ]]
	# a side that gives the value the other keeps, as it is, says what runs
	sp ab command -p cmd=true --a "sysfs:$SYSFS=$ORIGINAL" --b env:X=1 --max-samples 7 \
		--name kept -q
	[ "$(cat "$SYSFS")" = "$ORIGINAL" ]
	no_scratch_cgroups
	[ -z "$(machine_journal)" ]
	[ "$(sp runs --format json | "$PYTHON" -c 'import json, sys
print(sorted(r["name"] for r in json.load(sys.stdin)))')" = "['cs-a', 'cs-b', 'kept-a', 'kept-b']" ]
}

# cpuset_setup: root, a cpuset controller and two CPUs, or skip; CPUSET_PROGRAM
# is a line for the command workload with shell=1 that writes $1 to its own
# cgroup's cpuset.cpus (v1's cpuset hierarchy, else v2's).
cpuset_setup() {
	[ "$(id -u)" = 0 ] || skip "scratch cgroups need root here"
	[ -e /sys/fs/cgroup/cpuset/cpuset.cpus ] ||
		grep -qw cpuset /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null ||
		skip "no cpuset controller"
	[ "$(nproc)" -ge 2 ] || skip "one CPU"
	WHERE=(-p "cmd=grep Cpus_allowed_list /proc/self/status"
	       -p 'metric_regex=Cpus_allowed_list:[[:space:]]*([0-9]+)')
}

cpuset_program() {	# cpuset_program CPUS
	echo "cmd=d=/sys/fs/cgroup/cpuset\$(awk -F: '\$2 == \"cpuset\" { print \$3 }' /proc/self/cgroup); [ -d \$d ] || d=/sys/fs/cgroup\$(awk -F: '\$1 == 0 { print \$3 }' /proc/self/cgroup); echo $1 > \$d/cpuset.cpus; echo 7"
}

@test "knobs: cpus: and run's --cpus must lie inside the side's cgroup:cpuset.cpus; inside it, the tasks run on them" {
	cpuset_setup
	# the cpuset would move the tasks to CPU 1 while the batch says 0
	run sp ab command "${WHERE[@]}" --a cpus:0,cgroup:cpuset.cpus=1 --b cpus:1 \
		--max-samples 7 --name out
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"ab: --a cpus:0 is not inside cgroup:cpuset.cpus=1"* ]]
	run sp run command "${WHERE[@]}" --cpus 0-1 --knob cgroup:cpuset.cpus=1 -i 2 --name out
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"run: --cpus 0-1 is not inside cgroup:cpuset.cpus=1"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	no_scratch_cgroups
	[ -z "$(machine_journal)" ]
	# inside: the tasks join the cpuset, then are pinned, and run where the batch says
	sp run command "${WHERE[@]}" --cpus 1 --knob cgroup:cpuset.cpus=0-1 -i 2 --name in -q
	[ "$(samples in)" = 1 ]
	[ "$(env_of in knob.cpus)" = 1 ]
	[ "$(env_of in knob.cgroup.cpuset.cpus)" = 0-1 ]
}

@test "knobs: an iteration whose cpuset no longer holds the CPUs given fails, saying where it would run" {
	cpuset_setup
	# the first iteration narrows its own cpuset to CPU 1: the next ones
	# cannot run on CPU 0 and fail rather than store samples labelled 0
	run sp run command -p shell=1 -p "$(cpuset_program 1)" -p 'metric_regex=([0-9]+)' \
		--cpus 0 --knob cgroup:cpuset.cpus=0-1 -i 3 --name moved
	[[ "$output" == *"iteration 2 of 3 failed: runs on CPUs 1, not on CPUs 0 as given: a cgroup's cpuset.cpus holds it there"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations WHERE failure LIKE 'runs on CPUs 1, not on CPUs 0 %'")" -eq 2 ]
	no_scratch_cgroups
	[ -z "$(machine_journal)" ]
}

@test "knobs: bisect-step --knob: the step measures under it, puts it back" {
	sp run command -p "$(sched_line se.slice)" -p 'metric_regex=: +([0-9]+)' \
		--knob slice:300 -i 10 --name good -q
	sp run command -p "$(sched_line se.slice)" -p 'metric_regex=: +([0-9]+)' \
		--knob slice:3000 -i 10 --name bad -q
	run sp bisect-step command -p "$(sched_line se.slice)" -p 'metric_regex=: +([0-9]+)' \
		--good good --bad bad --knob slice:3000 --name step --max-samples 40
	[ "$status" -eq 1 ]
	[ "$(samples step)" = 3e+06 ]
	[ "$(env_of step knob.slice)" = 3000 ]
}

# After an ab with sysfs: and cgroup: knobs was killed by SIGKILL: what it
# left changed is journalled (the file's original; each cgroup left, whose
# original is its absence: under strace the reaper may be killed too, by
# the same injection), a person's run on store $Y refuses while anything
# is, ab --restore leaves the machine as it was, and the next run measures
# (kill_everywhere checks once, after the last, that every such run
# measured the original: samples lists the distinct values of them all).
# The journal is read once (a Python each time) for all that was left.
after_kill() {
	local sysfs_left=0 cgroups journal d

	[ "$(cat "$SYSFS")" = "$ORIGINAL" ] || sysfs_left=1
	cgroups=$(scratch_cgroups)
	if [ "$sysfs_left" = 1 ] || [ -n "$cgroups" ]; then
		journal=$(machine_journal)
		if [ "$sysfs_left" = 1 ]; then
			grep -qx "sysfs $SYSFS $ORIGINAL" <<<"$journal" || return 1
		fi
		for d in $cgroups; do
			grep -qx "scratch-cgroup $d absent" <<<"$journal" || return 1
		done
		run sp --db "$Y" run command -p "cmd=cat $SYSFS" -p 'metric_regex=([0-9]+)' -i 1 \
			--name measured
		[ "$status" -eq 3 ] || return 1
		[[ "$output" == *"and was killed before it put it back"* ]] || return 1
	fi
	sp --db "$Y" ab --restore -q || return 1
	[ "$(cat "$SYSFS")" = "$ORIGINAL" ] && [ -z "$(machine_journal)" ] || return 1
	no_scratch_cgroups || return 1
	sp --db "$Y" run command -p "cmd=cat $SYSFS" -p 'metric_regex=([0-9]+)' -i 1 \
		--name measured -q
}

# Where every_point (sysctl.bash) kills: the file under /sys and the
# journal, and every mkdir and rmdir (only scratch cgroups are made).
POINT_FILE=$SYSFS
POINT_SYSCALLS="openat rename,renameat,renameat2 unlink,unlinkat mkdir,mkdirat rmdir"
POINT_ANYWHERE="mkdir,mkdirat rmdir"

# No --seccomp-bpf: with it, strace 6.1 never injects signal=KILL, and
# every point would be a whole ab that no test could fail on.
# The ab runs the fewest blocks an ab may (3 at --alpha 0.49): each block
# changes the knobs as the one before did, and every point is an ab run to it.
kill_everywhere() {	# kill_everywhere X Y LEAST: the ab on store X, checks with store Y
	X=$1 Y=$2
	every_point after_kill sh -c "$RECORD_PID" "$TMP/pids" "$SP" --db "$X" \
		ab command -p cmd=true --a "sysfs:$SYSFS=$A,cgroup:$WEIGHT=$W1,slice:3000" \
		--b "sysfs:$SYSFS=$B,cgroup:$WEIGHT=$W2" --alpha 0.49 --max-samples 3 -q
	echo "# killed at $POINTS points" >&3
	[ "$POINTS" -ge "$3" ]
	[ "$(samples measured "$Y")" = "$ORIGINAL" ]
}

@test "knobs: an ab killed by SIGKILL: its scratch cgroups go at once, with their tasks" {
	cgroup_setup
	"$SP" ab command -p 'cmd=sleep 0.05' --a "cgroup:$WEIGHT=$W1" --b "cgroup:$WEIGHT=$W2" \
		--max-samples 100000 --name bg -q 2>"$TMP/err" &
	PID=$!
	echo "$PID" >>"$TMP/pids"
	until [ "$(scratch_cgroups | grep -c "/schedperf-$PID-")" -eq 2 ]; do
		kill -0 "$PID" || { echo "ab ended: $(cat "$TMP/err")"; return 1; }
		sleep 0.05
	done
	kill -9 "$PID"
	wait "$PID" || true
	wait_for none_of "$PID"
	PID=
	# the journal's entries are of a cgroup at its original, absent: forgotten
	sp run command -p cmd=true -i 1 --name after -q
	[ -z "$(machine_journal)" ]
}

@test "knobs: an ab with sysfs and cgroup knobs killed at every point, SQLite: ab --restore puts all back" {
	command -v strace >/dev/null || skip "no strace"
	sysfs_setup
	cgroup_setup
	kill_everywhere "$TMP/x.db" "$TMP/y.db" 30
	[ "$(sqlite3 "$TMP/x.db" 'PRAGMA integrity_check')" = ok ]
}

# What the store changes is when the ab copies the journal into it and
# deletes the copy: after the journal is written, before the first scratch
# cgroup is made, and after the journal is gone. On PostgreSQL the ab is
# killed at every point that writes or removes the journal or a scratch
# cgroup, which bracket those (about 12 points); the sysfs file's writes
# of each block in between (its openat, some 20 points) store nothing and
# are killed at on SQLite above.
@test "knobs: the same on PostgreSQL, at the journal's and the cgroups' points" {
	command -v strace >/dev/null || skip "no strace"
	sysfs_setup
	cgroup_setup
	XDB=$(pg_new_db)
	YDB=$(pg_new_db)
	PGDBS="$XDB $YDB"
	POINT_SYSCALLS="rename,renameat,renameat2 unlink,unlinkat mkdir,mkdirat"
	kill_everywhere "$(pg_url "$XDB")" "$(pg_url "$YDB")" 5
}

@test "knobs: run --resume takes the run's --knob again" {
	# iterations long enough to be stopped after the second
	"$SP" run command -p "cmd=sh -c 'sleep 0.3; grep -E \"^se.slice \" /proc/self/sched'" \
		-p 'metric_regex=: +([0-9]+)' --knob slice:3000 -i 6 --name res -q &
	PID=$!
	wait_stopped_after 2 "$PID"
	kill -TERM "$PID"
	kill -CONT "$PID"
	wait "$PID" || true
	PID=
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')" -lt 6 ]
	run sp run --resume --name res -q
	[ "$status" -eq 0 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')" -eq 6 ]
	[ "$(samples res)" = 3e+06 ]
}

@test "knobs: run's command program that its env:PATH knob does not hold is refused at once" {
	# found in schedperf's own PATH, not in the knob's
	for dry in --dry-run ""; do
		run sp run command -p cmd=true --knob env:PATH=/nonexistent -i 2 $dry
		[ "$status" -eq 2 ]
		assert_one_line_error
		want="cannot run 'true' for run --knob: no such executable in its"
		[[ "$output" == *"$want env:PATH=/nonexistent (give the program's full path"* ]]
	done
	[ ! -e "$SCHEDPERF_DB" ]
	# a PATH that holds it, or a path that needs none, passes
	dir=$(dirname "$(type -P true)")
	run sp run command -p cmd=true --knob "env:X=1,env:PATH=$dir" -i 1 -q
	[ "$status" -eq 0 ]
	run sp run command -p cmd="$(type -P true)" --knob env:PATH=/nonexistent -i 1 -q
	[ "$status" -eq 0 ]
	# an empty PATH, or an empty component at its end, is the current directory only,
	# as the spawn searches it
	run sp run command -p cmd=true --knob env:PATH= -i 1 --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	printf '#!/bin/sh\nexit 0\n' >"$TMP/here-true"
	chmod +x "$TMP/here-true"
	(cd "$TMP" && run "$SP" run command -p cmd=here-true --knob env:PATH=/nonexistent: -i 1 \
		--name here -q && [ "$status" -eq 0 ])
}

# killed_in_path DIR NAME RUN: run RUN of program NAME, which DIR holds and
# the run finds through its --knob env:PATH=DIR alone, killed by SIGKILL
# after the second of its 6 iterations: the third waits, until $TMP/go is
# there, to be killed. The program runs with that PATH: it names its own.
killed_in_path() {
	mkdir -p "$1"
	printf '%s\n' '#!/bin/sh' 'PATH=/usr/bin:/bin' "t=$TMP" 'echo >>"$t/count"' \
		'[ "$(wc -l <"$t/count")" -le 2 ] && exit 0' \
		'until [ -e "$t/go" ] || [ ! -d "$t" ]; do sleep 0.01; done' >"$1/$2"
	chmod +x "$1/$2"
	"$SP" run command -p "cmd=$2" --knob "env:PATH=$1" -i 6 --name "$3" -q 3>&- &
	PID=$!
	kill9_after 2 "$PID"
	PID=
	touch "$TMP/go"
	[ "$(stored_iterations)" -eq 2 ]
}

ok_iterations() {
	sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE failure IS NULL'
}

@test "knobs: run --resume looks for its command program in its stored env:PATH knob" {
	# a program in the knob's PATH, not in schedperf's, is resumed, dry run too
	killed_in_path "$TMP/bin" slowp rk
	[ -z "$(type -P slowp)" ]
	run sp run --resume --name rk --dry-run
	[ "$status" -eq 0 ]
	[[ "$output" == *"4 of them missing"* ]]
	run sp run --resume --name rk -q
	[ "$status" -eq 0 ]
	[ "$(ok_iterations)" -eq 6 ]
}

@test "knobs: run --resume refuses a command program gone from its stored env:PATH knob" {
	# found in schedperf's own PATH (/usr/bin/true), not in the knob's
	killed_in_path "$TMP/bin2" true rt
	rm "$TMP/bin2/true"
	for dry in --dry-run ""; do
		run sp run --resume --name rt -q $dry
		[ "$status" -eq 2 ]
		assert_one_line_error
		want="cannot run 'true' for run --knob: no such executable in its"
		[[ "$output" == *"$want env:PATH=$TMP/bin2 (give the program's full path"* ]]
	done
	# nothing ran: the batch waits, and resumes once the program is back
	[ "$(stored_iterations)" -eq 2 ]
	printf '#!/bin/sh\nexit 0\n' >"$TMP/bin2/true"
	chmod +x "$TMP/bin2/true"
	run sp run --resume --name rt -q
	[ "$status" -eq 0 ]
	[ "$(ok_iterations)" -eq 6 ]
}

@test "knobs: messages say what to give: empty values, cgroup names, procfs:, no nested parentheses" {
	# an empty cpus: or cmd: says how it is written, with an example
	for spec in cpus: cmd:; do
		run sp ab command -p cmd=true --a "$spec" --b env:X=1 --max-samples 7
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == "schedperf: ab: --a '$spec' has no value (write it as ${spec}"*", e.g. ${spec}"?*")" ]]
	done
	run sp ab command -p cmd=true --a env:1A=2 --b env:X=1 --max-samples 7
	[[ "$output" == *"'1A' is not a variable's name (give letters, digits and '_', not first a digit)" ]]
	# a cgroup file in the wrong case is bad input, exit 2, whatever the
	# machine has (one its controller lacks is exit 3, the files it has shown)
	for spec in cgroup:CPU.shares=100 cgroup:cpu.Shares=100; do
		run sp run command -p cmd=true --knob "$spec" -i 1
		[ "$status" -eq 2 ] || { echo "$spec: $output"; return 1; }
		assert_one_line_error
	done
	# the freezer stops the tasks (and a task frozen on v1 cannot even be killed)
	run sp ab command -p cmd=true --a cgroup:freezer.state=FROZEN --b env:X=1 --dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *": freezer.state stops the tasks, "*"(give a setting they run under, "* ]]
	# a file's name longer than a file's may be, whatever the machine has
	run sp ab command -p cmd=true --a "cgroup:cpu.$(printf 'a%.0s' {1..300})=1" --b env:X=1 \
		--dry-run
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"is longer than a file's name may be (give "* ]]
	if [ -w /sys/fs/cgroup/cpu ]; then
		run sp run command -p cmd=true --knob cgroup:cpu.no_such_file=1 -i 1
		[ "$status" -eq 3 ]
		assert_one_line_error
		[[ "$output" == *"cpu.no_such_file does not exist: "*"(see the files there with ls /sys/fs/cgroup/cpu)" ]]
		# a value longer than the kernel takes in one write (E2BIG)
		run sp run command -p cmd=true -i 1 \
			--knob "cgroup:cpu.shares=$(printf '1%.0s' {1..5000})"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"(give a value the kernel takes there)" ]]
	fi
	[ ! -e "$SCHEDPERF_DB" ]
	[ -z "$(machine_journal)" ]
	# procfs: is named as given, not as the sysctl it is spelt for
	run sp ab command -p cmd=true --a procfs:/proc/meminfo=1 --b env:X=1
	[ "$status" -eq 2 ]
	[[ "$output" == "schedperf: ab: --a procfs:/proc/meminfo=1: a path outside /proc/sys/, where the sysctls are"* ]]
	# a hint is never nested in another: no "((" or "))" in any of these
	printf 'a: [\n' >"$TMP/bad.yaml"
	printf '' >"$TMP/empty.yaml"
	printf -- '- workload: pipe\n---\n- workload: pipe\n' >"$TMP/two.yaml"
	for args in "--suite $TMP/bad.yaml" "--suite $TMP/empty.yaml" "--suite $TMP/two.yaml" \
		    "pipe --cpus 0-4000" "pipe --cpus 3-1" "pipe --knob cpus:0"; do
		run sp run $args -i 1
		[ "$status" -eq 2 ] || { echo "$args: $output"; return 1; }
		assert_one_line_error
		refute grep -qE '\(\(|\)\)' <<<"$output"
	done
	run sp run pipe --cpus 0-1000 -i 1
	[[ "$output" == *"may not run on (give CPUs of 'taskset -p \$\$' that are in /sys/devices/system/cpu/online)" ]]
}
