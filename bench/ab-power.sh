#!/usr/bin/env bash
# How often is ab wrong, and how quickly is it right? The figures of its
# sequential verdict on this machine, and by simulation through the same C
# code (tests/unit/test_sequential.c with SEQCS_SIM_REPS):
#
#   sim      2,000 simulated sessions each: A/A with drift, t(2) noise and
#            wild x10 samples; A/A and shifts under normal noise; with the
#            fixed-size Welch test of the same power
#   aa       REPS real A/A sessions (two sides that differ only in a variable
#            nothing reads), on a CPU-bound program's best-of-ten round time,
#            each capped at 60 s
#   slow10   REPS real sessions of that program against a build doing 10 %
#            more work
#   slow2    REPS real sessions of a program whose number has 1 % noise
#            against one 2 % slower, each capped at 60 s
#   pipe     ab pipe -p cpus=same --a param:mode=process --b param:mode=thread,
#            and the same question through the command workload with
#            perf bench sched pipe and -T (needs perf)
#
# Each line says how many sessions ended different/same/unknown and the
# median blocks (samples per side) and seconds. Absolute times depend on
# the machine's load; the error counts are what the procedure guarantees.
# usage: bench/ab-power.sh [SCHEDPERF] [REPS] [PARTS]   (PARTS: sim,aa,slow10,slow2,pipe)
set -euo pipefail
sp=$(realpath "${1:-./build/schedperf}")
reps=${2:-20}
parts=${3:-sim,aa,slow10,slow2,pipe}
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export SCHEDPERF_DB="$tmp/ab-power.db"
PY=/usr/bin/python3

want() { [[ ",$parts," == *",$1,"* ]]; }

# tests/data/bestof.c: a CPU-bound program printing its best round's CPU time.
build_work() {	# build_work NAME WORK
	cc -O1 -DWORK="$2" -o "$tmp/$1" "$here/tests/data/bestof.c"
}

# A program whose number has 1 % noise (normal, from /dev/urandom), FACTOR
# times a base: what a benchmark with 1 % run-to-run noise reports.
build_noisy() {	# build_noisy NAME FACTOR
	cat >"$tmp/$1.c" <<C
#include <math.h>
#include <stdio.h>
#include <stdint.h>
int main(void)
{
	uint64_t r[2];
	FILE *f = fopen("/dev/urandom", "r");
	double u1, u2;

	if (!f || fread(r, sizeof(r), 1, f) != 1)
		return 1;
	fclose(f);
	u1 = ((double)(r[0] >> 11) + 0.5) / 9007199254740992.0;
	u2 = ((double)(r[1] >> 11) + 0.5) / 9007199254740992.0;
	printf("value %.9f\n", 100.0 * $2 * (1 + 0.01 * sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)));
	return 0;
}
C
	cc -O1 -o "$tmp/$1" "$tmp/$1.c" -lm
}

# sessions LABEL N ARGS...: run N ab sessions, one JSON line each, then summarise.
sessions() {
	local label=$1 n=$2 i
	shift 2
	: >"$tmp/$label.jsonl"
	for i in $(seq "$n"); do
		"$sp" ab "$@" --format json --name "$label-$i" >>"$tmp/$label.jsonl" ||
			echo '{"verdict": "error"}' >>"$tmp/$label.jsonl"
	done
	"$PY" - "$label" "$tmp/$label.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[2])]
count = lambda v, d=None: sum(r["verdict"] == v and (d is None or r.get("direction") == d) for r in rows)
ok = [r for r in rows if "blocks" in r]
med = lambda k: statistics.median(r[k] for r in ok) if ok else float("nan")
print(f"{sys.argv[1]:<8} different {count('different')} (worse {count('different', 'worse')}, "
      f"better {count('different', 'better')}), same {count('same')}, unknown "
      f"{count('unknown')}, errors {count('error')} of {len(rows)}; median blocks "
      f"{med('blocks'):g}, median seconds {med('seconds'):.1f}")
for r in ok:
    print(f"         {r['verdict']:<9} {str(r['direction']):<6} {r['estimate_pct']:+7.2f}% "
          f"[{r['ci_pct'][0] if r['ci_pct'][0] is not None else '-inf'}, "
          f"{r['ci_pct'][1] if r['ci_pct'][1] is not None else 'inf'}] "
          f"blocks {r['blocks']} {r['seconds']:.1f}s {r['reason']}")
PY
}

