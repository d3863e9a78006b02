#!/usr/bin/env bats
# compare: tests, intervals, verdicts, styles, formats, filters and
# environment differences, on data imported with `schedperf import` and
# checked against an independent SciPy computation (/usr/bin/python3).

load helpers

# results FILE RUN:SHIFT:NOISE:GOVERNOR:SEED...: a schedperf-results/1 file,
# one run per argument; each run has workload "wx" (seconds, lower is
# better, 12 samples around 10 * (1 + SHIFT)) and "wy" (ops, higher is
# better, 10 samples around 500). Samples are random floats: no ties.
results() {
	local file=$1
	shift
	"$PYTHON" - "$@" > "$file" <<'PY'
import json, random, sys
runs = []
for spec in sys.argv[1:]:
    name, shift, noise, governor, seed = spec.split(":")
    rng = random.Random(int(seed))
    shift, noise = float(shift), float(noise)
    def samples(mean, n):
        return [rng.gauss(mean, mean * noise) for _ in range(n)]
    runs.append({"name": name, "started": "2026-01-01T00:00:00Z", "complete": True,
                 "environment": {"cpufreq.governor": governor, "kernel.release": name,
                                 "loadavg": str(rng.random())},
                 "benchmarks": [
                     {"workload": "wx", "params": {"threads": "4"}, "metrics": [
                         {"name": "seconds", "unit": "s", "better": "lower",
                          "samples": samples(10 * (1 + shift), 12)}]},
                     {"workload": "wy", "params": {}, "metrics": [
                         {"name": "ops", "unit": "ops/s", "better": "higher",
                          "samples": samples(500, 10)}]}]})
print(json.dumps({"schema": "schedperf-results/1", "runs": runs}))
PY
}

@test "compare --format json: every statistic matches SciPy" {
	results "$TMP/r.json" base:0:0.01:performance:1 slow:0.1:0.01:powersave:2 \
		twin:0:0.01:performance:3
	sp import "$TMP/r.json"
	sp compare base slow twin --format json > "$TMP/c.json"
	# the samples SciPy sees are those of the generated file, not an export
	/usr/bin/python3 - "$TMP/c.json" "$TMP/r.json" <<'PY'
import json, sys
import numpy as np
from scipy import stats, optimize
c = json.load(open(sys.argv[1]))
exp = json.load(open(sys.argv[2]))
alpha, margin, level = 0.05, 0.01, 0.95
def close(a, b, rel=1e-6):
    assert a is not None and abs(a - b) <= rel * max(1.0, abs(b)), (a, b)
def samples(run, workload):
    for r in exp["runs"]:
        if r["name"] == run:
            for b in r["benchmarks"]:
                if b["workload"] == workload:
                    return np.array(b["metrics"][0]["samples"])
def wilcox_counts(m, n):
    # number of arrangements with W = k: the exact null distribution
    f = {(0, 0): [1]}
    def count(m, n):
        if (m, n) in f: return f[(m, n)]
        if m == 0 or n == 0:
            f[(m, n)] = [1]; return f[(m, n)]
        a, b = count(m - 1, n), count(m, n - 1)
        out = [0] * (m * n + 1)
        for k, v in enumerate(a): out[k + n] += v
        for k, v in enumerate(b): out[k] += v
        f[(m, n)] = out; return out
    return count(m, n)
def qwilcox(p, m, n):
    counts = np.array(wilcox_counts(m, n), dtype=float)
    cdf = np.cumsum(counts) / counts.sum()
    return int(np.argmax(cdf >= p - 1e-12))
def mde_pct(nb, nn, sd, base_mean):
    ne = 2 * nb * nn / (nb + nn); df = 2 * (ne - 1)
    tc = stats.t.ppf(1 - alpha / 2, df)
    f = lambda d: stats.nct.sf(tc, df, np.sqrt(ne / 2) * d / sd) - 0.8
    return optimize.brentq(f, 1e-12 * sd, 100 * sd, xtol=1e-14, rtol=1e-14) / abs(base_mean) * 100
assert c["schema"] == "schedperf-compare/1" and c["baseline"] == "base"
# every Welch p of the comparison, rows x runs in order, adjusted together
cells, ps = [], []
for row in c["rows"]:
    for r in row["runs"][1:]:
        cells.append((row, r))
        ps.append(stats.ttest_ind(samples(r["name"], row["workload"]),
                                  samples("base", row["workload"]), equal_var=False).pvalue)
p = np.array(ps); n = len(p); o = np.argsort(p)[::-1]
bh = np.empty(n); bh[o] = np.minimum(1, np.minimum.accumulate(p[o] * n / np.arange(n, 0, -1)))
for i, (row, r) in enumerate(cells):
    x = samples("base", row["workload"]); y = samples(r["name"], row["workload"])
    close(r["p_welch"], ps[i])
    close(r["p_mwu"], stats.mannwhitneyu(y, x, alternative="two-sided", method="exact").pvalue)
    close(r["p_adjusted"], bh[i])
    diffs = np.sort(np.subtract.outer(y, x).ravel())
    close(r["hl_shift"], np.median(diffs))
    qu = qwilcox((1 - level) / 2, len(y), len(x)); qu = max(qu, 1)
    close(r["hl_ci"][0], diffs[qu - 1]); close(r["hl_ci"][1], diffs[len(x) * len(y) - qu])
    lo, hi = r["ratio_ci"]; ratio = y.mean() / x.mean()
    assert lo <= ratio <= hi and hi - lo < 0.05, (lo, ratio, hi)
    sig = r["p_adjusted"] < alpha and (lo > 1 or hi < 1)
    higher = row["better"] == "higher"
    if sig:
        verdict = "better" if (lo > 1) == higher else "worse"
    elif lo >= 1 - margin and hi <= 1 + margin:
        verdict = "same"
    else:
        verdict = "unknown"
    assert r["verdict"] == verdict, (r["verdict"], verdict)
    if verdict in ("better", "worse"):
        assert r["mde_pct"] is None
    else:
        sd = np.sqrt(((len(x) - 1) * x.var(ddof=1) + (len(y) - 1) * y.var(ddof=1)) / (len(x) + len(y) - 2))
        close(r["mde_pct"], mde_pct(len(x), len(y), sd, x.mean()))
    assert r["env_caveats"] == (["cpufreq.governor"] if r["name"] == "slow" else [])
for row in c["rows"]:
    for r in row["runs"]:
        s = np.sort(samples(r["name"], row["workload"]))
        k = int(stats.binom.ppf((1 - level) / 2, len(s), 0.5))
        close(r["median_ci"][0], s[k - 1]); close(r["median_ci"][1], s[len(s) - k])
    assert "p_welch" not in row["runs"][0] and "verdict" not in row["runs"][0]
# the 10 % slower run is worse in seconds; its twin is not
verdicts = {(row["workload"], r["name"]): r["verdict"] for row in c["rows"] for r in row["runs"][1:]}
assert verdicts[("wx", "slow")] == "worse", verdicts
assert verdicts[("wx", "twin")] not in ("better", "worse"), verdicts
assert [d["key"] for d in c["environment_differences"]] == ["cpufreq.governor", "kernel.release"]
assert c["environment_differences"][0]["moves_results"] is True
assert c["environment_differences"][0]["values"] == {"base": "performance", "slow": "powersave", "twin": "performance"}
PY
}

# r_check OPTIONS...: compare the runs of tests/data/compare-runs.json with
# OPTIONS and check every number against what R computed of the same runs
# for those options (tests/data/compare-r.json, key $R_KEY), to 1e-6.
r_check() {
	local data="$BATS_TEST_DIRNAME/../data"
	sp compare base slow twin --format json "$@" > "$TMP/c.json"
	"$PYTHON" - "$TMP/c.json" "$data/compare-r.json" "$R_KEY" "$@" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))[sys.argv[3]]
opts = dict(zip(sys.argv[4::2], sys.argv[5::2]))
alpha = float(opts.get("--alpha", 0.05))
margin = float(opts.get("--margin", 1)) / 100
def close(what, a, b, rel=1e-6):
    assert a is not None and abs(a - b) <= rel * max(1.0, abs(b)), (what, a, b)
