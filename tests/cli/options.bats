#!/usr/bin/env bats
# The option tables: --help is made from them, and the man page agrees.

load helpers

@test "options: every command's --help and doc/schedperf.1 name the same options" {
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" \
		"$BATS_TEST_DIRNAME/../../doc/schedperf.1"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "options: an option or a format name the man page lacks, or one it names that no --help lists, is found" {
	local man="$BATS_TEST_DIRNAME/../../doc/schedperf.1"
	sed 's/only\\-changed/only\\-changes/g' "$man" > "$TMP/renamed.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/renamed.1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"compare: --only-changed is in --help but not in its man page entry"* ]]
	[[ "$output" == *"compare: --only-changes is in its man page entry but not in --help"* ]]
	[[ "$output" == *"the man page names --only-changes, which no --help lists"* ]]
	[ "${#lines[@]}" -eq 3 ] || { echo "$output"; false; }
	# ab's usage line lists no format: its error names them
	sed 's/(\\-\\-format text, the default) //' "$man" > "$TMP/no-text.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/no-text.1"
	[ "$status" -eq 1 ]
	[ "$output" = "ab: --format text is in --help but not in its man page entry" ]
	# another command's option, after its name in bold, is held to that command's --help
	sed 's/submit \\-\\-kernel\\fR would/submit \\-\\-kernels\\fR would/' "$man" > "$TMP/other.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/other.1"
	[ "$status" -eq 1 ]
	[[ "$output" == *"worker: its man page entry names submit --kernels, which is not in submit --help"* ]]
	[ "${#lines[@]}" -eq 2 ] || { echo "$output"; false; }
}

@test "options: run --resume's entry names what run --help says --resume keeps, and no other" {
	local man="$BATS_TEST_DIRNAME/../../doc/schedperf.1"
	sed 's/\\fB\\-\\-cpus\\fR and //' "$man" > "$TMP/no-cpus.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/no-cpus.1"
	[ "$status" -eq 1 ]
	[ "$output" = "run --resume: its man page entry does not name --cpus, which run --help says --resume keeps" ]
	# -i stands for --iterations
	sed "s/run's \\\\fB\\\\-i\\\\fR,/run's/" "$man" > "$TMP/no-i.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/no-i.1"
	[ "$status" -eq 1 ]
	[ "$output" = "run --resume: its man page entry does not name --iterations, which run --help says --resume keeps" ]
	sed 's/(their order),/(their order), \\fB\\-\\-replace\\fR,/' "$man" > "$TMP/replace.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/replace.1"
	[ "$status" -eq 1 ]
	[ "$output" = "run --resume: its man page entry names --replace as kept, which run --help does not say --resume keeps" ]
	sed 's/^The plan keeps/It keeps/' "$man" > "$TMP/unsaid.1"
	run "$PYTHON" "$BATS_TEST_DIRNAME/man_options.py" "$SP" "$TMP/unsaid.1"
	[ "$status" -eq 1 ]
	[[ "$output" == "run --resume: its man page entry has no sentence 'The plan keeps ...'"* ]]
}

@test "options: the common options are accepted by every command" {
	for cmd in list runs env; do
		run sp "$cmd" --db "$TMP/none.db" --help
		[ "$status" -eq 0 ]
		[[ "$output" == *"--db FILE"* ]]
		[[ "$output" == *"-q, --quiet"* ]]
	done
	run sp list -q pipe
	[ "$status" -eq 0 ]
	[[ "$output" == pipe* ]]
}

@test "options: an integer option out of range names the option and its range" {
	run sp run pipe -i 0
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"--iterations '0' is not a whole number in 1..1000000"* ]]
	run sp run pipe --iterations
	[ "$status" -eq 2 ]
	[[ "$output" == *"option '--iterations' is unknown or lacks its value"* ]]
}

commands() {	# the commands schedperf help lists, one a line
	sp help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'
}

