# Shared set-up for the command-line tests: a fresh store per test.

# Debian's python3 (install-deps.sh installs it with SciPy) for JSON checks:
# it starts in about 60 ms where a pyenv shim first on PATH takes 600 ms.
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=python3
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

# An error is one line on stderr in the form of doc/design.md.
assert_one_line_error() {
	[ "${#lines[@]}" -eq 1 ] || { echo "expected one line, got: $output"; return 1; }
	[[ "${lines[0]}" == schedperf:* ]] || { echo "no prefix: $output"; return 1; }
}

json() {	# json EXPR FILE: evaluate a Python expression on the parsed JSON in FILE as d
	"$PYTHON" -c "import json,sys; d=json.load(open(sys.argv[2])); print($1)" "$1" "$2"
}

# iteration_child RUNNER: the process that runs RUNNER's current iteration,
# if there is one: the child of RUNNER that does not lead its process group
# (the guardian, RUNNER's other child, leads it).
iteration_child() {
	local pid stat
	for pid in $(pgrep -P "$1"); do
		read -r stat <"/proc/$pid/stat" 2>/dev/null || continue
		set -- ${stat##*) }
		[ "$3" != "$pid" ] && echo "$pid" && return
	done
	return 0
}