assert [row["workload"] for row in c["rows"]] == [row["workload"] for row in r]
checked = 0
for row, rrow in zip(c["rows"], r):
    higher = row["better"] == "higher"
    for cell, rcell in zip(row["runs"], rrow["runs"]):
        assert cell["name"] == rcell["name"] and cell["n"] == rcell["n"]
        for key, value in rcell.items():
            if key in ("name", "n") or (key == "mde_pct" and cell[key] is None):
                continue
            if isinstance(value, list):
                for a, b in zip(cell[key], value):
                    close(key, a, b)
            else:
                close(key, cell[key], value)
            checked += 1
        if cell["name"] == "base":
            continue
        # the verdict from R's adjusted p, the options and the ratio interval
        lo, hi = cell["ratio_ci"]
        if rcell["p_adjusted"] < alpha and (lo > 1 or hi < 1):
            verdict = "better" if (lo > 1) == higher else "worse"
        elif lo >= 1 - margin and hi <= 1 + margin:
            verdict = "same"
        else:
            verdict = "unknown"
        assert cell["verdict"] == verdict, (cell["name"], cell["verdict"], verdict)
        assert (cell["mde_pct"] is None) == (verdict in ("better", "worse"))
print(checked)
PY
}

@test "compare --format json: every statistic matches R's, with default and other options" {
	sp import "$BATS_TEST_DIRNAME/../data/compare-runs.json"
	R_KEY=default run r_check
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" -ge 70 ]	# numbers checked
	R_KEY=alpha_0.01_holm run r_check --alpha 0.01 --adjust holm --margin 2
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[ "$output" -ge 70 ]
	# 10 % slower in seconds is worse under both; twin's verdict differs:
	# unknown within 1 %, same within 2 %
	sp compare base slow twin --format json --alpha 0.01 --adjust holm --margin 2 > "$TMP/c.json"
	[ "$(json '[r["verdict"] for r in d["rows"][0]["runs"][1:]]' "$TMP/c.json")" = "['worse', 'same']" ]
	sp compare base slow twin --format json > "$TMP/c.json"
	[ "$(json '[r["verdict"] for r in d["rows"][0]["runs"][1:]]' "$TMP/c.json")" = "['worse', 'unknown']" ]
}

@test "compare: the bootstrap interval is reproducible and follows --seed" {
	results "$TMP/r.json" a:0:0.02:performance:11 b:0.01:0.02:performance:12
	sp import "$TMP/r.json"
	sp compare a b --format json > "$TMP/1.json"
	sp compare a b --format json > "$TMP/2.json"
	cmp "$TMP/1.json" "$TMP/2.json"
	sp compare a b --format json --seed 7 > "$TMP/3.json"
	/usr/bin/python3 - "$TMP/1.json" "$TMP/3.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for ra, rb in zip(a["rows"], b["rows"]):
    ca, cb = ra["runs"][1], rb["runs"][1]
    assert ca["ratio_ci"] != cb["ratio_ci"]
    # another seed moves the interval ends only a little
    for x, y in zip(ca["ratio_ci"], cb["ratio_ci"]):
        assert abs(x - y) < 0.005, (x, y)
    assert ca["p_welch"] == cb["p_welch"]
PY
}

@test "compare: --seed takes the seed compare printed, and reproduces its result" {
	results "$TMP/r.json" a:0:0.02:performance:11 b:0.01:0.02:performance:12
	sp import "$TMP/r.json"
	sp compare a b --format json > "$TMP/1.json"
	seed=$(json 'd["settings"]["seed"]' "$TMP/1.json")
	[ "$seed" -gt 2147483647 ]
	sp compare a b --format json --seed "$seed" > "$TMP/2.json"
	cmp "$TMP/1.json" "$TMP/2.json"
	sp compare a b --format json --seed 9223372036854775807 > "$TMP/3.json"
	[ "$(json 'd["settings"]["seed"]' "$TMP/3.json")" = 9223372036854775807 ]
	run sp compare a b --seed 9223372036854775808
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: compare: --seed '9223372036854775808': give a whole number from 0 to 9223372036854775807 (see 'schedperf compare --help')" ] || { echo "$output"; false; }
	# ab's and bisect's seeds, printed from the int range, stay in it
	run sp ab pipe --a nice:0 --b nice:1 --seed 2147483648
	[ "$status" -eq 2 ]
	[[ "$output" == *"give a whole number from 0 to 2147483647"* ]]
}

@test "compare: two runs of identical data have no significant row" {
	results "$TMP/a.json" same1:0:0.03:performance:5
	results "$TMP/b.json" same2:0:0.03:performance:5
	sp import "$TMP/a.json"
	sp import "$TMP/b.json"
	run sp compare same1 same2 --format json --fail-on-regression
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/c.json"
	# 3 % noise over 12 samples cannot show "same within 1 %": unknown
	[ "$(json '[r["runs"][1]["verdict"] for r in d["rows"]]' "$TMP/c.json")" = "['unknown', 'unknown']" ]
	[ "$(json 'all(r["runs"][1]["ratio_ci"][0] < 1 < r["runs"][1]["ratio_ci"][1] for r in d["rows"])' "$TMP/c.json")" = True ]
	[ "$(json 'all(r["runs"][1]["p_adjusted"] == 1 for r in d["rows"])' "$TMP/c.json")" = True ]
	run sp compare same1 same2 --only-changed --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | "$PYTHON" -c 'import json,sys; print(len(json.load(sys.stdin)["rows"]))')" -eq 0 ]
}

@test "compare: a clear 10% regression is worse and fails the check" {
	results "$TMP/r.json" good:0:0.005:performance:21 bad:0.1:0.005:performance:22
	sp import "$TMP/r.json"
	run sp compare good bad
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: threads=4: bad worse"* ]]
	# MMTests' own mark on the headline row, apart from schedperf's verdict
	[[ "$output" =~ Amean\ +threads=4\ .*\*\ *-10\.[0-9]+%\* ]]
	run sp compare good bad --fail-on-regression
	[ "$status" -eq 1 ]
	run sp compare good bad --fail-on-regression --metric ops
	[ "$status" -eq 0 ]
	run sp compare good bad --only-changed --format csv
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]	# header, baseline, bad: only wx changed
	[[ "${lines[2]}" == wx,threads=4,seconds,*,worse,* ]]
	run sp compare good bad --workload wy --format json
	[ "$status" -eq 0 ]
	[ "$(echo "$output" | "$PYTHON" -c 'import json,sys; print([r["workload"] for r in json.load(sys.stdin)["rows"]])')" = "['wy']" ]
	run sp compare good bad --adjust holm --alpha 0.01 --margin 2 --format json
	[ "$status" -eq 0 ]
}

@test "compare --style lkp: value ± %stddev  %change  value ± %stddev  metric" {
	results "$TMP/r.json" good:0:0.005:performance:21 bad:0.1:0.005:performance:22
	sp import "$TMP/r.json"
	run sp compare good bad --style lkp
	[ "$status" -eq 0 ]
	[[ "$output" == *"%stddev"*"%change"*"%stddev"* ]]
	# 0.5 % noise: lkp shows no ± at or below 2 %
	line=$(echo "$output" | grep 'wx\.seconds$')
	[[ "$line" =~ ^\ +[0-9.]+\ +\+[0-9]+\.[0-9]%\ +[0-9.]+\ {8}wx\.seconds$ ]]
	# ops did not move: lkp hides it; schedperf's verdict still names it
	refute grep -q '^ .*wy\.ops$' <<<"$output"
	[[ "$output" == *"schedperf: wy.ops: bad "* ]]
	[[ "$output" == *"schedperf: wx.seconds: bad worse"* ]]
}

@test "compare --style benchstat: median ± CI, delta, (p= n=) or ~" {
	results "$TMP/r.json" good:0:0.005:performance:21 bad:0.1:0.005:performance:22
	sp import "$TMP/r.json"
	run sp compare good bad --style benchstat
	[ "$status" -eq 0 ]
	[[ "$output" == *"vs base"* ]]
	echo "$output" | grep -E '^wx/threads=4 +[0-9.]+ ± +[0-9]+% +[0-9.]+ ± +[0-9]+% +\+[0-9.]+% \(p=0\.000 n=12\)'
	echo "$output" | grep -E '^wy +[0-9.]+ ± +[0-9]+% +[0-9.]+ ± +[0-9]+% +~ \(p=[0-9.]+ n=10\)'
	# schedperf's verdict apart from benchstat's ~
	[[ "$output" == *"schedperf: wx/threads=4: bad worse"* ]]
}

