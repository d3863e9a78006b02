#!/usr/bin/env bash
# What measuring interference costs between iterations (never during one):
# the /proc/stat read done before and after every iteration, and the scan of
# every /proc/PID/stat that names culprits, done before an iteration only
# when the machine is busy or the last one was disturbed (see doc/design.md,
# "Interference"). Prints medians and quartiles in microseconds, and the
# number of tasks the scan read.
# usage: bench/interference-cost.sh [BUILD_DIR] [REPETITIONS]
set -euo pipefail
build=${1:-build}
reps=${2:-500}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
make -C "$here" --no-print-directory "$build/libschedperf.a" BUILD="$build" >/dev/null
cc -std=c17 -D_GNU_SOURCE -O2 -I"$here/src" -o "$tmp/interference_cost" \
	"$here/bench/interference_cost.c" "$here/$build/libschedperf.a" \
	$(pkg-config --libs sqlite3 jansson libRmath yaml-0.1) -lpthread -lm
echo "load: $(cut -d' ' -f1-4 /proc/loadavg), $(nproc) CPUs"
"$tmp/interference_cost" "$reps"