@test "options: help lines fit 80 columns and each option is listed once" {
	cmds=$(commands)
	[ "$(echo "$cmds" | wc -w)" -ge 9 ]
	for cmd in $cmds; do
		run sp "$cmd" --help
		[ "$status" -eq 0 ]
		refute awk 'length($0) > 79 { print; bad = 1 } END { exit !bad }' <<<"$output"
		dups=$(printf '%s\n' "$output" | grep -oE '^  (-[a-zA-Z], |    )--[a-z-]+' | sort | uniq -d)
		[ -z "$dups" ]
	done
}

# helps: a directory of every command's --help, one file each, made once
# for the whole file (the commands' options do not change between tests).
helps() {
	local dir=$BATS_FILE_TMPDIR/help cmd

	if [ ! -e "$dir/.done" ]; then
		mkdir -p "$dir"
		for cmd in $(commands); do
			sp "$cmd" --help >"$dir/$cmd"
		done
		touch "$dir/.done"
	fi
	echo "$dir"
}

# refused_by_all OPT VALUE WANT: every command whose --help lists --OPT
# refuses --OPT VALUE in one line that starts "schedperf: CMD: --OPT WANT",
# and at least two commands take it.
refused_by_all() {
	local opt=$1 value=$2 want=$3 cmd seen=0 dir

	dir=$(helps)
	for cmd in $(ls "$dir"); do
		grep -q "^  *--$opt " "$dir/$cmd" || continue
		seen=$((seen + 1))
		run sp "$cmd" "--$opt" "$value"
		# bisect-step's errors are 255, which git bisect run takes as "stop"
		[ "$status" -eq 2 ] || [ "$status" -eq 255 ] || { echo "$cmd: $status"; return 1; }
		assert_one_line_error
		[[ "$output" == "schedperf: $cmd: --$opt $want"* ]] ||
			{ echo "$cmd: $output"; return 1; }
	done
	[ "$seen" -ge 2 ] || { echo "--$opt: $seen commands"; return 1; }
}

@test "options: --alpha, --margin and --seed are checked alike by every command that takes them" {
	local opt value want
	while read -r opt value want; do
		refused_by_all "$opt" "$value" "'$value': give $want"
	done <<-'EOF2'
	alpha 0.5 a number between 0 and 0.5
	alpha 0 a number between 0 and 0.5
	margin 100 a percent between 0 and 100
	margin 0 a percent between 0 and 100
	seed -1 a whole number from 0 to
	seed 9223372036854775808 a whole number from 0 to
	EOF2
}

@test "options: --timeout is checked alike by every command that takes it, its cap stated" {
	local value
	for value in 0 -1 nan 604800.5 999999 1e6 1e308; do
		refused_by_all timeout "$value" \
			"'$value': give a number of seconds above 0 and at most 604800 (7 days)"
	done
	run sp run pipe --timeout 604800 --dry-run
	[ "$status" -eq 0 ]
}

@test "options: a value not UTF-8 or holding control characters is shown escaped, never raw" {
	bad=$'\xff\x1b[31m'
	for args in "ab pipe --format" "compare a b --style" "compare a b --format" \
		"ab pipe --seed" "ab pipe --alpha" "ab pipe --max-samples" "ab pipe --timeout" \
		"run pipe --dry-run --cpus"; do
		run sp $args "$bad"
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"'\xff\x1b[31m'"* ]] || { echo "$args: $output"; false; }
		# no raw escape or byte 0xff reaches the terminal
		LC_ALL=C refute grep -q $'[\x1b\xff]' <<<"$output"
	done
	run sp ab pipe $'--\xff'
	[ "$status" -eq 2 ]
	[[ "$output" == *"option '--\xff' is unknown"* ]]
	# a long one is cut with "...", not in the middle of a character
	run sp ab pipe --format "$(printf 'é%.0s' {1..40})"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == *"'éééééééééééééééééé...'"* ]]
}