@test "compare: every number each style prints is NumPy's or SciPy's" {
	local data="$BATS_TEST_DIRNAME/../data/compare-runs.json" style outputs=()
	sp import "$data"
	for style in $(choices compare style); do
		NO_COLOR=1 sp compare base slow twin --style $style >"$TMP/$style.txt"
		outputs+=("$style=$TMP/$style.txt")
	done
	[ "${#outputs[@]}" -ge 4 ]
	run "$PYTHON" "$BATS_TEST_DIRNAME/../reference/check_styles.py" "$data" "${outputs[@]}"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	# 3 runs: MMTests 2 metrics x 6 lines (v0.27: 8) x 3 x (value, %);
	# LKP's shown row; benchstat's medians, spreads, p-values and deltas
	[ "$output" -ge 180 ]
}

@test "compare --format markdown and csv parse; text lists the environment" {
	results "$TMP/r.json" base:0:0.01:performance:1 slow:0.1:0.01:powersave:2 \
		twin:0:0.01:performance:3
	sp import "$TMP/r.json"
	run sp compare base slow twin
	[ "$status" -eq 0 ]
	[[ "$output" == *"!cpufreq.governor: base=performance, slow=powersave, twin=performance"* ]]
	[[ "$output" == *"worse (!governor differs)"* ]]
	[[ "$output" != *loadavg* ]]
	sp compare base slow twin --format markdown > "$TMP/c.md"
	sp compare base slow twin --format csv > "$TMP/c.csv"
	/usr/bin/python3 - "$TMP/c.md" "$TMP/c.csv" <<'PY'
import csv, sys
table = [l for l in open(sys.argv[1]) if l.startswith("|")]
cols = [len(l.replace("\\|", "").strip().strip("|").split("|")) for l in table]
assert len(table) == 4 and len(set(cols)) == 1, cols     # header, rule, two rows
assert set(table[1].strip()) <= set("|-:")
assert "**worse (!governor differs)**" in table[2]
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 6                                   # 2 rows x 3 runs
assert [r["run"] for r in rows[:3]] == ["base", "slow", "twin"]
assert rows[1]["verdict"] == "worse" and rows[1]["env_caveats"] == "cpufreq.governor"
assert rows[0]["p_welch"] == "" and float(rows[1]["p_welch"]) < 1e-6
for r in rows[1:3]:
    assert float(r["ratio_ci_low"]) <= float(r["ratio_ci_high"])
PY
}

@test "compare: undefined statistics are null and -, never NaN" {
	cat > "$TMP/one.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "x", "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s", "better": "lower", "samples": [1]}]}]},
 {"name": "y", "started": "2026-01-01T00:00:01Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m", "unit": "s", "better": "lower", "samples": [2]}]}]},
 {"name": "z", "started": "2026-01-01T00:00:02Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "m2", "unit": "s", "better": "higher", "samples": [0, -1, 3]}]}]}]}
JSON
	sp import "$TMP/one.json"
	# n = 1; a metric only one run has; Hmean of non-positive values
	for style in $(choices compare style); do
		for format in $(choices compare format); do
			run sp compare x y z --style $style --format $format
			[ "$status" -eq 0 ] || { echo "$style $format: $output"; return 1; }
			# MMTests itself prints "NaN%" (pndiff of an undefined baseline)
			[[ "$style $format" == "mmtests"*" text" ]] && output=${output//(    NaN%)/}
			[[ "$output" != *nan* && "$output" != *NaN* ]] || { echo "$style $format: $output"; return 1; }
		done
	done
	sp compare x y z --format json > "$TMP/c.json"
	[ "$(json 'd["rows"][0]["runs"][1]["p_welch"]' "$TMP/c.json")" = None ]
	[ "$(json 'd["rows"][0]["runs"][2]["verdict"]' "$TMP/c.json")" = unknown ]
	[ "$(json 'd["rows"][1]["runs"][2]["hmean"]' "$TMP/c.json")" = None ]
	[ "$(json 'd["rows"][0]["runs"][1]["median_ci"]' "$TMP/c.json")" = "[None, None]" ]
}

@test "compare colours verdicts on a terminal only, and never with NO_COLOR" {
	command -v script >/dev/null || skip "no script(1)"
	results "$TMP/r.json" good:0:0.005:performance:21 bad:0.1:0.005:performance:22
	sp import "$TMP/r.json"
	out=$(SCHEDPERF_DB="$SCHEDPERF_DB" script -qec "$SP compare good bad" /dev/null)
	[[ "$out" == *$'\033[31m'* ]]
	out=$(NO_COLOR=1 SCHEDPERF_DB="$SCHEDPERF_DB" script -qec "$SP compare good bad" /dev/null)
	[[ "$out" != *$'\033['* ]]
	run sp compare good bad
	[ "$status" -eq 0 ]
	[[ "$output" != *$'\033['* ]]
}

# With a store that holds both runs, so that only the option can be what
# is refused: the line must name the option and quote the value.
@test "compare refuses bad options with one line naming them" {
	local opt value
	results "$TMP/r.json" a:0:0.01:performance:1 b:0:0.01:performance:2
	sp import "$TMP/r.json"
	run sp compare a b --style lkp --format markdown --alpha 0.1 --adjust holm --margin 2 --seed 3
	[ "$status" -eq 0 ]
	while read -r opt value; do
		run sp compare a b "$opt" "$value"
		[ "$status" -eq 2 ] || { echo "$opt $value: exit $status: $output"; return 1; }
		assert_one_line_error
		[[ "$output" == *"${opt#--}"*"'$value'"* ]] || { echo "$opt $value: $output"; return 1; }
	done <<-'EOF'
	--style nosuch
	--format yaml
	--alpha 0
	--alpha 0.5
	--alpha x
	--adjust bonferroni
	--margin -1
	--margin 0
	--margin 100
	--seed -3
	--seed 1.5
	EOF
}

@test "compare: a --workload or --metric that matches no row is an error, not 'no change'" {
	sp run pipe -p loops=1000 -i 2 --name fa --quiet
	sp run pipe -p loops=1000 -i 2 --name fb --quiet
	run sp compare fa fb --metric bogus
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp compare fa fb --workload nosuch --format json
	[ "$status" -eq 2 ]
	# every name of a list is checked: one misspelt is not dropped
	run sp compare fa fb --workload pipe,nosuch
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"--workload 'nosuch' is in none of the rows"* ]]
	run sp compare fa fb --metric usec_per_op --metric bogus
	[ "$status" -eq 2 ]
	[[ "$output" == *"--metric 'bogus' is in none of the rows"* ]]
	# and report's the same, writing nothing
	for sel in "--workload nosuch" "--workload pipe,nosuch" "--metric usec_per_op,bogus"; do
		run sp report fa fb $sel -o "$TMP/r.html"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[ ! -e "$TMP/r.html" ]
	done
	run sp compare fa fb --metric usec_per_op --format json
	[ "$status" -eq 0 ]
	sp report fa fb --workload pipe -o "$TMP/r.html"
	[ -s "$TMP/r.html" ]
}