# Welch's fixed size per side for the power ab reached (SciPy's noncentral t).
welch_size() {	# welch_size LABEL SHIFT_LOG NOISE_LOG
	"$PY" - "$tmp/$1.jsonl" "$2" "$3" <<'PY'
import json, math, statistics, sys, warnings
from scipy import stats
warnings.filterwarnings("ignore")	# nct's cdf warns about precision far in its tail
rows = [json.loads(l) for l in open(sys.argv[1])]
shift, sd = float(sys.argv[2]), float(sys.argv[3])
ok = [r for r in rows if "blocks" in r]
power = sum(r["verdict"] == "different" for r in rows) / len(rows)
per_sample = statistics.median(r["seconds"] / (2 * r["blocks"]) for r in ok if r["blocks"])
target = min(power, 0.99)
def welch_power(n):
    df = 2 * n - 2
    nc = shift / (sd * math.sqrt(2 / n))
    t = stats.t.ppf(0.975, df)
    return stats.nct.sf(t, df, nc) + stats.nct.cdf(-t, df, nc)
n = 2
while welch_power(n) < target:
    n += 1
print(f"         fixed-size Welch at power {target:.2f}: {n} per side, about "
      f"{2 * n * per_sample:.1f} s at this machine's {per_sample:.2f} s a sample; ab used a "
      f"median of {statistics.median(r['blocks'] for r in ok):g} per side")
PY
}

if want sim; then
	echo "== simulated, through src/stats/sequential.c (2,000 sessions each)"
	make -C "$here" --no-print-directory build/tests/test_sequential >/dev/null
	SEQCS_SIM_REPS=2000 "$here/build/tests/test_sequential"
fi
# cpu_sessions LABEL WORK_OF_B MAX_TIME: the best-of-ten program, B doing
# WORK_OF_B (A: 1000); 1000 is an A/A pair, told apart by a variable only.
cpu_sessions() {
	build_work work 1000
	build_work "work$2" "$2"
	sessions "$1" "$reps" command -p 'metric_regex=best ([0-9.]+)' -p metric_name=best \
		--a "cmd:$tmp/work" --a env:AB=a --b "cmd:$tmp/work$2" --b env:AB=b --max-time "$3"
}
if want aa; then
	echo "== real A/A, $reps sessions: best-of-ten CPU time, sides differ in an unread variable"
	cpu_sessions aa 1000 60
fi
if want slow10; then
	echo "== real 10 % slowdown, $reps sessions: 10 % more CPU work in B"
	cpu_sessions slow10 1100 120
fi
if want slow2; then
	echo "== real 2 % slowdown of a program with 1 % noise, $reps sessions of at most 60 s"
	build_noisy noisy 1.00
	build_noisy noisy2 1.02
	sessions slow2 "$reps" command -p 'metric_regex=value ([0-9.]+)' -p metric_name=value \
		--a "cmd:$tmp/noisy" --b "cmd:$tmp/noisy2" --max-time 60
	welch_size slow2 "$("$PY" -c 'import math; print(math.log(1.02))')" 0.01
fi
if want pipe; then
	echo "== pipe, processes against threads on one CPU"
	sessions pipe 1 pipe -p cpus=same -p loops=20000 --a param:mode=process \
		--b param:mode=thread --max-time 300
	if command -v perf >/dev/null; then
		echo "== perf bench sched pipe against -T through the command workload, on CPU 0"
		sessions perfpipe 1 command -p 'metric_regex=([0-9.]+) usecs/op' \
			-p metric_name=usecs_per_op --a cpus:0 --a 'cmd:perf bench sched pipe -l 20000' \
			--b cpus:0 --b 'cmd:perf bench sched pipe -l 20000 -T' --max-time 300
	else
		echo "perfpipe: perf is missing (apt-get install linux-perf)"
	fi
fi
