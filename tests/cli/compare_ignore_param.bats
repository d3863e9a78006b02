#!/usr/bin/env bats
# compare --ignore-param: the runs of an ab whose sides differ in a
# parameter (param:, cmd:) are paired row by row, the parameter shown as a
# difference; a misspelt name, or two benchmarks of one run made one row,
# is refused. On imported data, and on a tiny real ab for its hint.

load helpers

# ab_results FILE: runs pm-a (mode=process) and pm-b (mode=thread) of pipe,
# as an ab's param:mode sides store them, and sw, a sweep over both modes;
# 8 samples each, pm-b's 20 % slower.
ab_results() {
	"$PYTHON" - > "$1" <<'PY'
import json, random
rng = random.Random(7)
def bench(mode, mean):
    return {"workload": "pipe", "params": {"cpus": "same", "loops": "1000", "mode": mode},
            "metrics": [{"name": "usec_per_op", "unit": "usec", "better": "lower",
                         "samples": [rng.gauss(mean, mean * 0.01) for _ in range(8)]}]}
def run(name, benches):
    return {"name": name, "started": "2026-01-01T00:00:00Z", "complete": True,
            "environment": {"kernel.release": "6.18"}, "benchmarks": benches}
print(json.dumps({"schema": "schedperf-results/1", "runs": [
    run("pm-a", [bench("process", 10)]), run("pm-b", [bench("thread", 12)]),
    run("sw", [bench("process", 10), bench("thread", 12)])]}))
PY
}

@test "compare --ignore-param: an ab's param: sides are one row, the parameter a difference" {
	ab_results "$TMP/r.json"
	sp import "$TMP/r.json"
	run sp compare pm-a pm-b --ignore-param mode
	[ "$status" -eq 0 ]
	[[ "$output" == *"param.mode: pm-a=process, pm-b=thread"* ]]
	[[ "$output" != *"no samples"* ]]
	[[ "$output" == *"Amean     cpus=same,loops=1000"* ]]
	[[ "$output" == *"pm-b worse"* ]]
	# every style and format pairs them alike
	for style in $(choices compare style); do
		run sp compare pm-a pm-b --ignore-param mode --style "$style"
		[ "$status" -eq 0 ]
		[[ "$output" != *"no samples"* ]]
	done
	sp compare pm-a pm-b --ignore-param mode --format json > "$TMP/c.json"
	[ "$(json 'len(d["rows"])' "$TMP/c.json")" -eq 1 ]
	[ "$(json 'd["rows"][0]["params"]' "$TMP/c.json")" = "{'cpus': 'same', 'loops': '1000'}" ]
	[ "$(json '[e["values"] for e in d["environment_differences"] if e["key"] == "param.mode"][0]' \
		"$TMP/c.json")" = "{'pm-a': 'process', 'pm-b': 'thread'}" ]
	run sp compare pm-a pm-b --ignore-param mode --format markdown
	[[ "$output" == *"| pipe cpus=same loops=1000 | usec_per_op"*"worse"* ]]
	# a comma list and the option repeated are one list
	run sp compare pm-a pm-b --ignore-param mode,loops
	[ "$status" -eq 0 ]
	[[ "$output" == *"Amean     cpus=same "* ]]
	run sp compare pm-a pm-b --ignore-param mode --ignore-param loops
	[ "$status" -eq 0 ]
	# and report's page pairs them the same way
	sp report pm-a pm-b --ignore-param mode -o "$TMP/r.html"
	grep -q 'param.mode' "$TMP/r.html"
	! grep -q 'no samples' "$TMP/r.html"
}

@test "compare --ignore-param: a name no benchmark has, or an empty one, is one line, exit 2" {
	ab_results "$TMP/r.json"
	sp import "$TMP/r.json"
	for bad in mdoe "" , mode,,loops; do
		run sp compare pm-a pm-b --ignore-param "$bad"
		[ "$status" -eq 2 ]
		assert_one_line_error
	done
	run sp compare pm-a pm-b --ignore-param mode,mdoe
	[[ "$output" == *"--ignore-param 'mdoe' is a parameter of none of the runs' benchmarks"* ]]
	run sp report pm-a pm-b --ignore-param mdoe -o "$TMP/r.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ ! -e "$TMP/r.html" ]
	run sp compare pm-a pm-b --ignore-param mode --profile
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "compare --ignore-param: two benchmarks of one run made one row are refused, never pooled" {
	ab_results "$TMP/r.json"
	sp import "$TMP/r.json"
	run sp compare sw pm-b --ignore-param mode
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"would pool two benchmarks of run 'sw' in one row"*"mode=process"* ]]
	[[ "$output" == *"mode=thread"* ]]
	run sp compare pm-a sw --ignore-param mode --format json
	[ "$status" -eq 2 ]
	run sp report sw pm-b --ignore-param mode -o "$TMP/r.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	# without the option the sweep's rows stay apart, as before
	run sp compare sw pm-b
	[ "$status" -eq 0 ]
}