@test "options: schedperf's own options before the command come from the common table" {
	run sp --db
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: option '--db' needs a value (give --db FILE)" ]
	run sp --bogus list
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: unknown option '--bogus' (see 'schedperf --help')" ]
	run sp --quiet=yes list
	[ "$status" -eq 2 ]
	run sp --db "$TMP/x.db" -q list pipe
	[ "$status" -eq 0 ]
	[[ "$output" == pipe* ]]
	run sp --db="$TMP/y.db" runs
	[ "$status" -eq 2 ]
	[[ "$output" == *"$TMP/y.db"* ]]
	run sp --version
	[[ "$output" == "schedperf "* ]]
	# the lines of schedperf --help are the tables' own
	run sp --help
	[[ "$output" == *"--db FILE "*"results store: an SQLite file"* ]]
	[[ "$output" == *"-q, --quiet "*"no progress line and no summary"* ]]
	[[ "$output" == *"--version "*"print the version and exit"* ]]
}

@test "options: a name's limit is counted and said in bytes" {
	run sp ab pipe --a nice:0 --b nice:1 --name "$(printf 'é%.0s' {1..100})"
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$output" == "schedperf: ab: run name must have 1 to 198 bytes, a character beyond ASCII taking 2 to 4 in UTF-8 (see 'schedperf ab --help')" ]]
	run sp ab pipe --a nice:0 --b nice:1 --dry-run --name "$(printf 'é%.0s' {1..99})"
	[ "$status" -eq 0 ]
	run sp run pipe -i 1 --name "$(printf 'é%.0s' {1..101})"
	[[ "$output" == "schedperf: run: run name must have 1 to 200 bytes"* ]]
	[ ! -e "$SCHEDPERF_DB" ]
}

@test "options: a run name blank, or blank at an end, is refused; a stored one is still read" {
	local nbsp=$'\xc2\xa0' ideo=$'\xe3\x80\x80' zwsp=$'\xe2\x80\x8b' name

	local filler=$'\xe3\x85\xa4' braille=$'\xe2\xa0\x80' shy=$'\xc2\xad'
	for name in " " "  " "$nbsp" "$zwsp" "a " " a" "a$ideo" "${zwsp}a" "a$nbsp" \
		"${filler}a" "a$braille" "a$shy"; do
		run sp run pipe -p loops=10 -i 1 --name "$name"
		[ "$status" -eq 2 ] || { echo "'$name': $status $output"; return 1; }
		assert_one_line_error
		[[ "$output" == "schedperf: run: run name '"* ]]
	done
	# an invisible blank is shown escaped, so the name does not read as 'a'
	run sp run pipe -p loops=10 -i 1 --name $'a\xe2\x81\xa0'
	[ "$output" = "schedperf: run: run name 'a\u2060' begins or ends with a space: it would look like a name without it (give it without the spaces)" ]
	run sp run pipe -p loops=10 -i 1 --name "$nbsp"
	[ "$output" = "schedperf: run: run name '\u00a0' is blank: it would show as no name at all (give a name with a visible character)" ]
	[ ! -e "$SCHEDPERF_DB" ]
	run sp run pipe -p loops=10 -i 1 --name " "
	[ "$output" = "schedperf: run: run name ' ' is blank: it would show as no name at all (give a name with a visible character)" ]
	run sp run pipe -p loops=10 -i 1 --name "a "
	[ "$output" = "schedperf: run: run name 'a ' begins or ends with a space: it would look like a name without it (give it without the spaces)" ]
	# every command that names runs it stores
	run sp ab pipe --a nice:0 --b nice:1 --dry-run --name " a"
	[ "$status" -eq 2 ]
	[[ "$output" == "schedperf: ab: run name ' a' begins or ends with a space"* ]]
	run sp bisect-step pipe --good g --dry-run --name "b "
	[ "$status" -eq 255 ]	# its errors stop git bisect run
	[[ "$output" == "schedperf: bisect-step: run name 'b ' begins or ends with a space"* ]]
	run sp bisect pipe --name " " --good g --bad b
	[ "$status" -eq 2 ]
	[[ "$output" == "schedperf: bisect: run name ' ' is blank"* ]]
	# a blank inside a name is a name
	sp run pipe -p loops=10 -i 1 --name "a b" -q
	# a store that holds such a name from before (an import) is read as it is
	import_named_at "pad " 2026-01-01T00:00:00Z
	sp runs | grep -q "^pad  "
	run sp show "pad "
	[ "$status" -eq 0 ]
	[[ "$output" == "run pad , batch "* ]]
	sp compare "pad " "a b" >/dev/null
	# and moves to another store by export and import unchanged
	sp export "pad " >"$TMP/pad.json"
	SCHEDPERF_DB="$TMP/other.db" sp import "$TMP/pad.json" >/dev/null
	SCHEDPERF_DB="$TMP/other.db" sp export "pad " | cmp - "$TMP/pad.json"
}

