#!/usr/bin/env bats
# Edge values through every command and output: zeros, samples near the
# largest and the smallest doubles, numbers no sample can hold, and names
# given twice. Each output is read back: JSON strictly (no NaN, no
# Infinity), CSV with its columns, text without a "nan".

load helpers

# runs RUN=V1,V2,... (lower is better) imported a day apart
import_runs() {
	"$PYTHON" - "$TMP/runs.json" "$@" <<-'EOF'
	import json, sys
	runs = []
	for day, spec in enumerate(sys.argv[2:], 1):
	    name, values = spec.split('=')
	    runs.append({"name": name, "started": "2026-01-%02dT00:00:00Z" % day,
	                 "complete": True, "environment": {},
	                 "benchmarks": [{"workload": "w", "params": {"k": "v"},
	                                 "metrics": [{"name": "m", "unit": "s", "better": "lower",
	                                              "samples": [float(v) for v in values.split(',')]}]}]})
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/runs.json" >/dev/null
}

# a series of 20 runs, a clean step at run 10: SCALE * (1 -> 2), a little noise
step_series() {
	local args=() i
	for i in $(seq 0 19); do
		args+=("r$(printf %02d $i)=$("$PYTHON" -c "s=$1; b=(1 if $i < 10 else 2)+0.01*($i%3); print(f'{s*b!r},{s*b*1.001!r}')")")
	done
	import_runs "${args[@]}"
}

strict_json() {	# strict_json FILE: parses, and holds no NaN or Infinity
	"$PYTHON" -c 'import json, sys
def bad(c): raise ValueError(c)
json.load(open(sys.argv[1]), parse_constant=bad)' "$1"
}

same_columns() {	# same_columns FILE: every CSV record has the header's columns
	"$PYTHON" -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(len({len(r) for r in rows}) != 1)' "$1"
}

@test "detect: a lower-is-better mean rising from 0 to 1 is a regression, without a percent" {
	local args=() i
	for i in $(seq 0 19); do args+=("r$(printf %02d $i)=$([ $i -lt 10 ] && echo 0,0 || echo 1,1)"); done
	import_runs "${args[@]}"
	run sp detect --fail-on-regression
	[ "$status" -eq 1 ]
	[[ "$output" == *"at r10 (point 10): 0 +- 0 -> 1 +- 0, no percent (from 0), regression"* ]]
	[[ "$output" != *nan* ]]
	sp detect --format json >"$TMP/d.json"
	strict_json "$TMP/d.json"
	[ "$(json '[(c["run"], c["kind"], c["pct_change"]) for s in d for c in s["change_points"]]' "$TMP/d.json")" = "[('r10', 'regression', None)]" ]
}

@test "detect finds a clean step at every scale from 1e-300 to 1e307" {
	for scale in 1e-300 1e-100 1 1e100 1e200 1e300 1e307; do
		rm -f "$SCHEDPERF_DB"
		step_series $scale
		sp detect --format json >"$TMP/d.json"
		strict_json "$TMP/d.json"
		[ "$(json '[(c["index"], c["kind"]) for s in d for c in s["change_points"]]' "$TMP/d.json")" = "[(10, 'regression')]" ] ||
			{ echo "scale $scale: $(cat "$TMP/d.json")"; return 1; }
		json '[c["pct_change"] for s in d for c in s["change_points"]][0]' "$TMP/d.json" | grep -q '^-99\.'
	done
}

@test "a change near 1e+302 % is printed as compare prints it, not in its 303 digits" {
	local args=() i
	for i in $(seq 0 11); do
		args+=("r$(printf %02d $i)=$([ $i -lt 6 ] && echo 1,1.01,1.02 || echo 1e300,1.01e300,1.02e300)")
	done
	import_runs "${args[@]}"
	sp detect >"$TMP/d.txt"
	local huge='-[0-9.]\{1,18\}e+30[12] %'
	local at="^  at r06 (point 6): 1.01 +- 0 -> 1.01e+300 +- 0, $huge, regression"
	grep -q "$at" "$TMP/d.txt" ||
		{ cat "$TMP/d.txt"; return 1; }
	# JSON keeps the number whole
	sp detect --format json >"$TMP/d.json"
	local first='[c["pct_change"] for s in d for c in s["change_points"]][0]'
	[ "$(json "$first < -9e301" "$TMP/d.json")" = True ]
	sp compare r00 r11 --format markdown >"$TMP/c.md" 2>/dev/null
	grep -q ' | -[0-9.]\{1,18\}e+30[12]% | ' "$TMP/c.md" || { cat "$TMP/c.md"; return 1; }
	sp compare r00 r11 --style lkp --format markdown >"$TMP/c.md" 2>/dev/null
	grep -q ' | +[0-9.]\{1,18\}e+30[12]% | ' "$TMP/c.md" || { cat "$TMP/c.md"; return 1; }
	sp report r00 r11 -o "$TMP/r.html"
	grep -q '>-[0-9.]\{1,18\}e+30[12] %<' "$TMP/r.html" ||
		{ grep -o '.\{40\}1e+302.\{20\}' "$TMP/r.html"; return 1; }
	# no line of any of them holds a run of 20 digits
	refute grep -q '[0-9]\{20\}' "$TMP/d.txt" "$TMP/c.md" "$TMP/r.html"
}

