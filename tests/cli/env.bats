#!/usr/bin/env bats
# env and env --check, on the real machine and on fake /proc and /sys trees.

load helpers

fake_root() {	# fake_root DIR: a quiet bare-metal machine with 4 CPUs
	mkdir -p "$1"/proc/sys/kernel "$1"/sys/devices/system/cpu/cpu0/cpufreq \
		"$1"/sys/devices/system/cpu/cpufreq "$1"/sys/devices/system/cpu/smt \
		"$1"/sys/kernel/mm/transparent_hugepage "$1"/boot
	echo performance > "$1"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
	echo 0 > "$1"/sys/devices/system/cpu/cpufreq/boost
	echo 1 > "$1"/sys/devices/system/cpu/smt/active
	echo "always [madvise] never" > "$1"/sys/kernel/mm/transparent_hugepage/enabled
	echo "0.02 0.05 0.01 1/100 42" > "$1"/proc/loadavg
	echo 0 > "$1"/proc/sys/kernel/latencytop
	echo 0 > "$1"/proc/sys/kernel/sched_schedstats
	echo 6.1.0-test > "$1"/proc/sys/kernel/osrelease
	echo "CONFIG_KASAN is not set" > "$1"/boot/config-6.1.0-test
	for i in 0 1 2 3; do printf 'processor\t: %d\nflags\t\t: fpu sse\n\n' $i; done > "$1"/proc/cpuinfo
}

@test "env prints the environment a run records" {
	run sp env
	[ "$status" -eq 0 ]
	[[ "$output" == *"kernel.release"*"$(uname -r)"* ]]
	[[ "$output" == *"cpus.count"* ]]
	[[ "$output" == *"schedperf.version"* ]]
}

@test "env --check on a quiet, well set-up machine finds nothing" {
	fake_root "$TMP/root"
	SCHEDPERF_SYSROOT="$TMP/root" run sp env --check
	[ "$status" -eq 0 ]
	[ "$output" = "no setup problems found" ]
}

@test "env --check names each problem with its reason and fix" {
	r="$TMP/root"
	fake_root "$r"
	echo schedutil > "$r"/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
	echo 1 > "$r"/sys/devices/system/cpu/cpufreq/boost
	echo "2.50 1.00 0.50 3/100 42" > "$r"/proc/loadavg
	echo "[always] madvise never" > "$r"/sys/kernel/mm/transparent_hugepage/enabled
	echo 1 > "$r"/proc/sys/kernel/latencytop
	echo 1 > "$r"/proc/sys/kernel/sched_schedstats
	touch "$r"/proc/lockdep
	echo CONFIG_KASAN=y > "$r"/boot/config-6.1.0-test
	printf 'processor\t: 0\nflags\t\t: fpu hypervisor\n' > "$r"/proc/cpuinfo
	SCHEDPERF_SYSROOT="$r" run sp env --check
	[ "$status" -eq 1 ]
	for what in "governor is not performance" "boost is on" "machine is busy" \
		"SMT siblings are shared" "huge pages are set to always" "latencytop" \
		"schedstats are enabled" "lockdep" "KASAN" "virtual machine" "fewer than 2 CPUs"; do
		[[ "$output" == *"$what"* ]] || { echo "missing: $what"; return 1; }
	done
	# every finding is one line: warning: what: why (fix)
	while IFS= read -r line; do
		[[ "$line" == "warning: "*": "*"("*")" ]] || { echo "bad line: $line"; return 1; }
	done <<< "$output"
	[[ "$output" == *"now 'schedutil'"* ]]
}

@test "env --check warns about a load above the CPU count and about steal time" {
	r="$TMP/root"
	fake_root "$r"
	echo "cpu  1000 0 500 8000 10 0 5 300 0 0" > "$r"/proc/stat
	echo "4.50 3.00 2.00 5/100 42" > "$r"/proc/loadavg
	SCHEDPERF_SYSROOT="$r" run sp env --check
	[ "$status" -eq 1 ]
	[[ "$output" == *"warning: the load average is above the CPU count"*"(now 4.50) is below 4"* ]]
	[[ "$output" == *"warning: the hypervisor steals CPU time"*"3.1 % stolen since boot"* ]]
	# at the CPU count, and with little steal, neither
	echo "4.00 3.00 2.00 5/100 42" > "$r"/proc/loadavg
	echo "cpu  1000 0 500 8000 10 0 5 30 0 0" > "$r"/proc/stat
	SCHEDPERF_SYSROOT="$r" run sp env --check
	[[ "$output" != *"above the CPU count"* ]]
	[[ "$output" != *"steals"* ]]
}

@test "env --check names a task that is busy now" {
	# Under SCHED_FIFO on CPU 0 it takes 95 % of that CPU (the rest is the
	# RT throttle's) however busy the machine is; on two CPUs at most one
	# other task can use as much, so it is always among the three named.
	need_rt
	ln -s "$(command -v bash)" "$TMP/busyloop"
	taskset -c 0 chrt -f 1 "$TMP/busyloop" -c 'while :; do :; done' &
	pid=$!
	run sp env --check
	kill "$pid"
	wait "$pid" || true
	[ "$status" -eq 1 ]
	[[ "$output" == *"another task is busy"*"busyloop (pid $pid) used "*"% of a CPU"* ]]
}