@test "compare pools a run's batches: tests on every sample, each batch's environment" {
	"$PYTHON" - > "$TMP/r.json" <<'PY'
import json, random
rng = random.Random(31)
def batch(name, started, governor, samples, extra=None):
    metrics = [{"name": "seconds", "unit": "s", "better": "lower", "samples": samples}]
    benches = [{"workload": "wx", "params": {}, "metrics": metrics}]
    if extra:
        benches.append({"workload": "extra", "params": {}, "metrics": [
            {"name": "seconds", "unit": "s", "better": "lower", "samples": extra}]})
    return {"name": name, "started": started, "complete": True,
            "environment": {"cpufreq.governor": governor}, "benchmarks": benches}
g = lambda mean, n: [rng.gauss(mean, 0.1) for _ in range(n)]
print(json.dumps({"schema": "schedperf-results/1", "runs": [
    batch("base", "2026-01-01T00:00:00Z", "performance", g(10, 12)),
    batch("new", "2026-01-02T00:00:00Z", "performance", g(10.5, 6)),
    batch("new", "2026-01-03T00:00:00Z", "powersave", g(10.5, 6), extra=g(3, 4))]}))
PY
	sp import "$TMP/r.json"
	sp compare base new --format json > "$TMP/c.json"
	/usr/bin/python3 - "$TMP/c.json" "$TMP/r.json" <<'PY'
import json, sys
from scipy import stats
c = json.load(open(sys.argv[1]))
runs = json.load(open(sys.argv[2]))["runs"]
def pooled(name, workload):
    return [x for r in runs if r["name"] == name for b in r["benchmarks"]
            if b["workload"] == workload for x in b["metrics"][0]["samples"]]
rows = {r["workload"]: r for r in c["rows"]}
assert sorted(rows) == ["extra", "wx"], rows.keys()
base, new = pooled("base", "wx"), pooled("new", "wx")
cell = rows["wx"]["runs"][1]
assert cell["n"] == 12 and rows["wx"]["runs"][0]["n"] == 12
p = stats.ttest_ind(new, base, equal_var=False).pvalue
assert abs(cell["p_welch"] - p) <= 1e-6 * p, (cell["p_welch"], p)
assert abs(cell["amean"] - sum(new) / 12) <= 1e-9
assert cell["verdict"] == "worse", cell
assert cell["env_caveats"] == ["cpufreq.governor"]
# a metric only the second batch of one run has: its own row, nothing to test
extra = rows["extra"]["runs"]
assert extra[0]["n"] == 0 and extra[1]["n"] == 4 and extra[1]["verdict"] == "unknown", extra
d = c["environment_differences"]
assert d == [{"key": "cpufreq.governor", "moves_results": True,
              "values": {"base": "performance", "new": "performance | powersave"}}], d
PY
}

# batched_runs FILE NAME:MEAN1:MEAN2...: runs of two batches, 30 samples each,
# spread +-0.3 around each batch's mean (the batch means 4 apart).
batched_runs() {
	out=$1
	shift
	"$PYTHON" - "$out" "$@" <<'PY'
import json, sys
runs = []
day = 1
for spec in sys.argv[2:]:
    name, *means = spec.split(":")
    for m in means:
        samples = [float(m) + (-0.3, -0.1, 0.1, 0.3, 0.0)[i % 5] for i in range(30)]
        runs.append({"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
                     "environment": {}, "benchmarks": [{"workload": "pipe", "params": {},
                     "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower",
                                  "samples": samples}]}]})
        day += 1
json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
PY
}

@test "two batches per run: a change within the batch spread is not called, a large one is" {
	batched_runs "$TMP/b.json" base:100:104 small:101:105 large:130:134
	sp import "$TMP/b.json"
	run sp compare base small --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/small.json"
	row='d["rows"][0]["runs"][1]'
	[ "$(json "$row['tested_on']" "$TMP/small.json")" = "batch means" ]
	[ "$(json "$row['verdict']" "$TMP/small.json")" = unknown ]
	[ "$(json "[r['batches'] for r in d['rows'][0]['runs']]" "$TMP/small.json")" = "[2, 2]" ]
	# nearly all the variance is between the batches
	[ "$(json "d['rows'][0]['runs'][0]['between_batch_share'] > 0.9" "$TMP/small.json")" = True ]
	# pooled as 60 independent samples, the same 1 % would have been called
	[ "$(json "$row['p_welch'] < 0.05" "$TMP/small.json")" = True ]
	run sp compare base large --format json
	echo "$output" > "$TMP/large.json"
	[ "$(json "$row['verdict']" "$TMP/large.json")" = worse ]
	run sp compare base small
	[[ "$output" == *"schedperf: batches (tested on batch means"* ]]
	[[ "$output" == *"base 2 batches 99 %, small 2 batches 99 %"* ]]
	[[ "$output" != *"could not be assessed"* ]]
}

@test "one batch per run: pooled as before, and the output says batches could not be assessed" {
	batched_runs "$TMP/one.json" base:100 new:101
	sp import "$TMP/one.json"
	run sp compare base new
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: note: run base has one batch: boot-to-boot variation could not be assessed"* ]]
	run sp compare base new --format json
	echo "$output" > "$TMP/c.json"
	[ "$(json 'd["rows"][0]["runs"][1]["tested_on"]' "$TMP/c.json")" = samples ]
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/c.json")" = worse ]
}

@test "disturbed samples are marked beside the verdict, counted in JSON, left out on request" {
	"$PYTHON" - "$TMP/d.json" <<'PY'
import json, sys
def batch(name, day, samples, disturbed):
    its = [{"cpu_taken": 0.5 if d else 0.0, "cpu_available": 1.0, "disturbed": d} for d in disturbed]
    for i in its:
        if not i["disturbed"]:
            del i["disturbed"]
    return {"name": name, "started": "2026-02-%02dT00:00:00Z" % day, "complete": True,
            "environment": {}, "benchmarks": [{"workload": "pipe", "params": {},
            "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower", "samples": samples}],
            "iterations": its}]}
base = [10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 10.0]
new = [10.0, 10.1, 9.9, 10.0, 10.1, 9.9, 13.0, 13.1, 12.9, 13.0]
runs = [batch("a", 1, base, [False] * 10), batch("b", 2, new, [False] * 6 + [True] * 4)]
json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
PY
	sp import "$TMP/d.json"
	run sp compare a b
	[[ "$output" == *"worse (!disturbed 4/20)"* ]]
	[[ "$output" == *"schedperf: disturbed samples"*"a 0/10, b 4/10"* ]]
	run sp compare a b --format json
	echo "$output" > "$TMP/c.json"
	[ "$(json '[r["disturbed"] for r in d["runs"]]' "$TMP/c.json")" = "[0, 4]" ]
	[ "$(json 'd["rows"][0]["runs"][1]["disturbed"]' "$TMP/c.json")" -eq 4 ]
	# without the disturbed iterations the runs are the same
	run sp compare a b --exclude-disturbed --format json
	echo "$output" > "$TMP/x.json"
	[ "$(json 'd["rows"][0]["runs"][1]["n"]' "$TMP/x.json")" -eq 6 ]
	[ "$(json 'd["rows"][0]["runs"][1]["excluded"]' "$TMP/x.json")" -eq 4 ]
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/x.json")" != worse ]
	run sp compare a b --exclude-disturbed
	[[ "$output" == *"(4 disturbed left out)"* ]]
	[[ "$output" == *"a 0/10, b 4/10 left out"* ]]
}

# many FILE ROWS: two runs of ROWS benchmarks of 12 samples; rows 0 and 1
# are 30 % slower in "b", row 2 10 % faster, the rest the same.
many() {
	"$PYTHON" - "$2" > "$1" <<'PY'
import json, random, sys
rows = int(sys.argv[1])
rng = random.Random(5)
runs = []
for name in ("a", "b"):
    bench = []
    for i in range(rows):
        f = 1.0 if name == "a" else {0: 1.3, 1: 1.3 + 0.1, 2: 0.9}.get(i, 1.0)
        bench.append({"workload": "w", "params": {"i": str(i)}, "metrics": [
            {"name": "seconds", "unit": "s", "better": "lower",
             "samples": [rng.gauss(10 * f, 0.05) for _ in range(12)]}]})
    runs.append({"name": name, "started": "2026-01-01T00:00:00Z", "complete": True,
                 "environment": {}, "benchmarks": bench})
print(json.dumps({"schema": "schedperf-results/1", "runs": runs}))
PY
}