@test "compare's MMTests tables stay aligned for values near -+1.8e308" {
	import_runs pos=1.7e308,1.75e308,1.79e308 neg=-1.7e308,-1.75e308,-1.79e308 one=1,2,3
	for pair in "pos neg" "neg pos" "one neg"; do
		for style in mmtests mmtests-classic; do
			sp compare $pair --style $style 2>/dev/null >"$TMP/out"
			# the table's lines, after its title: one width, a space before each value
			grep -v '^schedperf:' "$TMP/out" | tail -n +2 | awk '{ print length($0) }' |
				sort -u >"$TMP/widths"
			[ "$(wc -l <"$TMP/widths")" -eq 1 ] || { cat "$TMP/out"; return 1; }
			refute grep -q '^[A-Z][A-Za-z0-9.-]* *k=v[^ ]' "$TMP/out"
		done
	done
}

@test "every output of compare, history, detect, show, runs and report reads back at the edges" {
	import_runs zero=0,0,0,0 one=1,1.1,0.9,1 big=1e300,1.1e300,0.9e300,1e300 \
		top=1.5e308,1.6e308,1.7e308,1.55e308 tiny=1e-300,1.1e-300,0.9e-300,1e-300 \
		sub=5e-324,1e-323,5e-324,1.5e-323 neg=-1,-2,-1.5,-1
	local pairs=("zero one" "one zero" "one big" "big top" "one top" "one tiny" "tiny sub"
		     "one neg" "zero top")
	for pair in "${pairs[@]}"; do
		for style in $(choices compare style); do
			sp compare $pair --style $style >"$TMP/out" 2>/dev/null
			refute grep -qiw 'nan' "$TMP/out"
		done
		sp compare $pair --format json >"$TMP/c.json" 2>/dev/null
		strict_json "$TMP/c.json"
		sp compare $pair --format csv >"$TMP/c.csv" 2>/dev/null
		same_columns "$TMP/c.csv"
		refute grep -qiw 'nan\|inf' "$TMP/c.csv"
		sp compare $pair --format markdown >"$TMP/c.md" 2>/dev/null
		refute grep -qiw 'nan\|inf' "$TMP/c.md"
	done
	# what LKP's own arithmetic overflows on is computed as src/stats does
	run sp compare big top --style lkp
	[[ "$output" == *"1e+300 ±  7%  +1.6e+10% 1.587e+308 ±  4%"* ]]
	sp history --format json >"$TMP/h.json"
	strict_json "$TMP/h.json"
	sp history --format csv >"$TMP/h.csv"
	same_columns "$TMP/h.csv"
	sp history >"$TMP/h.txt"
	refute grep -qiw 'nan\|inf' "$TMP/h.txt"
	sp detect --format json >"$TMP/d.json"
	strict_json "$TMP/d.json"
	sp runs --format json >"$TMP/r.json"
	strict_json "$TMP/r.json"
	for r in zero top sub; do
		sp show $r --samples >"$TMP/s.txt"
		refute grep -qiw 'nan\|inf' "$TMP/s.txt"
	done
	# gnuplot cannot draw beyond some 9e307: such charts are in units of 1eK
	sp report zero one big top tiny sub neg --history -o "$TMP/r.html"
	grep -q 'm (s) / 1e308' "$TMP/r.html"
	sp report sub -o "$TMP/sub.html"
	grep -q 'm (s) / 1e-323' "$TMP/sub.html"
	# and every value goes out and back unchanged
	sp export zero top tiny sub -o "$TMP/e.json"
	SCHEDPERF_DB="$TMP/again.db" sp import "$TMP/e.json"
	SCHEDPERF_DB="$TMP/again.db" sp export zero top tiny sub | cmp - "$TMP/e.json"
}

