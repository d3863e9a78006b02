#!/usr/bin/env bats
# report: one self-contained HTML page, rendered by headless Chromium.

load helpers

DATA="$BATS_TEST_DIRNAME/../data"
# Screenshots are kept here for people to look at (build/ is not tracked).
ARTEFACTS="${SCHEDPERF_ARTEFACTS:-$BATS_TEST_DIRNAME/../../build/artefacts}"

sweep_runs() {	# two runs of messaging swept over groups, differing in governor
	cat > "$TMP/sweep.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "base", "started": "2027-02-01T00:00:00Z", "complete": true, "environment": {"cpufreq.governor": "performance"},
  "benchmarks": [
   {"workload": "messaging", "params": {"groups": "1"}, "metrics": [{"name": "seconds", "unit": "s", "better": "lower", "samples": [0.10, 0.11, 0.12, 0.10]}]},
   {"workload": "messaging", "params": {"groups": "2"}, "metrics": [{"name": "seconds", "unit": "s", "better": "lower", "samples": [0.20, 0.21, 0.22, 0.20]}]},
   {"workload": "messaging", "params": {"groups": "4"}, "metrics": [{"name": "seconds", "unit": "s", "better": "lower", "samples": [0.40, 0.41, 0.42, 0.40]}]}]},
 {"name": "new", "started": "2027-02-02T00:00:00Z", "complete": true, "environment": {"cpufreq.governor": "powersave"},
  "benchmarks": [
   {"workload": "messaging", "params": {"groups": "1"}, "metrics": [{"name": "seconds", "unit": "s", "better": "lower", "samples": [0.11, 0.12, 0.13, 0.11]}]},
   {"workload": "messaging", "params": {"groups": "2"}, "metrics": [{"name": "seconds", "unit": "s", "better": "lower", "samples": [0.25, 0.26, 0.27, 0.25]}]},
   {"workload": "messaging", "params": {"groups": "4"}, "metrics": [{"name": "seconds", "unit": "s", "better": "lower", "samples": [0.50, 0.51, 0.52, 0.50]}]}]}]}
JSON
	sp import "$TMP/sweep.json" >/dev/null
}

charts() {	# charts FILE: "KIND:COUNT ..." of the figures in the page
	grep -o 'data-chart="[a-z]*"' "$1" | sort | uniq -c | awk '{ sub(/data-chart=/, "", $2); gsub(/"/, "", $2); printf "%s:%s ", $2, $1 }'
}

# Nothing in the page may make the browser ask for anything: no src, no
# href but in-page anchors and SVG's own, no url() but to an in-page id,
# and a Content-Security-Policy that forbids the rest.
assert_self_contained() {
	grep -q "Content-Security-Policy\" content=\"default-src 'none'" "$1"
	refute grep -Eiq '<script|<link|<img|<iframe|<object|@import|src=' "$1"
	refute grep -Eq "href=[\"'][^\"'#][^\"']*" "$1"
	refute grep -Eq 'url\([^#)][^)]*\)' "$1"
	# the only URLs are XML namespace names, which are never fetched
	[ -z "$(grep -Eo 'https?://[^"'"'"' ]*' "$1" | sort -u | grep -v -x -e 'http://www.w3.org/2000/svg' -e 'http://www.w3.org/1999/xlink')" ]
}