@test "compare without --ignore-param: an ab's param: sides stay two rows, as before" {
	ab_results "$TMP/r.json"
	sp import "$TMP/r.json"
	run sp compare pm-a pm-b --format markdown
	[ "$status" -eq 0 ]
	[[ "$output" == *"| pipe cpus=same loops=1000 mode=process |"* ]]
	[[ "$output" == *"| pipe cpus=same loops=1000 mode=thread |"* ]]
	[[ "$output" != *"param.mode"* ]]
}

# hint NAME: the compare command ab's verdict names for its runs NAME-a, NAME-b
hint() {
	sed -n "s/^runs: $1-a and $1-b (schedperf \(compare .*\))\$/\1/p" "$TMP/out"
}

@test "ab: the compare its verdict names pairs its sides, param: and cmd: ones too" {
	# ./schedperf.db, which the hint does not name (another store it does: ab.bats)
	cd "$TMP"
	export SCHEDPERF_DB=
	sp ab pipe -p loops=100 --a param:mode=process --b param:mode=thread --name pm \
		--max-samples 7 > "$TMP/out"
	[ "$(hint pm)" = "compare pm-a pm-b --ignore-param mode" ]
	run sp $(hint pm)
	[ "$status" -eq 0 ]
	[[ "$output" == *"param.mode: pm-a=process, pm-b=thread"* ]]
	[[ "$output" != *"no samples"* ]]
	sp ab command --a 'cmd:/bin/true' --b 'cmd:/bin/true x' --name build \
		--max-samples 7 > "$TMP/out"
	[ "$(hint build)" = "compare build-a build-b --ignore-param cmd" ]
	run sp $(hint build)
	[ "$status" -eq 0 ]
	[[ "$output" == *"param.cmd: build-a=/bin/true, build-b=/bin/true x"* ]]
	[[ "$output" != *"no samples"* ]]
	# sides that change no parameter need nothing more
	sp ab pipe -p loops=100 --a env:AB=a --b env:AB=b --name aa --max-samples 7 > "$TMP/out"
	[ "$(hint aa)" = "compare aa-a aa-b" ]
	run sp $(hint aa)
	[ "$status" -eq 0 ]
	[[ "$output" != *"no samples"* ]]
}

@test "compare --ignore-param: the refusal shows a stored workload's control character escaped" {
	ab_results "$TMP/r.json"
	sp import "$TMP/r.json"
	# a store another program wrote
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET workload = 'pi' || char(27) || 'pe'"
	run sp compare sw pm-b --ignore-param mode
	[ "$status" -eq 2 ]
	assert_one_line_error
	# as show and compare's tables print it, not error's '?'
	[[ "$output" == *'row, pi\x1bpe cpus='*'mode=process and pi\x1bpe cpus='*'mode=thread'* ]] || { echo "$output"; false; }
}

@test "compare, report --ignore-param: the refusal shows a stored parameter's key and value escaped" {
	ab_results "$TMP/r.json"
	sp import "$TMP/r.json"
	# a store another program wrote: an escape, a BEL, U+202E and a C1 control
	sqlite3 "$SCHEDPERF_DB" "UPDATE benchmarks SET params = json_set(params,
		'\$.\"k' || char(27) || ']0;x' || char(7) || '\"',
		'v' || char(27) || '[31m' || char(8238) || char(133))"
	for cmd in compare "report -o $TMP/r.txt"; do
		run sp $cmd sw pm-b --ignore-param mode
		[ "$status" -eq 2 ] || { echo "$cmd: $output"; false; }
		assert_one_line_error
		# as show and the tables print them, nothing raw reaching the terminal
		[[ "$output" == *'mode=process k\x1b]0;x\x07=v\x1b[31m\u202e\u0085 and '*$(
			)'mode=thread k\x1b]0;x\x07=v\x1b[31m\u202e\u0085 (it pairs'* ]] ||
			{ echo "$cmd: $output"; false; }
		refute env LC_ALL=C grep -qP '[\x00-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80\xae' <<<"$output"
	done
}