@test "compare: more than a screen of rows: a summary per run and the changed rows, worst first" {
	many "$TMP/m.json" 30
	sp import "$TMP/m.json"
	for style in mmtests lkp benchstat; do
		run sp compare a b --style "$style"
		[ "$status" -eq 0 ]
		verdicts=$(grep '^schedperf: \(b:\|w \)' <<<"$output")
		[ "$verdicts" = "schedperf: b: 2 worse, 1 better, 27 same
schedperf: w i=1 seconds: b worse
schedperf: w i=0 seconds: b worse
schedperf: w i=2 seconds: b better" ]
		grep -q '^schedperf: the rows above changed, worst first; every row' <<<"$output"
		refute grep -q 'i=5' <<<"$verdicts"
	done
	# every row's line with --verbose, as a comparison of a screen prints
	run sp compare a b --verbose
	[ "$(grep -c '^schedperf: i=[0-9]*: b ' <<<"$output")" -eq 30 ]
	refute grep -q '^schedperf: b:' <<<"$output"
	sp compare a b --format json > "$TMP/m.out"
	[ "$(json "len(d['rows'])" "$TMP/m.out")" -eq 30 ]
	many "$TMP/s.json" 20
	sp import --db "$TMP/s.db" "$TMP/s.json"
	run sp compare --db "$TMP/s.db" a b
	[ "$(grep -c '^schedperf: i=[0-9]*: b ' <<<"$output")" -eq 20 ]
	refute grep -q '^schedperf: b:' <<<"$output"
}

@test "compare: a '|', a backslash or a control character never breaks a markdown or CSV row" {
	"$PYTHON" - "$TMP/hostile.json" <<-'EOF'
	import json, sys
	def run(name, day, values, env):
	    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
	            "environment": env,
	            "benchmarks": [{"workload": "w|x\\", "params": {"k": "v\rEVIL|\x1b[31mred",
	                                                            "p|q": "1\n2"},
	                            "metrics": [{"name": "m|n", "unit": "ms|s", "better": "lower",
	                                         "samples": values}]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [
	    run("base|\\", 1, [1, 1.1, 0.9, 1, 1.05], {"env|k,": "a\nb|c"}),
	    run("new", 2, [2, 2.1, 1.9, 2, 2.05], {"env|k,": "d\re|f"})]}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/hostile.json"
	# every producer of lines: no control character but the newline ends them
	for style in $(choices compare style); do
		sp compare 'base|\' new --style $style >"$TMP/out.txt"
		sp compare 'base|\' new --style $style --format markdown >>"$TMP/out.txt"
	done
	sp compare 'base|\' new --format csv >"$TMP/c.csv"
	sp history >>"$TMP/out.txt"
	sp history --format csv >"$TMP/h.csv"
	sp show new --env >>"$TMP/out.txt"
	for f in "$TMP/out.txt" "$TMP/c.csv" "$TMP/h.csv"; do
		refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$f"
	done
	# markdown: every row has the header's cells; '|' and '\' escaped, values as \xHH
	sp compare 'base|\' new --format markdown >"$TMP/c.md"
	"$PYTHON" - "$TMP/c.md" <<-'EOF'
	import re, sys
	rows = [l for l in open(sys.argv[1]) if l.startswith('|')]
	cells = [len(re.findall(r'(?<!\\)(?:\\\\)*\|', l)) for l in rows]
	assert len(rows) == 3 and len(set(cells)) == 1, (rows, cells)
	EOF
	grep -q '| w\\|x\\\\ k=v\\\\x0dEVIL\\|\\\\x1b\\\[31mred p\\|q=1\\\\x0a2 | m\\|n (ms\\|s, lower is better) |' "$TMP/c.md"
	grep -q 'env\\|k,: base\\|\\\\=a\\\\x0ab\\|c, new=d\\\\x0de\\|f' "$TMP/c.md"
	# CSV: every record has the header's columns
	for f in "$TMP/c.csv" "$TMP/h.csv"; do
		"$PYTHON" -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(len(rows) < 3 or len({len(r) for r in rows}) != 1)' "$f"
	done
	# JSON keeps every value as it is
	sp compare 'base|\' new --format json >"$TMP/c.json"
	[ "$(json 'd["rows"][0]["params"]["k"] == "v\rEVIL|\x1b[31mred"' "$TMP/c.json")" = True ]
}

@test "compare, history, runs, show: a stored name's escape or newline is escaped, in any format" {
	results "$TMP/r.json" base:0:0.01:performance:1 new:0.1:0.01:performance:2
	sp import "$TMP/r.json"
	# a store another program wrote: run and import refuse such names
	sqlite3 "$SCHEDPERF_DB" "UPDATE runs SET name = 'new' || char(27) || '[31mred' ||
		char(10) || 'LINE2' WHERE name = 'new';
		UPDATE benchmarks SET workload = 'w' || char(27) || '[2J' || char(10) || 'WL2'
		WHERE workload = 'wx';
		UPDATE metrics SET name = 'sec' || char(13) || 'onds' WHERE name = 'seconds'"
	local new=$'new\e[31mred\nLINE2' shown='new\x1b[31mred\x0aLINE2'
	# as text shows it; in markdown, its '\' and '[' escaped in turn
	local md='new\\x1b\[31mred\\x0aLINE2'
	: >"$TMP/all.txt"
	for style in $(choices compare style); do
		for format in text markdown csv; do
			sp compare base "$new" --style $style --format $format >"$TMP/out.txt" 2>&1
			cat "$TMP/out.txt" >>"$TMP/all.txt"
			if [ $format = markdown ]; then
				grep -qF "$md" "$TMP/out.txt"
			else
				grep -qF "$shown" "$TMP/out.txt"
			fi
		done
	done
	sp compare base "$new" --format csv >"$TMP/c.csv"
	sp history >>"$TMP/all.txt" 2>&1
	sp history --format csv >"$TMP/h.csv" 2>&1
	sp runs >>"$TMP/all.txt" 2>&1
	sp show "$new" >>"$TMP/all.txt" 2>&1
	cat "$TMP/c.csv" "$TMP/h.csv" >>"$TMP/all.txt"
	# no control character but the newline that ends a line, none of it inside a name
	refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$TMP/all.txt"
	refute grep -qP '^(LINE2|WL2)|(?<!x0a)(LINE2|WL2)' "$TMP/all.txt"
	grep -qF 'w\x1b[2J\x0aWL2' "$TMP/all.txt"
	grep -qF 'sec\x0donds' "$TMP/all.txt"
	grep -qF "run $shown, batch 2" "$TMP/all.txt"
	grep -qF ",$shown,,2026-01-01T00:00:00Z,12," "$TMP/h.csv"
	for f in "$TMP/c.csv" "$TMP/h.csv"; do
		"$PYTHON" -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(len(rows) < 3 or len({len(r) for r in rows}) != 1)' "$f"
	done
	# JSON keeps the names as they are, its writer escaping them
	sp compare base "$new" --format json >"$TMP/c.json"
	[ "$(json 'd["runs"][1]["name"] == "new\x1b[31mred\nLINE2"' "$TMP/c.json")" = True ]
	sp history --format json >"$TMP/h.json"
	refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$TMP/c.json" "$TMP/h.json"
}

@test "compare, history --format csv: a text cell a spreadsheet runs as formula starts with '" {
	"$PYTHON" - "$TMP/formula.json" <<-'EOF'
	import json, sys
	def run(name, day, values):
	    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
	            "environment": {},
	            "benchmarks": [{"workload": "+w", "params": {"-k": "v"},
	                            "metrics": [{"name": "=m", "unit": "@u", "better": "lower",
	                                         "samples": values}]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [
	    run('=SUM(1,2)"x"', 1, [1, 1.1, 0.9, 1, 1.05]),
	    run("-new", 2, [2, 2.1, 1.9, 2, 2.05])]}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/formula.json"
	sp compare --format csv -- '=SUM(1,2)"x"' -new >"$TMP/c.csv"
	sp history --format csv >"$TMP/h.csv"
	cat "$TMP/c.csv" "$TMP/h.csv"
	# each text cell is its value after a quote; numbers keep their sign
	"$PYTHON" - "$TMP/c.csv" "$TMP/h.csv" <<-'EOF'
	import csv, sys
	names = {"workload": "+w", "params": "-k=v", "metric": "=m", "unit": "@u"}
	runs = ['=SUM(1,2)"x"', "-new"]
	for path, numbers in zip(sys.argv[1:], (["n", "min", "amean", "pct_change"],
	                                        ["n", "mean", "ci_low"])):
	    rows = list(csv.DictReader(open(path, newline="")))
	    assert len(rows) == 2, rows
	    for row in rows:
	        for key, value in names.items():
	            assert row[key] == "'" + value, (key, row[key])
	        assert row["run"] in ["'" + r for r in runs], row["run"]
	        for key in numbers:
	            assert row[key] == "" or float(row[key]) == float(row[key]), (key, row[key])
	    if "pct_change" in rows[1]:
	        assert rows[1]["pct_change"].startswith("-"), rows[1]
	EOF
	grep -q "^'+w,'-k=v,'=m,'@u,lower,\"'=SUM(1,2)\"\"x\"\"\",5," "$TMP/c.csv"
}

@test "compare --format markdown: HTML and emphasis in names are escaped, table and notes" {
	"$PYTHON" - "$TMP/md.json" <<-'EOF'
	import json, sys
	def run(name, day, values, gov):
	    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
	            "environment": {"cpufreq.governor": gov, "<k>": "*v*"},
	            "benchmarks": [{"workload": "w", "params": {"p": "<img src=x>"},
	                            "metrics": [{"name": "`m`", "unit": "s", "better": "lower",
	                                         "samples": values}]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [
	    run("<script>a</script>", 1, [1, 1.1, 0.9, 1, 1.05], "performance"),
	    run("*b*_[c](d)~~e~~&amp;", 2, [2, 2.1, 1.9, 2, 2.05], "powersave")]},
	    open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/md.json"
	for style in $(choices compare style); do
		sp compare '<script>a</script>' '*b*_[c](d)~~e~~&amp;' --style $style \
			--format markdown >"$TMP/c.md"
		# nothing a renderer takes for a tag, an entity, a code span or emphasis
		# but schedperf's own **bold** and benchstat's [CI] and [low, high]
		sed -e 's/\*\*[A-Za-z ]*\( ([^)]*)\)\?\*\*//g' -e 's/ \[[-0-9.e, +CI]*\]//g' \
			"$TMP/c.md" >"$TMP/names.md"
		refute grep -qP '(?<!\\)[<>&`*\[\]~]' "$TMP/names.md"
		grep -q '\\<script\\>a\\</script\\>' "$TMP/c.md"
		grep -q '\\\*b\\\*\\_\\\[c\\\](d)\\~\\~e\\~\\~\\&amp;' "$TMP/c.md"
	done
}

@test "compare: from a mean not above 0 the verdict follows the difference, not a ratio" {
	local v
	for v in -5 -4 5 6; do
		echo "$v" >"$TMP/val"
		sp run command -p "cmd=cat $TMP/val" -p 'metric_regex=(-?[0-9]+)' \
			-p metric_name=delta -i 4 --name "n$v" -q
	done
	# lower is better: from -5 to 5 is worse (a ratio of -1 would call it better)
	rc=0
	sp compare n-5 n5 --metric delta --fail-on-regression --format json >"$TMP/c.json" || rc=$?
	[ "$rc" -eq 1 ]
	[ "$(json "d['rows'][0]['runs'][1]['verdict'], d['rows'][0]['runs'][1]['ratio_ci']" "$TMP/c.json")" = "worse [None, None]" ]
	# from -5 to -4 as well; from 5 to -5 is better, and 5 to 6 worse, by the ratio
	# and schedperf's percent has the verdict's sign: (new - base) / |base|
	# (the styles print their tools' own, schedperf(1))
	for pair in "n-5 n5 worse -200" "n-5 n-4 worse -20" "n5 n-5 better 200" \
		"n5 n6 worse -20" "n-4 n-5 better 25"; do
		set -- $pair
		sp compare "$1" "$2" --metric delta --format json >"$TMP/c.json"
		[ "$(json "d['rows'][0]['runs'][1]['verdict'], round(d['rows'][0]['runs'][1]['pct_change'], 9)" "$TMP/c.json")" = "$3 $4.0" ] ||
			{ echo "$pair: $(cat "$TMP/c.json")"; return 1; }
		run sp compare "$1" "$2" --metric delta --format markdown
		[[ "$output" == *" | $(printf '%+.2f' "$4")% | "* ]] || { echo "$pair: $output"; return 1; }
	done
}

@test "a suite listing one benchmark twice: one batch of its samples in compare, as in runs, after export and import too" {
	printf '%s\n' '- workload: pipe' '  params: {loops: 20}' '  iterations: 2' \
		'- workload: pipe' '  params: {loops: 20}' '  iterations: 3' > "$TMP/twice.yaml"
	sp run --suite "$TMP/twice.yaml" --name a -q
	sp run --suite "$TMP/twice.yaml" --name b -q
	for db in "$SCHEDPERF_DB" "$TMP/imported.db"; do
		run sp --db "$db" compare a b --format json
		[ "$status" -eq 0 ]
		echo "$output" > "$TMP/c.json"
		# every row: both entries' 5 samples, in the one batch runs counts
		[ "$(json "sorted({(c['n'], c['batches']) for r in d['rows'] for c in r['runs']})" \
			"$TMP/c.json")" = "[(5, 1)]" ]
		[ "$(json "[r['batches'] for r in d['runs']]" "$TMP/c.json")" = "[1, 1]" ]
		[ "$(json "{c['tested_on'] for r in d['rows'] for c in r['runs'][1:]}" \
			"$TMP/c.json")" = "{'samples'}" ]
		run sp --db "$db" compare a b
		[ "$status" -eq 0 ]
		[[ "$output" == *"schedperf: note: run a has one batch"* ]]
		[[ "$output" != *"tested on batch means"* ]]
		sp --db "$db" export a b > "$TMP/e.json"
		[ "$db" != "$SCHEDPERF_DB" ] || sp --db "$TMP/imported.db" import "$TMP/e.json"
	done
	sp --db "$TMP/imported.db" export a b | cmp - "$TMP/e.json"
}

@test "an imported batch holding one benchmark twice is one batch of all its samples" {
	"$PYTHON" - > "$TMP/r.json" <<'PY'
import json
def bench(samples):
    return {"workload": "wx", "params": {"n": "1"}, "metrics": [
        {"name": "seconds", "unit": "s", "better": "lower", "samples": samples}]}
def batch(name, day, *benches):
    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
            "environment": {}, "benchmarks": list(benches)}
print(json.dumps({"schema": "schedperf-results/1", "runs": [
    batch("base", 1, bench([10.0, 10.2, 9.9]), bench([10.1, 9.8])),
    batch("new", 2, bench([11.0, 11.2, 10.9])),
    batch("new", 3, bench([11.1, 10.8, 11.0]), bench([11.3]))]}))
PY
	sp import "$TMP/r.json"
	run sp compare base new --format json
	[ "$status" -eq 0 ]
	echo "$output" > "$TMP/c.json"
	[ "$(json "[(c['n'], c['batches']) for c in d['rows'][0]['runs']]" "$TMP/c.json")" = \
		"[(5, 1), (7, 2)]" ]
	[ "$(json "[r['batches'] for r in d['runs']]" "$TMP/c.json")" = "[1, 2]" ]
	# one batch in the baseline: tested on the samples, not on batch means
	[ "$(json "d['rows'][0]['runs'][1]['tested_on']" "$TMP/c.json")" = samples ]
	run sp compare base new
	[[ "$output" == *"schedperf: note: run base has one batch"* ]]
}

# one_sample FILE BASE_SAMPLES NEW_SAMPLES: runs base and new of one
# benchmark, their samples as JSON lists
one_sample() {
	cat > "$1" <<JSON
{"schema":"schedperf-results/1","runs":[
{"name":"base","started":"2026-01-01T00:00:00Z","complete":true,"environment":{},"benchmarks":[{"workload":"pipe","params":{"loops":"10"},"metrics":[{"name":"usec_per_op","unit":"usec","better":"lower","source":"workload","samples":$2}]}]},
{"name":"new","started":"2026-01-02T00:00:00Z","complete":true,"environment":{},"benchmarks":[{"workload":"pipe","params":{"loops":"10"},"metrics":[{"name":"usec_per_op","unit":"usec","better":"lower","source":"workload","samples":$3}]}]}]}
JSON
}

@test "compare: a side of one sample has no ratio interval and an unknown verdict that says why" {
	one_sample "$TMP/r.json" "[10.00,10.05,9.95,10.02,9.98,10.03,9.97,10.01,9.99,10.00]" "[10.01]"
	sp import "$TMP/r.json"
	for style in $(choices compare style); do
		run sp compare --style "$style" base new
		[ "$status" -eq 0 ]
		[[ "$output" == *": new unknown (too few samples: new has 1, 2 needed)"* ]]
		[[ "$output" != *"new same"* ]]
	done
	run sp compare --all-metrics base new	# verdicts summarised
	[ "$status" -eq 0 ]
	[[ "$output" == *"schedperf: new: 1 unknown (1 with too few samples)"* ]]
	sp compare --format json base new > "$TMP/c.json"
	[ "$(json 'd["rows"][0]["runs"][1]["verdict"]' "$TMP/c.json")" = unknown ]
	[ "$(json 'd["rows"][0]["runs"][1]["too_few_samples"]' "$TMP/c.json")" = True ]
	[ "$(json 'd["rows"][0]["runs"][1]["ratio_ci"]' "$TMP/c.json")" = "[None, None]" ]
	sp compare --format csv base new > "$TMP/c.csv"
	[ "$("$PYTHON" -c 'import csv, sys; r = list(csv.DictReader(open(sys.argv[1])))[1]
print(r["ratio_ci_low"], r["ratio_ci_high"], r["verdict"], sep="/")' "$TMP/c.csv")" = "//unknown" ]
	# the baseline of one sample, the other way round
	run sp compare new base
	[[ "$output" == *": base unknown (too few samples: new has 1, 2 needed)"* ]]
	# two samples a side are enough for a verdict
	rm -f "$SCHEDPERF_DB"
	one_sample "$TMP/r.json" "[10.00,10.05,9.95,10.02,9.98,10.03,9.97,10.01,9.99,10.00]" "[10.01,10.00]"
	sp import "$TMP/r.json"
	sp compare --format json base new > "$TMP/c.json"
	[ "$(json 'd["rows"][0]["runs"][1]["too_few_samples"]' "$TMP/c.json")" = False ]
	[ "$(json 'd["rows"][0]["runs"][1]["ratio_ci"][0] is not None' "$TMP/c.json")" = True ]
}

@test "compare: a run whose batch is incomplete says so, in text, markdown and JSON" {
	results "$TMP/r.json" base:0:0.01:performance:1 cut:0:0.01:performance:2
	"$PYTHON" - "$TMP/r.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["runs"][1]["complete"] = False
json.dump(f, open(sys.argv[1], "w"))
PY
	sp import "$TMP/r.json"
	run sp compare base cut
	[ "$status" -eq 0 ]
	echo "$output"
	[[ "$output" == *"schedperf: note: run cut: 1 of its 1 batches incomplete (cut short, or running still): only the iterations stored are compared (on its machine, finish it with: schedperf run --resume --name cut --db $SCHEDPERF_DB)"* ]]
	[[ "$output" != *"note: run base:"* ]]
	run sp compare base cut --format markdown
	[[ "$output" == *"note: run cut: 1 of its 1 batches incomplete"*"--db "* ]]
	sp compare base cut --format json >"$TMP/c.json"
	[ "$(jq -c '[.runs[] | [.name, .incomplete_batches]]' "$TMP/c.json")" = \
		'[["base",0],["cut",1]]' ]
}

@test "compare: the command that finishes an incomplete batch names its run and store as a shell reads them" {
	results "$TMP/r.json" base:0:0.01:performance:1 cut:0:0.01:performance:2
	"$PYTHON" - "$TMP/r.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["runs"][1]["complete"] = False
f["runs"][1]["name"] = "it's cut"
json.dump(f, open(sys.argv[1], "w"))
PY
	mkdir "$TMP/a dir"
	db="$TMP/a dir/s.db"
	sp --db "$db" import "$TMP/r.json"
	run sp --db "$db" compare base "it's cut"
	[ "$status" -eq 0 ]
	[[ "$output" == *"(on its machine, finish it with: schedperf run --resume $(
		)--name 'it'\''s cut' --db '$db')"* ]]
	# the command as printed, from elsewhere, reaches the run: --resume refuses
	# it for what the import left it (no plan), not for a run or store not found
	cmd=${output##*finish it with: schedperf }
	cmd=${cmd%%)*}
	cd /
	eval "SCHEDPERF_DB= sp $cmd" 2>"$TMP/err" && false
	cat "$TMP/err"
	grep -qx "schedperf: the batch has no stored plan to resume (start a new run instead)" \
		"$TMP/err"
	# on the default store of the directory it is run from, no --db
	cd "$TMP/a dir"
	mv s.db schedperf.db
	run env -u SCHEDPERF_DB "$SP" compare base "it's cut"
	[[ "$output" == *"(on its machine, finish it with: schedperf run --resume $(
		)--name 'it'\''s cut')"* ]]
}

@test "compare: an incomplete side of an ab is not sent to run --resume, which refuses it" {
	results "$TMP/r.json" base:0:0.01:performance:1 x-a:0:0.01:performance:2
	"$PYTHON" - "$TMP/r.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
f["runs"][1]["complete"] = False
f["runs"][1]["environment"]["experiment"] = "ab"
json.dump(f, open(sys.argv[1], "w"))
PY
	sp import "$TMP/r.json"
	for format in text markdown; do
		run sp compare base x-a --format $format
		[ "$status" -eq 0 ]
		[[ "$output" == *"note: run x-a: 1 of its 1 batches incomplete"*"(an ab's side $(
			)samples until a verdict, so nothing finishes it: run the ab again $(
			)under another --name)"* ]]
		[[ "$output" != *"--resume"* ]]
	done
	# as run --resume says
	run sp run --resume --name x-a
	[ "$status" -eq 2 ]
}

@test "compare: a metric of one name in another unit or direction is another row, never compared" {
	import_unit_clash
	for style in $(choices compare style); do
		for format in $(choices compare format); do
			run sp compare a b c --style $style --format $format
			[ "$status" -eq 0 ] || { echo "$style $format: $output"; return 1; }
			# 1 ms against 1.5 s is no 33 % improvement
			[[ "$output" != *33.3* ]] || { echo "$style $format: $output"; return 1; }
		done
	done
	sp compare a b c --format json > "$TMP/c.json"
	[ "$(json '[(r["metric"], r["unit"], r["better"]) for r in d["rows"]]' "$TMP/c.json")" = \
	  "[('m', 's', 'lower'), ('m', 's', 'higher'), ('m', 'ms', 'lower')]" ]
	# each row has one run's samples: the others are absent from it, as any run lacking a row
	[ "$(json '[[c["n"] for c in r["runs"]] for r in d["rows"]]' "$TMP/c.json")" = \
	  "[[5, 0, 0], [0, 5, 0], [0, 0, 5]]" ]
	[ "$(json '[c["verdict"] for r in d["rows"] for c in r["runs"][1:]]' "$TMP/c.json")" = \
	  "['unknown', 'unknown', 'unknown', 'unknown', 'unknown', 'unknown']" ]
	# each table and line says which metric it is
	run sp compare a b c
	[ "$status" -eq 0 ]
	[[ "$output" == *"w m (s, lower is better)"* ]]
	[[ "$output" == *"w m m (s, higher is better): no samples in the baseline a"* ]]
	[[ "$output" == *"w m m (ms, lower is better): no samples in the baseline a"* ]]
	run sp compare a b c --style lkp
	[[ "$output" == *"schedperf: w.m (ms, lower is better): b unknown (no samples), c"* ]]
	run sp compare a b c --style benchstat
	[ "$(grep -c '│ m (s, higher is better) │' <<<"$output")" -eq 1 ]
	[ "$(grep -c '│ m (ms, lower is better) │' <<<"$output")" -eq 1 ]
	# a run on its own compares only its own metric
	run sp compare a c --format json
	[ "$(json '[c["verdict"] for r in d["rows"] for c in r["runs"][1:]]' <(echo "$output"))" = \
	  "['unknown', 'unknown']" ]
	# the HTML report, built as compare builds it, has three rows too
	sp report a b c -o "$TMP/r.html"
	[ "$(grep -c '<h3 id="row[0-9]*">w: m (' "$TMP/r.html")" -eq 3 ]
	grep -q '<td class="name">m (ms, lower is better)</td>' "$TMP/r.html"
}

# lkp_pair FILE: two runs L1 and L2 of pipe's tput, higher is better, whose
# arithmetic, harmonic and median changes differ (+14.57 %, +13.99 %,
# +15.21 %), and whose population and sample CoeffVar round apart (7 %, 8 %).
lkp_pair() {
	cat > "$1" <<'JSON'
{"schema":"schedperf-results/1","runs":[
{"name":"L1","started":"2026-01-01T00:00:00Z","complete":true,"environment":{},
 "benchmarks":[{"workload":"pipe","params":{},"metrics":[{"name":"tput","unit":"ops",
 "better":"higher","source":"workload","samples":[100,102,98,101,99,100.5]}]}]},
{"name":"L2","started":"2026-01-02T00:00:00Z","complete":true,"environment":{},
 "benchmarks":[{"workload":"pipe","params":{},"metrics":[{"name":"tput","unit":"ops",
 "better":"higher","source":"workload","samples":[110,125,106,121,104,122]}]}]}]}
JSON
}

@test "compare --format markdown: a style's row has the centre, spread and change of its table" {
	lkp_pair "$TMP/l.json"
	sp import "$TMP/l.json"
	run sp compare L1 L2 --style lkp
	[ "$status" -eq 0 ]
	[[ "$output" == *"    100.08           +14.6%     114.67 ±  7%  pipe.tput"* ]]
	# the mean, the population stddev truncated and shown above 2 %, %change of the means
	run sp compare L1 L2 --style lkp --format markdown
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 100.083 | 114.667 ± 7% | +14.57% |"* ]]
	[[ "$output" == *"change: of the means, up or down as lkp's %change;"* ]]
	run sp compare L1 L2 --style benchstat
	[ "$status" -eq 0 ]
	[[ "$output" == *"100.2 ± 2%   115.5 ± 10%  +15.21% (p=0.002 n=6)"* ]]
	run sp compare L1 L2 --style benchstat --format markdown
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 100.2 [98, 102] | 115.5 [104, 125] | +15.21% |"* ]]
	# benchstat's ~ where its U test sees no difference (and no interval at 99.9 %)
	run sp compare L1 L2 --style benchstat --format markdown --alpha 0.001
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 100.2 [-, -] | 115.5 [-, -] | \\~ |"* ]]
	# MMTests' change is the headline's (Hmean here), positive = better
	run sp compare L1 L2 --format markdown
	[ "$status" -eq 0 ]
	[[ "$output" == *"| 100.066 ± 1.429 | 114.065 ± 9.07 | +13.99% |"* ]]
	[[ "$output" == *"change: positive = better;"* ]]
}

@test "compare --style benchstat: a run without samples of a metric has no column of its table" {
	cat > "$TMP/a.json" <<'JSON'
{"schema":"schedperf-results/1","runs":[
{"name":"A","started":"2026-01-01T00:00:00Z","complete":true,"environment":{},
 "benchmarks":[{"workload":"pipe","params":{},"metrics":[{"name":"m","unit":"ops",
 "better":"higher","source":"workload","samples":[1,2,3]}]}]},
{"name":"B","started":"2026-01-02T00:00:00Z","complete":true,"environment":{},
 "benchmarks":[{"workload":"pipe","params":{},"metrics":[{"name":"other","unit":"ops",
 "better":"higher","source":"workload","samples":[4,5,6]}]}]}]}
JSON
	sp import "$TMP/a.json"
	run sp compare A B --style benchstat
	[ "$status" -eq 0 ]
	# as benchstat: a table's columns are the files with results of its unit
	[ "${lines[0]}" = "     │      A      │" ]
	[ "${lines[1]}" = "     │      m      │" ]
	[ "${lines[2]}" = "pipe   2.000 ± ∞ ¹" ]
	[[ "$output" == *"schedperf: pipe: B unknown (no samples)"* ]]
	[[ "$output" == *$'\n     │      B      │\n     │    other    │\npipe   5.000 ± ∞ ¹\n'* ]]
	[[ "$output" == *"schedperf: pipe: B unknown (no samples in A)"* ]]
	[[ "$output" != *"vs base"* ]]
}

@test "compare --only-changed: every format and style says that no row changed" {
	lkp_pair "$TMP/l.json"
	sp import "$TMP/l.json"
	for style in $(choices compare style); do
		for format in text markdown; do
			run sp compare L1 L2 --only-changed --alpha 0.0001 --style "$style" \
				--format "$format"
			[ "$status" -eq 0 ]
			[[ "$output" == *"no changes: no row is better or worse"* ]] || false
			[[ "$output" != *"no metrics to compare"* ]] || false
		done
	done
}

@test "compare pools the names as stored, not as shown: the text \\x1b is not an escape" {
	"$PYTHON" - "$TMP/r.json" <<-'EOF'
	import json, sys
	def run(name, day, workload, metric, values):
	    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
	            "environment": {},
	            "benchmarks": [{"workload": workload, "params": {},
	                            "metrics": [{"name": metric, "unit": "s", "better": "lower",
	                                         "samples": values}]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [
	    run("base", 1, "w\\x1b", "m\\x0d", [1, 1.1, 0.9, 1, 1.05]),
	    run("new", 2, "wESC", "mCR", [2, 2.1, 1.9, 2, 2.05])]}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/r.json"
	# a store another program wrote: new's names hold the characters base's spell
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET workload = 'w' || char(27)
		WHERE workload = 'wESC'; UPDATE metrics SET name = 'm' || char(13) WHERE name = 'mCR'"
	# two benchmarks, each in one run: no row of both, no verdict
	for format in text csv markdown; do
		sp compare base new --format $format >"$TMP/c.out" 2>&1
		refute grep -q 'worse' "$TMP/c.out"
		local shown='w\x1b'
		[ $format != markdown ] || shown='w\\x1b'	# markdown escapes the '\' in turn
		grep -qF "$shown" "$TMP/c.out"
		refute grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$TMP/c.out"
	done
	sp compare base new --format csv >"$TMP/c.csv"
	"$PYTHON" - "$TMP/c.csv" <<-'EOF'
	import csv, sys
	rows = [(r["workload"], r["metric"], r["run"], r["n"])
	        for r in csv.DictReader(open(sys.argv[1], newline=""))]
	w, m = "w\\x1b", "m\\x0d"
	assert rows == [(w, m, "base", "5"), (w, m, "new", "0"),
	                (w, m, "base", "0"), (w, m, "new", "5")], rows
	EOF
	sp compare base new --format json >"$TMP/c.json"
	[ "$(json 'sorted((r["workload"], r["metric"]) for r in d["rows"])' "$TMP/c.json")" = \
	  "[('w\\x1b', 'm\\r'), ('w\\\\x1b', 'm\\\\x0d')]" ]
	# --workload picks the stored name, not its look
	sp compare base new --workload $'w\e' --format json >"$TMP/w.json"
	[ "$(json '[r["workload"] for r in d["rows"]]' "$TMP/w.json")" = "['w\\x1b']" ]
}

@test "compare --workload and --metric take a stored name as show prints it, escaped" {
	"$PYTHON" - "$TMP/r.json" <<-'EOF'
	import json, sys
	def run(name, day, values):
	    return {"name": name, "started": "2026-01-%02dT00:00:00Z" % day, "complete": True,
	            "environment": {},
	            "benchmarks": [{"workload": "wESC", "params": {},
	                            "metrics": [{"name": "mCR", "unit": "s", "better": "lower",
	                                         "samples": values}]}]}
	json.dump({"schema": "schedperf-results/1", "runs": [
	    run("base", 1, [1, 1.1, 0.9, 1, 1.05]),
	    run("new", 2, [2, 2.1, 1.9, 2, 2.05])]}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/r.json"
	# a store another program wrote
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET workload = 'w' || char(27);
		UPDATE metrics SET name = 'm' || char(13)"
	run sp show base
	[[ "$output" == *'w\x1b'* ]] || { echo "$output"; false; }
	# the names as show prints them pick the rows, paired by the names as stored
	sp compare base new --workload 'w\x1b' --metric 'm\x0d' --format csv >"$TMP/c.csv"
	"$PYTHON" - "$TMP/c.csv" <<-'EOF'
	import csv, sys
	rows = [(r["workload"], r["metric"], r["run"], r["n"])
	        for r in csv.DictReader(open(sys.argv[1], newline=""))]
	w, m = "w\\x1b", "m\\x0d"
	assert rows == [(w, m, "base", "5"), (w, m, "new", "5")], rows
	EOF
	run sp compare base new --workload 'w\x1b'
	[ "$status" -eq 0 ]
	[[ "$output" == *worse* ]] || { echo "$output"; false; }
	# and as stored, as before
	sp compare base new --workload $'w\e' --metric $'m\r' --format json >"$TMP/w.json"
	[ "$(json '[r["workload"] for r in d["rows"]]' "$TMP/w.json")" = "['w\\x1b']" ]
	# a name neither is still refused
	run sp compare base new --workload 'w\x1c'
	[ "$status" -eq 2 ]
	assert_one_line_error
}