@test "report: a self-contained page with every chart" {
	sweep_runs
	"$PYTHON" "$DATA/make_history.py" "$TMP/history.json" 30
	sp import "$TMP/history.json" >/dev/null
	run sp report base new -o "$TMP/r.html" --history
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	[ "$(charts "$TMP/r.html")" = "distribution:3 history:7 order:3 sweep:1 " ]
	assert_self_contained "$TMP/r.html"
	# compare's verdicts, with the governor caveat, and the change points
	grep -q 'worse (!governor differs)' "$TMP/r.html"
	grep -q 'at 6.21 (point 20)' "$TMP/r.html"
	# axis titles with units, legends with the run names
	grep -q '>seconds (s)<' "$TMP/r.html"
	grep -q '>groups<' "$TMP/r.html"
	# no id twice in the page
	[ -z "$(grep -Eo " id=['\"][^'\"]*" "$TMP/r.html" | sort | uniq -d)" ]
}

@test "report: gnuplot reads each run's samples inline, never a data block a run" {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	# gnuplot finds a named data block by a walk of all its variables: a block
	# of each run made a report of thousands of runs quadratic in the runs
	sweep_runs
	mkdir "$TMP/bin"
	printf '#!/bin/sh\ncp "$1" "%s/charts.gp"\nexec "%s" "$@"\n' "$TMP" \
		"$(command -v gnuplot)" >"$TMP/bin/gnuplot"
	chmod +x "$TMP/bin/gnuplot"
	PATH="$TMP/bin:$PATH" run "$SP" report base new -o "$TMP/r.html"
	[ "$status" -eq 0 ]
	[ "$(charts "$TMP/r.html")" = "distribution:3 order:3 sweep:1 " ]
	refute grep -q '<<' "$TMP/charts.gp"
	# each row's samples of each run, for its box, its points and its order;
	# each run's points of the sweep
	[ "$(grep -c '^e$' "$TMP/charts.gp")" -eq $((3 * 2 * 3 + 2)) ]
	[ "$(grep -c '^[0-9.e+-]* [0-9.e+-]* [1-4]$' "$TMP/charts.gp")" -eq $((3 * 2 * 3 * 4)) ]
}

@test "report: headless Chromium renders it, every chart, no console error" {
	command -v chromium >/dev/null || skip "chromium is not installed (scripts/install-deps.sh installs it)"
	sweep_runs
	sp report base new -o "$TMP/r.html"
	mkdir -p "$ARTEFACTS" "$TMP/profile"
	run timeout 300 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMP/profile" --enable-logging=stderr --v=0 \
		--window-size=1280,2400 --screenshot="$ARTEFACTS/report.png" "file://$TMP/r.html"
	[ "$status" -eq 0 ]
	[ -s "$ARTEFACTS/report.png" ]
	refute grep -q 'CONSOLE' <<< "$output"
	# the DOM Chromium built holds every chart, each an SVG with its axes drawn
	timeout 300 chromium --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMP/profile" --dump-dom "file://$TMP/r.html" > "$TMP/dom.html" 2>/dev/null
	[ "$(grep -o '<figure class="chart"' "$TMP/dom.html" | wc -l)" -eq 7 ]
	[ "$(grep -o '<svg' "$TMP/dom.html" | wc -l)" -eq 7 ]
}

@test "report without gnuplot: text only, a note, exit 0" {
	sweep_runs
	mkdir "$TMP/bin"
	PATH="$TMP/bin" run "$SP" report base new -o "$TMP/r.html"
	[ "$status" -eq 0 ]
	grep -q 'gnuplot was not found' "$TMP/r.html"
	refute grep -q '<svg' "$TMP/r.html"
	grep -q 'worse (!governor differs)' "$TMP/r.html"
	assert_self_contained "$TMP/r.html"
	# a directory of that name is no gnuplot, nor is a PATH of none but the current one
	mkdir "$TMP/bin/gnuplot"
	PATH="$TMP/bin" run "$SP" report base new -o "$TMP/d.html"
	[ "$status" -eq 0 ]
	grep -q 'gnuplot was not found' "$TMP/d.html"
	(cd "$TMP/bin" && PATH= run "$SP" report base new -o "$TMP/e.html" &&
		[ "$status" -eq 0 ] && grep -q 'gnuplot was not found' "$TMP/e.html")
}

@test "report: hostile names are escaped in the page and in gnuplot's input" {
	cat > "$TMP/bad.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "<script>alert(1)</script>", "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {"k<b>": "v'\"&"},
  "benchmarks": [{"workload": "w'; system 'touch PWNED'; '", "params": {"n": "1' ; set output '/tmp/x"},
   "metrics": [{"name": "m\"<i>", "unit": "u'&", "better": "lower", "samples": [1, 2, 3]}]}]},
 {"name": "b' ; system 'touch PWNED2'", "started": "2026-01-02T00:00:00Z", "complete": true, "environment": {"k<b>": "w"},
  "benchmarks": [{"workload": "w'; system 'touch PWNED'; '", "params": {"n": "1' ; set output '/tmp/x"},
   "metrics": [{"name": "m\"<i>", "unit": "u'&", "better": "lower", "samples": [2, 3, 4]}]}]}]}
