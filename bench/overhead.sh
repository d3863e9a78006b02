#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# overhead.sh: does the runner add to what it times? Runs pipe and messaging
# with the default monitors ("ours") and with --no-monitors ("reference"),
# interleaved and pinned alike, and prints the median ratio of the
# workload's own metric, monitors / no monitors, with its 95 % bootstrap
# interval (bench/lib.sh); it should be at most 1.02.
#
# usage: bench/overhead.sh [SCHEDPERF]
# Environment: MONITORS, the --monitors list to measure (default: the
# runner's default set; e.g. MONITORS=all adds perf counters, MONITORS=profile
# the profile); PROFILE_FREQUENCY, its --profile-frequency (default: the
# run's); PAIRS, MAX_PAIRS, TARGET, CPUS as bench/lib.sh says.
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup overhead "${1:-./build/schedperf}"

with_monitors() {
	local bench_run_opts=()

	[[ -n ${MONITORS:-} ]] && bench_run_opts=(--monitors "$MONITORS")
	[[ -n ${PROFILE_FREQUENCY:-} ]] && bench_run_opts+=(--profile-frequency "$PROFILE_FREQUENCY")
	ours "$@"
}
without_monitors() {
	local bench_run_opts=(--no-monitors)

	ours "$@"
}
on_pipe() { with_monitors pipe usec_per_op loops=200000; }
off_pipe() { without_monitors pipe usec_per_op loops=200000; }
# Both tasks on one CPU: CPU-bound, so what the monitors take shows as
# time, not hidden in (or added to) the wake-up latency of an idle CPU.
on_pipe_one() { with_monitors pipe usec_per_op loops=200000 cpus=same; }
off_pipe_one() { without_monitors pipe usec_per_op loops=200000 cpus=same; }
on_messaging() { with_monitors messaging seconds groups=10 loops=100; }
off_messaging() { without_monitors messaging seconds groups=10 loops=100; }

pairs "pipe loops=200000" off_pipe on_pipe --ref "the same, --no-monitors" usec_per_op:lower
pairs "pipe loops=200000 cpus=same" off_pipe_one on_pipe_one --ref "the same, --no-monitors" \
	usec_per_op:lower
pairs "messaging groups=10 loops=100" off_messaging on_messaging --ref "the same, --no-monitors" \
	seconds:lower
bench_report
