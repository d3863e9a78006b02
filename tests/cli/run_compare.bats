#!/usr/bin/env bats
# run, runs, show, compare: the first end-to-end slice.

load helpers

@test "run stores every iteration with its rusage; name defaults to uname -r" {
	run sp run pipe -p loops=2000 -i 3
	[ "$status" -eq 0 ]
	[[ "$output" == *"usec_per_op"* ]]
	release=$(uname -r)
	n=$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations i JOIN benchmarks b ON b.id = i.benchmark_id JOIN batches t ON t.id = b.batch_id JOIN runs r ON r.id = t.run_id WHERE r.name = '$release' AND i.failure IS NULL")
	[ "$n" -eq 3 ]
	for m in usec_per_op ops_per_sec wall user system voluntary_csw involuntary_csw minor_faults major_faults; do
		c=$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM samples s JOIN metrics m ON m.id = s.metric_id WHERE m.name = '$m'")
		[ "$c" -eq 3 ] || { echo "metric $m has $c samples"; return 1; }
	done
	# a pipe round trip is two context switches at least: rusage must show them
	v=$(sqlite3 "$SCHEDPERF_DB" "SELECT min(value) FROM samples s JOIN metrics m ON m.id = s.metric_id WHERE m.name = 'voluntary_csw'")
	"$PYTHON" -c "import sys; sys.exit(0 if float('$v') >= 2000 else 1)"
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA journal_mode')" = wal ]
}

@test "warm-up iterations are stored, marked and left out of statistics" {
	sp run pipe -p loops=2000 -i 2 --warmup 2 --name w --quiet
	sp run pipe -p loops=2000 -i 3 --name w2 --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations WHERE warmup = 1')" -eq 2 ]
	sp export w > "$TMP/w.json"
	[ "$(json 'len(d["runs"][0]["benchmarks"][0]["metrics"][0]["samples"])' "$TMP/w.json")" -eq 2 ]
	[ "$(json 'len(d["runs"][0]["benchmarks"][0]["metrics"][0]["warmup"])' "$TMP/w.json")" -eq 2 ]
	# compare sees the two measured iterations, not the warm-ups: its
	# numbers are those of the warmup = 0 rows of the store
	sp compare w w2 --format json > "$TMP/c.json"
	sqlite3 -json "$SCHEDPERF_DB" "SELECT r.name AS run, i.warmup AS warmup, s.value AS value
		FROM samples s JOIN metrics m ON m.id = s.metric_id JOIN iterations i ON i.id = s.iteration_id
		JOIN benchmarks b ON b.id = i.benchmark_id JOIN batches t ON t.id = b.batch_id
		JOIN runs r ON r.id = t.run_id WHERE m.name = 'usec_per_op'" > "$TMP/s.json"
	"$PYTHON" - "$TMP/c.json" "$TMP/s.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
rows = json.load(open(sys.argv[2]))
row = [r for r in c["rows"] if r["metric"] == "usec_per_op"][0]
for cell in row["runs"]:
    measured = [v["value"] for v in rows if v["run"] == cell["name"] and not v["warmup"]]
    assert cell["n"] == len(measured) == {"w": 2, "w2": 3}[cell["name"]], cell
    assert cell["min"] == min(measured) and cell["max"] == max(measured), cell
    assert abs(cell["amean"] - sum(measured) / len(measured)) <= 1e-12 * cell["amean"]
PY
	# the same with values chosen to tell: warm-ups 1000 times the samples
	cat > "$TMP/warm.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "cold", "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s",
   "better": "lower", "samples": [1, 2, 3], "warmup": [1000, 2000]}]}]},
 {"name": "hot", "started": "2026-01-01T00:00:01Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s",
   "better": "lower", "samples": [2, 3, 4]}]}]}]}