JSON
	# gnuplot's output, were it let through, goes where no other process writes
	sed -i "s|/tmp/x|$TMP/gnuplot-out|" "$TMP/bad.json"
	sp import "$TMP/bad.json"
	cd "$TMP"
	run sp report '<script>alert(1)</script>' "b' ; system 'touch PWNED2'" -o "$TMP/r.html" --history
	[ "$status" -eq 0 ]
	[ ! -e PWNED ]
	[ ! -e PWNED2 ]
	[ ! -e "$TMP/gnuplot-out" ]
	refute grep -q '<script>' "$TMP/r.html"
	refute grep -q '<b>\|<i>' "$TMP/r.html"
	grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$TMP/r.html"
	[ "$(charts "$TMP/r.html")" = "distribution:1 history:1 order:1 " ]
	assert_self_contained "$TMP/r.html"
}

@test "report: names with quotes first or side by side are drawn as they are" {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	# gnuplot's '' in a single-quoted string is a quote only alone and not first
	import_named_at "'; x" 2026-01-01T00:00:00Z "a''b'" 2026-01-02T00:00:00Z
	run sp report "'; x" "a''b'" -o "$TMP/r.html" --history
	[ "$status" -eq 0 ]
	[ "$(charts "$TMP/r.html")" = "distribution:1 history:1 order:1 " ]
	grep -q "<text>&apos;; x</text>\|<text>'; x</text>" "$TMP/r.html"
	grep -q "<text>a''b'</text>" "$TMP/r.html"
}

@test "report: a '%' in a run's name is drawn as it is, on the tics too" {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	# gnuplot reads a tic's label as a format: a lone '%' was "Bad format character"
	import_named_at base 2026-01-01T00:00:00Z "v6.8-50%" 2026-01-02T00:00:00Z \
		"a%%b%d" 2026-01-03T00:00:00Z
	run sp report base "v6.8-50%" "a%%b%d" -o "$TMP/r.html"
	[ "$status" -eq 0 ]
	[ "$(charts "$TMP/r.html")" = "distribution:1 order:1 " ]
	# the distribution's tic and the order's key
	[ "$(grep -c '<text>v6.8-50%</text>' "$TMP/r.html")" -eq 2 ]
	[ "$(grep -c '<text>a%%b%d</text>' "$TMP/r.html")" -eq 2 ]
	# history's tics name every run of the store
	run sp report base -o "$TMP/h.html" --history
	[ "$status" -eq 0 ]
	[ "$(charts "$TMP/h.html")" = "distribution:1 history:1 order:1 " ]
	grep -q '<text>v6.8-50%</text>' "$TMP/h.html"
	grep -q '<text>a%%b%d</text>' "$TMP/h.html"
}

@test "report: -p chooses the comparison's rows as --workload does; one no row has is refused" {
	sweep_runs
	sp report base new -p groups=2 -o "$TMP/r.html"
	[ "$(charts "$TMP/r.html")" = "distribution:1 order:1 " ]
	run sp report base new -p groups=9 -o "$TMP/none.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"-p 'groups=9'"* ]]
	[ ! -e "$TMP/none.html" ]
}

@test "report: a gnuplot that fails is said so with its last message, and no page" {
	# more script than a pipe holds: once written to gnuplot's standard input
	"$PYTHON" - "$TMP/big.json" <<-'EOF'
	import json, sys
	runs = [{"name": n, "started": "2026-01-0%dT00:00:00Z" % d, "complete": True,
	         "environment": {}, "benchmarks": [{"workload": "pipe", "params": {},
	             "metrics": [{"name": "lo", "unit": "usec", "better": "lower",
	                          "samples": [1.0 + d + k * 1e-4 for k in range(4000)]}]}]}
	        for n, d in (("a", 1), ("b", 2))]
	json.dump({"schema": "schedperf-results/1", "runs": runs}, open(sys.argv[1], "w"))
	EOF
	sp import "$TMP/big.json" >/dev/null
	mkdir "$TMP/bin"
	printf '#!/bin/sh\nexec 0<&-\necho "gnuplot: broken install" >&2\nexit 1\n' \
		>"$TMP/bin/gnuplot"
	chmod +x "$TMP/bin/gnuplot"
	PATH="$TMP/bin:$PATH" run "$SP" report a b -o "$TMP/r.html"
	# the machine's gnuplot failed, not schedperf: an environment error
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"gnuplot failed (exit status 1): gnuplot: broken install (see that the"\
" gnuplot on PATH draws alone"* ]]
	[ ! -e "$TMP/r.html" ]
}

