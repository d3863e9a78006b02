#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# How near SQLite's own floor is `schedperf import`? The same 150,000 samples
# (bench/scale_data.py's compare file: 1,000 benchmarks x 3 runs x 50
# samples) imported by schedperf, and written by bench/import_ceiling.c
# straight through SQLite into a new store of the same schema, as one row a
# sample and an iteration (foreign keys on, as the store has them, and off)
# and as one packed row a metric of a benchmark. Each is timed REPS times
# (default 7), interleaved, in CPU seconds of the process (user + system:
# the steadier figure on a shared machine); prints the medians and the
# samples a second they come to.
# usage: [REPS=7] bench/import-ceiling.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
reps=${REPS:-7}
here=$(cd "$(dirname "$0")/.." && pwd)
sp=$here/$build/schedperf
if [[ ! -x $sp ]]; then
	echo "import-ceiling.sh: $sp not found (run make, or pass the build directory)" >&2
	exit 3
fi
if [[ ! -x /usr/bin/time ]]; then
	echo "import-ceiling.sh: /usr/bin/time not found (apt-get install time)" >&2
	exit 3
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -std=c17 -D_GNU_SOURCE -O2 -o "$tmp/import_ceiling" "$here/bench/import_ceiling.c" \
	$(pkg-config --cflags --libs sqlite3)
python3 "$here/bench/scale_data.py" compare "$tmp" 1000 3 50
samples=150000
echo "# load: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; $samples samples; REPS=$reps"

fresh() {
	rm -f "$tmp/s.db" "$tmp/s.db-wal" "$tmp/s.db-shm"
	"$sp" --db "$tmp/s.db" db init -q
}
: >"$tmp/times"
modes=(schedperf rows rows-nofk packed)
for ((rep = 0; rep < reps; rep++)); do
	for ((i = 0; i < ${#modes[@]}; i++)); do
		m=${modes[(i + rep) % ${#modes[@]}]}
		if [[ $m == schedperf ]]; then
			rm -f "$tmp/s.db" "$tmp/s.db-wal" "$tmp/s.db-shm"
			/usr/bin/time -f "schedperf %U %S" -a -o "$tmp/times" \
				"$sp" --db "$tmp/s.db" import -q "$tmp/compare.json"
		else
			fresh
			"$tmp/import_ceiling" "$tmp/s.db" "$m" 3000 50 >>"$tmp/times"
		fi
	done
done
python3 - "$tmp/times" "$samples" <<'PY'
import statistics, sys
times = {}
for line in open(sys.argv[1]):
    f = line.split()
    times.setdefault(f[0], []).append(sum(map(float, f[1:])))
n = int(sys.argv[2])
print(f"{'writer':<12} {'CPU s (median)':>15} {'samples/s':>12}")
for m in ("schedperf", "rows", "rows-nofk", "packed"):
    t = statistics.median(times[m])
    print(f"{m:<12} {t:>15.3f} {n / t:>12,.0f}")
PY