JSON
	sp import "$TMP/warm.json"
	sp compare cold hot --format json > "$TMP/c.json"
	[ "$(json '[(c["n"], c["amean"], c["max"]) for c in d["rows"][0]["runs"]]' "$TMP/c.json")" = "[(3, 2.0, 3.0), (3, 3.0, 4.0)]" ]
}

@test "a comma list runs one benchmark per value" {
	sp run pipe -p loops=1000,2000 -p mode=process,thread -i 1 --name sweep --quiet
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM benchmarks')" -eq 4 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM benchmarks WHERE params = '{\"cpus\":\"any\",\"loops\":\"2000\",\"mode\":\"thread\"}'")" -eq 1 ]
}

@test "messaging runs in every mode and ipc" {
	run sp run messaging -p groups=1 -p fds=2 -p loops=10 -p ipc=socket,pipe -p mode=process,thread -i 1 --name m
	[ "$status" -eq 0 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM samples s JOIN metrics m ON m.id = s.metric_id WHERE m.name = 'seconds' AND s.value > 0")" -eq 4 ]
}

@test "same name adds a batch; runs lists batches; --replace discards them" {
	sp run pipe -p loops=1000 -i 2 --name k --quiet
	sp run pipe -p loops=1000 -i 2 --name k --quiet
	sp runs --format json > "$TMP/runs.json"
	[ "$(json 'len(d)' "$TMP/runs.json")" -eq 1 ]
	[ "$(json 'len(d[0]["batches"])' "$TMP/runs.json")" -eq 2 ]
	[ "$(json 'd[0]["batches"][0]["complete"]' "$TMP/runs.json")" = True ]
	[ "$(json 'sorted(d[0]["batches"][0].keys())' "$TMP/runs.json")" = "['complete', 'disturbed', 'id', 'machine', 'machine_id', 'started']" ]
	[ "$(json 'd[0]["samples"]' "$TMP/runs.json")" -eq 8 ]
	run sp runs
	[ "$status" -eq 0 ]
	[[ "$output" == *"k "*"2"* ]]
	sp run pipe -p loops=1000 -i 1 --name k --replace --quiet
	sp runs --format json > "$TMP/runs.json"
	[ "$(json 'len(d[0]["batches"])' "$TMP/runs.json")" -eq 1 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')" -eq 1 ]
}

@test "show prints each batch, its samples and environment" {
	sp run pipe -p loops=1000 -i 2 --warmup 1 --name s --quiet
	run sp show s --samples --env
	[ "$status" -eq 0 ]
	[[ "$output" == *"run s, batch"* ]]
	[[ "$output" == *"kernel.release"*"$(uname -r)"* ]]
	echo "$output" > "$TMP/show.txt"
	# every value of every metric, in order, the warm-up's in parentheses,
	# a measured one marked ! when its iteration was disturbed (as on a
	# busy machine it may be)
	sqlite3 -json "$SCHEDPERF_DB" "SELECT m.name AS metric, i.warmup AS warmup, s.value AS value,
		i.disturbed AS disturbed
		FROM samples s JOIN metrics m ON m.id = s.metric_id
		JOIN iterations i ON i.id = s.iteration_id ORDER BY m.position, i.seq" > "$TMP/s.json"
	"$PYTHON" - "$TMP/show.txt" "$TMP/s.json" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
start = [i for i, l in enumerate(lines) if l.strip().startswith("samples of pipe")]
assert len(start) == 1, lines
printed = {}
for l in lines[start[0] + 1:]:
    words = l.split()
    if len(words) < 3 or not words[-1].startswith("["):
        break
    printed[words[0]] = words[1:-1]
stored = {}
for row in json.load(open(sys.argv[2])):
    stored.setdefault(row["metric"], []).append(row)
assert set(printed) == set(stored), (sorted(printed), sorted(stored))
for metric, rows in stored.items():
    words = printed[metric]
    assert len(words) == len(rows) == 3, (metric, words)
    for word, row in zip(words, rows):
        assert word.startswith("(") == bool(row["warmup"]), (metric, words)
        if not row["warmup"]:
            assert word.endswith("!") == bool(row["disturbed"]), (metric, words, row)
        v = float(word.strip("()").rstrip("!"))
        assert abs(v - row["value"]) <= 1e-5 * max(1.0, abs(row["value"])), (metric, v, row)
PY
	# without --samples, the summary only
	run sp show s
	[ "$status" -eq 0 ]
	[[ "$output" == *"usec_per_op"*"n=2"* ]]
	[[ "$output" != *"samples of"* ]]
}

@test "run --cpus: each batch records its CPUs; show, compare, export and import see them" {
	[ "$(nproc)" -ge 2 ] || skip "one CPU"
	sp run pipe -p loops=100 -i 2 --cpus 1,0 --name pin -q
	sp run pipe -p loops=100 -i 2 --name pin -q
	sp run pipe -p loops=100 -i 2 --name nopin -q
	# in the kernel's spelling: 1,0 and 0-1 are one set
	run sp show pin
	[ "$status" -eq 0 ]
	[[ "$output" == *"batch 1 "*"pipe cpus=any loops=100 mode=process on CPUs 0-1"* ]]
	[[ "$(echo "$output" | grep -c "on CPUs")" -eq 1 ]]
	run sp show pin --samples
	[[ "$output" == *"samples of pipe cpus=any loops=100 mode=process on CPUs 0-1"* ]]
	# a run that pools pinned and unpinned batches differs from one that does not
	run sp compare nopin pin
	[ "$status" -eq 0 ]
	[[ "$output" == *"!knob.cpus: nopin=(unset), pin=0-1 | (unset)"* ]]
	[[ "$output" == *"pin "*" (!cpus differs"* ]]
	sp export pin -o "$TMP/pin.json"
	[ "$(json '[r["environment"].get("knob.cpus") for r in d["runs"]]' "$TMP/pin.json")" = "['0-1', None]" ]
	sp --db "$TMP/imported.db" import "$TMP/pin.json"
	run sp --db "$TMP/imported.db" show pin
	[[ "$output" == *"batch 1 "*"on CPUs 0-1"* ]]
	# the CPUs given in the batch's plan, for --resume, stay as given
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM batches WHERE plan LIKE '%\"cpus\":\"1,0\"%'")" -eq 1 ]
}