@test "report: a gnuplot that fails without a word is an environment error too" {
	sweep_runs
	mkdir "$TMP/bin" "$TMP/tmp"
	ln -s /bin/false "$TMP/bin/gnuplot"
	PATH="$TMP/bin:$PATH" TMPDIR="$TMP/tmp" run "$SP" report base new -o "$TMP/r.html"
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"gnuplot failed (exit status 1): no message"* ]]
	[ ! -e "$TMP/r.html" ]
	[ -z "$(ls -A "$TMP/tmp")" ]
}

@test "report: charts are drawn whatever TMPDIR's name holds" {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	sweep_runs
	# a newline, which no gnuplot string carries, quotes, a '%' and a space
	local tmp="$TMP/t"$'\n'"m'p\"%d x"
	mkdir "$tmp"
	TMPDIR="$tmp" run "$SP" report base new -o "$TMP/r.html"
	[ "$status" -eq 0 ]
	[ "$(charts "$TMP/r.html")" = "distribution:3 order:3 sweep:1 " ]
	[ -z "$(ls -A "$tmp")" ]
}

@test "report: control characters of names and values are escaped as \\xHH in the page" {
	cat > "$TMP/ctl.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "A", "started": "2026-01-01T00:00:00Z", "complete": true,
  "environment": {"k": "x\u001b]0;pwned\u0007\u001b[2J", "cr": "a\rb\u0001"},
  "benchmarks": [{"workload": "pipe", "params": {"p": "v\u001bx"}, "metrics": [{"name": "m",
   "unit": "ops", "better": "higher", "samples": [1, 2, 3]}]}]},
 {"name": "B", "started": "2026-01-02T00:00:00Z", "complete": true, "environment": {"k": "y"},
  "benchmarks": [{"workload": "pipe", "params": {"p": "v\u001bx"}, "metrics": [{"name": "m",
   "unit": "ops", "better": "higher", "samples": [4, 5, 6]}]}]}]}
JSON
	sp import "$TMP/ctl.json"
	run sp report A B -o "$TMP/r.html"
	[ "$status" -eq 0 ]
	# no C0 control but tab and newline, no DEL: each is a parse error in HTML
	refute grep -qaP '[\x00-\x08\x0b-\x1f\x7f]' "$TMP/r.html"
	grep -qF 'x\x1b]0;pwned\x07\x1b[2J' "$TMP/r.html"
	grep -qF 'a\x0db\x01' "$TMP/r.html"
	grep -qF 'pipe p=v\x1bx' "$TMP/r.html"
	# the text of compare inside the page keeps its lines
	[ "$(grep -c '^schedperf: note: run [AB] has one batch' "$TMP/r.html")" -eq 2 ]
	refute grep -qF '\x0a' "$TMP/r.html"
	run sp report A B -o -
	[ "$status" -eq 0 ]
	[ "$(printf '%s' "$output" | grep -ac $'\x1b')" -eq 0 ]
}

@test "report: a gnuplot that hangs is killed with its process group at the deadline; no page" {
	sweep_runs
	mkdir "$TMP/bin" "$TMP/out" "$TMP/tmp"
	printf '#!/bin/sh\n"%s/bin/sleeper" &\nsleep 600\n' "$TMP" >"$TMP/bin/gnuplot"
	printf '#!/bin/sh\nsleep 600\n' >"$TMP/bin/sleeper"
	chmod +x "$TMP/bin/gnuplot" "$TMP/bin/sleeper"
	# the deadline, 60 s, shortened for the test (HACKING.md); timeout(1) only
	# turns a report that would hang into a failure
	PATH="$TMP/bin:$PATH" TMPDIR="$TMP/tmp" SCHEDPERF_TEST_GNUPLOT_TIMEOUT=1 \
		run timeout 300 "$SP" report base new -o "$TMP/out/r.html"
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == "schedperf: report: gnuplot did not finish within 1 s: it was killed, with its"\
" process group"* ]]
	[ -z "$(ls -A "$TMP/out")" ]
	[ -z "$(ls -A "$TMP/tmp")" ]
	# gnuplot's process group went with it, the child it left behind too
	wait_for no_process_has "$TMP/bin/"
}

