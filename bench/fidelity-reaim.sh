#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fidelity-reaim.sh: schedperf's reaim workload against re-aim itself
# (osdl-aim-7) on this machine: for each user count, interleaved pairs of
# one re-aim run and one schedperf run with the same workfile, jobs,
# FILESIZE and POOLSIZE, both pinned alike, and the median cost ratio
# ours/re-aim of jobs per minute with its 95 % bootstrap interval
# (bench/lib.sh; 1.00 = same cost).
#
# re-aim is not packaged by Debian; build it yourself from the osdl-aim-7
# sources (LKP and MMTests fetch the same tree). On Debian 12 it needs
# autoconf, automake and libtool, and with GCC 10 or later:
#   touch AUTHORS ChangeLog NEWS README
#   aclocal -I config && libtoolize --force --copy && autoheader &&
#   automake --add-missing --copy --foreign && autoconf && ./configure
#   make CFLAGS="-O2 -fcommon -D_GNU_SOURCE -I../include" LIBS=-lm
# then pass src/reaim and the tree's data/ directory (its workfiles and
# fakeh.tgz). Nothing here downloads or builds it.
#
# usage: bench/fidelity-reaim.sh REAIM DATA_DIR [SCHEDPERF]
# Environment: USERS (default "1 2 4"), WORKFILE (compute), JOBS (100);
# PAIRS, MAX_PAIRS, TARGET, CPUS, RUN_OPTS (bench/lib.sh).

set -euo pipefail
if (($# < 2)); then
	echo "usage: bench/fidelity-reaim.sh REAIM DATA_DIR [SCHEDPERF]" >&2
	exit 2
fi
reaim=$(realpath "$1")
data=$(realpath "$2")
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
bench_setup fidelity-reaim "${3:-./build/schedperf}"
users_list=${USERS:-1 2 4}
workfile=${WORKFILE:-compute}
jobs=${JOBS:-100}

[[ -x $reaim ]] || { echo "fidelity-reaim: $reaim is not an executable (build re-aim, see above)" >&2; exit 3; }
for f in "workfile.$workfile" fakeh.tgz; do
	[[ -f $data/$f ]] || { echo "fidelity-reaim: $data/$f missing (pass re-aim's data/ directory)" >&2; exit 3; }
done
dir=$bench_tmp/reaim
mkdir -p "$dir/data" "$dir/diskdir"
cp "$data/workfile.$workfile" "$dir/"
cp "$data/fakeh.tgz" "$dir/data/"	# re-aim looks for ./data/fakeh.tgz
# schedperf's reaim defaults: filesize=10 (KiB), poolsize=1024 (KiB)
printf 'FILESIZE 10k\nPOOLSIZE 1m\nDISKDIR %s/diskdir\n' "$dir" >"$dir/reaim.config"

# re-aim prints "Max Jobs per Minute 1559.85"; -y leaves sync out, as ours does by default.
ref_jpm() {
	(cd "$dir" && pinned "$reaim" -s "$users" -e "$users" -t -y -j "$jobs" \
		-f "workfile.$workfile" -c reaim.config -l "$dir/log" 2>/dev/null) |
		awk '/^Max Jobs per Minute/ { print $5 }'
}
ours_jpm() { ours reaim jobs_per_min users="$users" jobs="$jobs" workfile="$workfile"; }

for users in $users_list; do
	pairs "reaim $workfile users=$users" ref_jpm ours_jpm jobs_per_min:higher
done
bench_report
