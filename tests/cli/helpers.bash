# Shared set-up for the command-line tests: a fresh store per test.
setup() {
	TMP=$(mktemp -d)
	export SCHEDPERF_DB="$TMP/store.db"
	SP="$SCHEDPERF"
}

teardown() {
	rm -rf "$TMP"
}

# Run schedperf; bats' `run` captures status and output.
sp() {
	"$SP" "$@"
}

# An error is one line on stderr in DESIGN §7's form.
assert_one_line_error() {
	[ "${#lines[@]}" -eq 1 ] || { echo "expected one line, got: $output"; return 1; }
	[[ "${lines[0]}" == schedperf:* ]] || { echo "no prefix: $output"; return 1; }
}

json() {	# json EXPR FILE: evaluate a Python expression on the parsed JSON in FILE as d
	python3 -c "import json,sys; d=json.load(open(sys.argv[2])); print($1)" "$1" "$2"
}