# gnuplot_started: the fake gnuplot of the tests below started, and made a sleeper
gnuplot_started() {
	[ -e "$TMP/started" ] && pgrep -f -- "$TMP/bin/sleeper" >/dev/null
}

@test "report: a signal while gnuplot runs ends it; no page and no temporary directory" {
	sweep_runs
	mkdir "$TMP/bin" "$TMP/out" "$TMP/tmp"
	printf '#!/bin/sh\n"%s/bin/sleeper" &\n: >"%s/started"\nsleep 600\n' "$TMP" "$TMP" \
		>"$TMP/bin/gnuplot"
	printf '#!/bin/sh\nsleep 600\n' >"$TMP/bin/sleeper"
	chmod +x "$TMP/bin/gnuplot" "$TMP/bin/sleeper"
	for sig in TERM INT HUP; do
		rm -f "$TMP/started"
		PATH="$TMP/bin:$PATH" TMPDIR="$TMP/tmp" \
			"$SP" report base new -o "$TMP/out/r.html" 2>"$TMP/err" 3>&- &
		pid=$!
		wait_for gnuplot_started
		kill -"$sig" "$pid"
		rc=0
		wait "$pid" || rc=$?
		[ "$rc" -eq $((128 + $(kill -l "$sig"))) ]
		[ "$(cat "$TMP/err")" = "schedperf: report: interrupted by a signal:"\
" '$TMP/out/r.html' was not written" ]
		[ -z "$(ls -A "$TMP/out")" ]
		[ -z "$(ls -A "$TMP/tmp")" ]
		# gnuplot's process group went with it
		wait_for no_process_has "$TMP/bin/"
	done
}

@test "report: what gnuplot left in its process group goes when it ends" {
	sweep_runs
	mkdir "$TMP/bin" "$TMP/tmp"
	printf '#!/bin/sh\n"%s/bin/sleeper" &\nexit 0\n' "$TMP" >"$TMP/bin/gnuplot"
	# it outlives wait_for's limit (300 s): only a kill ends it in time
	printf '#!/bin/sh\nsleep 302\n' >"$TMP/bin/sleeper"
	chmod +x "$TMP/bin/gnuplot" "$TMP/bin/sleeper"
	PATH="$TMP/bin:$PATH" TMPDIR="$TMP/tmp" run "$SP" report base new -o "$TMP/r.html"
	[ "$status" -eq 0 ]
	[ -s "$TMP/r.html" ]
	[ -z "$(ls -A "$TMP/tmp")" ]
	wait_for no_process_has "$TMP/bin/"
}

@test "report: a gnuplot killed by a signal is said so by the signal's name" {
	sweep_runs
	mkdir "$TMP/bin"
	printf '#!/bin/sh\necho "gnuplot: broken" >&2\nkill -SEGV $$\n' >"$TMP/bin/gnuplot"
	chmod +x "$TMP/bin/gnuplot"
	PATH="$TMP/bin:$PATH" run "$SP" report base new -o "$TMP/r.html"
	# a gnuplot that crashes is the machine's: exit 3, as any that fails
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"gnuplot failed (killed by SIGSEGV): gnuplot: broken"* ]]
	[ ! -e "$TMP/r.html" ]
}

@test "report: bad use is one line and exit 2, and no page" {
	sweep_runs
	run sp report base new
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp report -o "$TMP/r.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp report base nosuch -o "$TMP/r.html"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[ ! -e "$TMP/r.html" ]
	run sp report base -o "$TMP/nodir/r.html"
	[ "$status" -ne 0 ]
	assert_one_line_error
}

@test "report: a run whose every iteration failed has a page, its rows without charts" {
	command -v gnuplot >/dev/null || skip "gnuplot missing"
	sp run command -p cmd=false -i 2 --name failed -q || true
	sp run command -p cmd=true -i 2 --name fine -q
	sp report failed -o "$TMP/failed.html"
	grep -q '<html' "$TMP/failed.html"
	refute grep -q '<svg' "$TMP/failed.html"
	sp report failed fine -o "$TMP/both.html"
	grep -q '<svg' "$TMP/both.html"
}