@test "a spread beyond the largest double is '-' in text, null in JSON, empty in CSV" {
	# finite samples whose standard deviation (1.96e308) no double holds
	import_runs wide=1.7e308,-1.7e308,1.7e308 one=1,2,3
	sp show wide >"$TMP/s.txt"
	refute grep -qiw 'nan\|inf' "$TMP/s.txt"
	grep -q 'CoeffVar      -  n=3' "$TMP/s.txt"
	sp compare one wide --format markdown >"$TMP/c.md" 2>/dev/null
	refute grep -qiw 'nan\|inf' "$TMP/c.md"
	sp compare one wide --format csv >"$TMP/c.csv" 2>/dev/null
	same_columns "$TMP/c.csv"
	refute grep -qiw 'nan\|inf' "$TMP/c.csv"
	sp compare one wide --format json >"$TMP/c.json" 2>/dev/null
	strict_json "$TMP/c.json"
	sp history >"$TMP/h.txt"
	refute grep -qiw 'nan\|inf' "$TMP/h.txt"
	sp history --format json >"$TMP/h.json"
	strict_json "$TMP/h.json"
}

@test "compare --style benchstat: a row whose prefix overflows, and an infinite change, print as Go would" {
	import_runs tiny=$(printf '1e-300,%.0s' $(seq 9))1e-300 huge=$(printf '1.5e307,%.0s' $(seq 9))1.4e307 \
		neg=$(printf -- '-1.5,%.0s' $(seq 9))-1.4
	run sp compare tiny huge neg --style benchstat
	echo "$output"
	# no "infn", no "+inf%", and every percent ends with "%"
	refute grep -q 'infn\|+inf%\|inf n' <<<"$output"
	[[ "$output" == *" 1.5e+307 ± "* ]]
	[[ "$output" == *"+Inf% (p="* ]]
	[[ "$output" == *"e+"*"% (p="* ]]
}

@test "command: a captured inf, nan, 1e999 or 1e-999 fails the iteration with the reason" {
	for v in inf nan 1e999 1e-999; do
		run sp run command -p "cmd=echo v=$v" -p 'metric_regex=v=([^ ]+)' -i 1 \
			--name "c$v" --no-monitors
		# its one iteration failed: nothing was measured
		[ "$status" -eq 1 ]
		[[ "$output" == *"iteration 1 of 1 failed: metric_regex captured '$v', not a finite number"* ]]
	done
	# stored as failures, with their reason, and no sample
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM iterations WHERE failure LIKE '%not a finite number%'")" -eq 4 ]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM samples")" -eq 0 ]
	sp run command -p 'cmd=echo v=1e-300' -p 'metric_regex=v=([^ ]+)' -i 1 --name ok -q --no-monitors
	sp export ok -o "$TMP/ok.json"
	[ "$(json '[m["samples"] for m in d["runs"][0]["benchmarks"][0]["metrics"] if m["name"] == "value"]' "$TMP/ok.json")" = "[[1e-300]]" ]
}

@test "import refuses a symbol twice in a profile, and creates no store" {
	"$PYTHON" - "$TMP/dup.json" <<-'EOF'
	import json, sys
	sym = dict(name='f', dso='x', self=1000, children=1800)
	prof = dict(seq=1, extra=False, event='cpu-clock', scope='tasks', frequency=1000,
	            samples=2, lost=0, total=2000, symbols=[sym, dict(name='g', dso='x', self=1, children=1), dict(sym)])
	json.dump({"schema": "schedperf-results/1", "runs": [{"name": "imp",
	    "started": "2026-01-01T00:00:00Z", "complete": True, "environment": {},
	    "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "t", "unit": "s",
	    "better": "lower", "samples": [1.5, 2]}], "profiles": [prof]}]}]}, open(sys.argv[1], "w"))
	EOF
	run sp import "$TMP/dup.json"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"profiles[0].symbols[2]: symbol 'f' of 'x' comes twice in the profile"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
	# the same symbol name in two DSOs is two symbols
	"$PYTHON" -c 'import json, sys
d = json.load(open(sys.argv[1])); d["runs"][0]["benchmarks"][0]["profiles"][0]["symbols"][2]["dso"] = "y"
json.dump(d, open(sys.argv[1], "w"))' "$TMP/dup.json"
	sp import "$TMP/dup.json"
}

@test "export, report and compare refuse a run named twice, and write nothing" {
	sp run pipe -p loops=100 -i 2 --name a -q --no-monitors
	for cmd in "export a a -o $TMP/out" "report a a -o $TMP/out" "compare a a" "export b a b"; do
		run sp $cmd
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"is named twice"* ]]
		[ ! -e "$TMP/out" ]
	done
}

@test "a run named twice: the first name, in command-line order, that repeats one before it" {
	sp run pipe -p loops=100 -i 2 --name x -q --no-monitors
	sp run pipe -p loops=100 -i 2 --name y -q --no-monitors
	run sp export x y y x
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'y' is named twice"* ]]
	run sp compare x y x y
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'x' is named twice"* ]]
	run sp report z y x z x -o "$TMP/out"
	[ "$status" -eq 2 ]
	[[ "$output" == *"run 'z' is named twice"* ]]
	[ ! -e "$TMP/out" ]
}