@test "compare: MMTests table with percent changes, positive = better" {
	sp run pipe -p loops=2000 -i 3 --name a --quiet
	sp run pipe -p loops=2000 -i 3 --name b --quiet
	run sp compare a b
	[ "$status" -eq 0 ]
	for row in Min Amean Stddev CoeffVar Max BAmean.95 Hmean HStddev HCoeffVar BHmean.95; do
		[[ "$output" == *"$row "* ]] || { echo "no $row"; return 1; }
	done
	[[ "$output" == *"(   0.00%)"* ]]
}

@test "compare --format json: the keys, and numbers that match the store" {
	sp run pipe -p loops=2000 -i 4 --name a --quiet
	sp run pipe -p loops=2000 -i 4 --name b --quiet
	sp run pipe -p loops=2000 -i 2 --name b --quiet
	sp compare a b --format json > "$TMP/c.json"
	sqlite3 -json "$SCHEDPERF_DB" "SELECT r.name AS run, m.name AS metric, s.value AS value FROM samples s JOIN metrics m ON m.id = s.metric_id JOIN benchmarks b ON b.id = m.benchmark_id JOIN batches t ON t.id = b.batch_id JOIN runs r ON r.id = t.run_id JOIN iterations i ON i.id = s.iteration_id WHERE m.source = 'workload' AND i.warmup = 0" > "$TMP/samples.json"
	/usr/bin/python3 - "$TMP/c.json" "$TMP/samples.json" <<'PY'
import json, sys, statistics
import numpy as np
from scipy import stats
c = json.load(open(sys.argv[1]))
rows = json.load(open(sys.argv[2]))
assert c["schema"] == "schedperf-compare/1" and c["baseline"] == "a"
assert len(c["rows"]) == 2
def close(a, b):
    assert abs(a - b) <= 1e-9 * max(1.0, abs(b)), (a, b)
for row in c["rows"]:
    assert set(row) == {"workload", "params", "metric", "unit", "better", "runs"}, row.keys()
    assert row["workload"] == "pipe" and row["params"]["loops"] == "2000"
    assert all(isinstance(v, str) for v in row["params"].values())
    higher = row["better"] == "higher"
    heads = []
    for r in row["runs"]:
        x = sorted(v["value"] for v in rows if v["run"] == r["name"] and v["metric"] == row["metric"])
        assert r["n"] == len(x), (r["n"], len(x))
        close(r["min"], min(x)); close(r["max"], max(x))
        close(r["amean"], np.mean(x)); close(r["hmean"], stats.hmean(x))
        close(r["gmean"], stats.gmean(x)); close(r["median"], np.median(x))
        close(r["stddev"], np.std(x, ddof=1))
        close(r["coeffvar"], np.std(x, ddof=1) / np.mean(x) * 100)
        for p in (50, 95, 99):
            k = max(1, len(x) * p // 100)
            best = x[::-1][:k] if higher else x[:k]
            close(r["bmean_%d" % p], stats.hmean(best) if higher else np.mean(best))
        heads.append(stats.hmean(x) if higher else np.mean(x))
        keys = {"name", "n", "min", "max", "amean", "hmean", "gmean", "median", "stddev",
                "coeffvar", "bmean_50", "bmean_95", "bmean_99"}
        # the median's interval, and tests and a verdict against the baseline
        assert set(r) - {"pct_change", "median_ci", "p_welch", "p_mwu", "p_adjusted", "ratio_ci",
                         "hl_shift", "hl_ci", "mde_pct", "verdict", "env_caveats", "tested_on",
                         "p_batch", "batch_spread", "within_batch_spread", "batches",
                         "between_batch_share", "disturbed", "excluded",
                         "too_few_samples"} == keys, r.keys()
    assert "pct_change" not in row["runs"][0]
    pct = heads[1] / heads[0] * 100 - 100 if higher else 100 - heads[1] / heads[0] * 100
    close(row["runs"][1]["pct_change"], pct)
assert [r["n"] for r in c["rows"][0]["runs"]] == [4, 6]
PY
}

@test "compare needs two runs and knows its formats" {
	sp run pipe -p loops=1000 -i 2 --name a --quiet
	sp run pipe -p loops=1000 -i 2 --name b --quiet
	run sp compare a
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"baseline"* ]]
	run sp compare a b --format yaml
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"format"*"'yaml'"* ]]
	for format in text markdown csv json; do
		run sp compare a b --format $format
		[ "$status" -eq 0 ] || { echo "$format: $output"; return 1; }
	done
}

@test "Ctrl-C keeps completed iterations and marks the batch incomplete" {
	# --db on the command line: this test's own path names its processes
	"$SP" --db "$SCHEDPERF_DB" run pipe -p loops=20000 -i 100000 --name int --no-monitors --quiet &
	pid=$!
	# Two committed iterations however slow the machine is (ASan, a loaded
	# CI host); stopped then, the run sees the signal when it goes on.
	wait_stopped_after 2 $pid
	kill -INT $pid
	kill -CONT $pid
	rc=0
	wait $pid || rc=$?
	[ "$rc" -eq 130 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT complete FROM batches')" -eq 0 ]
	n=$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM iterations')
	[ "$n" -ge 2 ]
	# every stored iteration is whole: all nine metrics present
	[ "$(sqlite3 "$SCHEDPERF_DB" 'SELECT count(*) FROM samples')" -eq $((n * 9)) ]
	# and no task of the run is left behind (the pipe's partner, killed
	# with its group, is reaped by init in its own time)
	wait_for no_process_has "$SCHEDPERF_DB"
}