@test "options: a usage error has one (how to fix) part: its own, or else --help" {
	run sp export
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: export: give the name of at least one run (see 'schedperf runs')" ]
	run sp cancel
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: cancel: give the id of a job (see 'schedperf jobs')" ]
	run sp show
	[ "$output" = "schedperf: show: give the name of a run (see 'schedperf runs')" ]
	run sp ab
	[ "$output" = "schedperf: ab: no workload given: name one (see 'schedperf list')" ]
	run sp import - -
	[ "$output" = "schedperf: import: standard input (-) is given twice: it can be read once (give - once)" ]
	run sp run pipe -i 1 --profile-frequency 99 --dry-run
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: run: --profile-frequency: no profile is taken (add --monitors profile or profile-system, or --profile-iterations N)" ]
	# one without a fix of its own points at --help
	run sp runs x
	[ "$output" = "schedperf: runs: unexpected argument 'x' (see 'schedperf runs --help')" ]
}

@test "options: a --db path too long for the system is bad input, said in one short line" {
	for db in "$(printf 'x%.0s' {1..5000})" "$TMP/$(printf 'x%.0s' {1..300})"; do
		for cmd in "runs" "run pipe -p loops=10 -i 1"; do
			run sp --db "$db" $cmd
			[ "$status" -eq 2 ] || { echo "$status $output"; false; }
			assert_one_line_error
			[[ "$output" == *"...' as a store: the path, or a name in it, is too long (give a shorter --db)" ]]
			[ "${#output}" -lt 200 ]
		done
	done
}

@test "options: an empty --workload, --metric or --machine is refused by every command that takes them" {
	local value
	for value in '' pipe, ,pipe pipe,,hackbench; do
		refused_by_all workload "$value" "'$value': an empty workload name chooses nothing"
	done
	refused_by_all metric '' ""
	refused_by_all machine '' "pattern must have 1 to 255 bytes"
}

@test "options: --top without --profile is refused by show and compare, not ignored" {
	local cmd
	for cmd in "show a" "compare a b"; do
		run sp $cmd --top 3
		[ "$status" -eq 2 ]
		assert_one_line_error
		[[ "$output" == *"--top counts the symbols of --profile, which was not given"* ]]
	done
}

@test "options: every built-in suite, as --suite's error lists them, is in both man pages" {
	local doc="$BATS_TEST_DIRNAME/../../doc" names name
	run sp run --suite no-such-suite
	[ "$status" -eq 2 ]
	names=$(sed -n 's/.*not a built-in suite (\([^)]*\)).*/\1/p' <<<"$output" | tr -d ,)
	[ "$(wc -w <<<"$names")" -ge 10 ] || { echo "$output"; false; }
	for name in $names; do
		grep -qx ".B $name" "$doc/schedperf-suite.5" || { echo "schedperf-suite.5: $name"; false; }
		sed -n '/^\.B run \\-\\-suite/,/^\.TP/p' "$doc/schedperf.1" | grep -qw "$name" ||
			{ echo "schedperf.1, run --suite: $name"; false; }
	done
}

# A line that begins with a quote or a dot is a request to troff: text put
# there by mistake vanishes from the page, with only a warning to say so.
@test "options: the man pages render with no troff warning, and a stray request is caught" {
	local doc="$BATS_TEST_DIRNAME/../../doc" page
	for page in "$doc/schedperf.1" "$doc/schedperf-suite.5"; do
		run groff -ww -man -z "$page"
		echo "$page: $output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
	done
	printf '.TH T 1\n.SH NAME\nwhat\n'\''uname \\-r'\'' says\n' > "$TMP/stray.1"
	run groff -ww -man -z "$TMP/stray.1"
	[[ "$output" == *"macro 'uname' not defined"* ]]
}
