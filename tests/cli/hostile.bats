#!/usr/bin/env bats
# Bad input for every command: missing, extra and malformed
# arguments, out-of-range and non-numeric values, unknown names, empty and
# huge values, malformed JSON and YAML. Each must end with exit 2 (or 3
# where the machine is at fault), exactly one line on stderr starting
# "schedperf: ", no crash, no hang, and the store exactly as it was.

load helpers

setup_file() {
	export TEMPLATE="$BATS_FILE_TMPDIR/template.db"
	"$SCHEDPERF" --db "$TEMPLATE" run pipe -p loops=100 -i 2 --name a -q
	"$SCHEDPERF" --db "$TEMPLATE" run pipe -p loops=100 -i 2 --name b -q
	# A valid import document to spoil in the import tests.
	cat >"$BATS_FILE_TMPDIR/good.json" <<-'EOF'
	{"schema": "schedperf-results/1", "runs": [{"name": "imp",
	 "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {"k": "v"},
	 "benchmarks": [{"workload": "other-tool", "params": {"a": "1"},
	 "metrics": [{"name": "time", "unit": "s", "better": "lower",
	 "source": "workload", "samples": [1.5, 2, 3]}]}]}]}
	EOF
	# what every test's store holds at first, as store_sum sums it
	export TEMPLATE_SUM=$(sqlite3 "$TEMPLATE" .dump | sha256sum)
}

setup() {
	TMP=$(mktemp -d)
	export SCHEDPERF_DB="$TMP/store.db"
	SP="$SCHEDPERF"
	cp "$TEMPLATE" "$SCHEDPERF_DB"
	STORE_SUM=$TEMPLATE_SUM
	GOOD="$BATS_FILE_TMPDIR/good.json"
}

store_sum() {
	sqlite3 "$SCHEDPERF_DB" .dump | sha256sum
}

# hostile WANT ARGS...: schedperf ARGS must exit WANT (2 or 3) with one
# line "schedperf: ..." on stderr, leaving the store as it was; a command
# still running after 300 s hangs (timeout's 124), however loaded the machine.
# The store before is STORE_SUM, what the last call left (or setup copied):
# nothing else in these tests writes to it, so one sum a call is enough,
# and the checks of stderr are the shell's own (a test makes 180 calls).
hostile() {
	local want=$1 after rc=0 nr err
	shift
	timeout 300 "$SP" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	after=$(store_sum)
	# its lines as wc -l counts them: a last one without a newline is none
	mapfile err <"$TMP/err"
	nr=${#err[@]}
	[ "$nr" -eq 0 ] || [[ "${err[-1]}" == *$'\n' ]] || nr=$((nr - 1))
	if [ "$rc" -ne "$want" ]; then
		echo "$(hostile_what "$@"): exit $rc, expected $want; stderr: $(
			)$(head -c 400 "$TMP/err")"
		return 1
	fi
	if [ "$nr" -ne 1 ] || [[ "${err[0]}" != "schedperf: "* ]]; then
		echo "$(hostile_what "$@"): expected one 'schedperf: ' line on stderr, got $nr:"
		head -c 1000 "$TMP/err"
		return 1
	fi
	if [ "$STORE_SUM" != "$after" ]; then
		echo "$(hostile_what "$@"): the store changed"
		return 1
	fi
}

hostile_what() {	# hostile_what ARGS...: the command, for a failure's message
	echo "schedperf $(printf '%q ' "$@" | cut -c1-120)"
}

# spoil DIR < STATEMENTS: for each line, write DIR/badN.json: GOOD with d
# changed by that Python statement (one interpreter for all: python starts slowly).
spoil() {
	"$PYTHON" -c "import json, sys
good = open(sys.argv[1]).read()
for n, line in enumerate(sys.stdin, 1):
    d = json.loads(good)
    r = d['runs'][0]; b = r['benchmarks'][0]; m = b['metrics'][0]
    p = dict(seq=1, extra=False, event='cpu-clock', scope='tasks', frequency=1000, samples=2,
             lost=0, total=2000, symbols=[dict(name='f', dso='x', self=1000, children=2000)])
    exec(line)
    open('%s/bad%d.json' % (sys.argv[2], n), 'w').write(d if isinstance(d, str) else json.dumps(d))
    open('%s/bad%d.why' % (sys.argv[2], n), 'w').write(line)" "$GOOD" "$1"
}

big() {		# big N: a string of N letters
	head -c "$1" /dev/zero | tr '\0' a
}

@test "hostile: global options and commands" {
	hostile 2
	hostile 2 --bogus
	hostile 2 --db
	hostile 2 -q
	hostile 2 bogus
	hostile 2 ''
	hostile 2 "$(big 120000)"
	hostile 2 --db= runs
	hostile 2 help bogus
	hostile 2 help run extra
	hostile 2 --db "$TMP" runs
	hostile 2 --db "$TMP/no/such/dir/store.db" runs
	hostile 2 --db /dev/null runs
	# a path too long for the system is the user's to shorten
	hostile 2 --db "$(big 120000)" runs
	hostile 3 --db "postgresql:///x?host=$TMP/nowhere" runs
}

@test "hostile: run arguments" {
	hostile 2 run
	hostile 2 run bogus
	hostile 2 run ''
	hostile 2 run "$(big 120000)"
	hostile 2 run pipe extra
	hostile 2 run pipe messaging
	hostile 2 run pipe -p
	hostile 2 run pipe -p ''
	hostile 2 run pipe -p loops
	hostile 2 run pipe -p loops=
	hostile 2 run pipe -p =5
	hostile 2 run pipe -p ==
	hostile 2 run pipe -p loops=abc
	hostile 2 run pipe -p loops=1x2
	hostile 2 run pipe -p loops=0x10
	hostile 2 run pipe -p loops=' 5'
	hostile 2 run pipe -p loops=1.5
	hostile 2 run pipe -p loops=1e3
	hostile 2 run pipe -p loops=-1
	hostile 2 run pipe -p loops=0
	hostile 2 run pipe -p loops=99999999999999999999
	hostile 2 run pipe -p loops=-99999999999999999999
	hostile 2 run pipe -p loops=nan
	hostile 2 run pipe -p loops=inf
	hostile 2 run pipe -p loops=1,,2
	hostile 2 run pipe -p loops=,
	hostile 2 run pipe -p loops=1,abc
	hostile 2 run pipe -p loops=0%
	hostile 2 run pipe -p loops=-5%
	hostile 2 run pipe -p loops=1e999%
	hostile 2 run pipe -p loops=0x
	hostile 2 run pipe -p loops=99999999999999999999x
	hostile 2 run pipe -p "loops=$(big 120000)"
	hostile 2 run pipe -p "$(big 120000)=1"
	hostile 2 run pipe -p mode=bogus
	hostile 2 run pipe -p mode=
	hostile 2 run pipe -p bogus=1
	hostile 2 run pipe -p loops=1 -p loops=2
	hostile 2 run pipe -p $'loops=1\n2'
	hostile 2 run messaging -p groups=0
	hostile 2 run messaging -p ipc=carrier-pigeon
}

@test "hostile: run options" {
	local o
	for o in -i --iterations --warmup --retries --assume-cpus; do
		hostile 2 run pipe "$o"
		hostile 2 run pipe "$o" abc
		hostile 2 run pipe "$o" -5
		hostile 2 run pipe "$o" 99999999999999999999
		hostile 2 run pipe "$o" ''
		hostile 2 run pipe "$o" 1.5
	done
	hostile 2 run pipe -i 0
	hostile 2 run pipe --timeout
	hostile 2 run pipe --timeout abc
	hostile 2 run pipe --timeout -1
	hostile 2 run pipe --timeout 0
	hostile 2 run pipe --timeout nan
	hostile 2 run pipe --timeout inf
	hostile 2 run pipe --timeout 1e999
	hostile 2 run pipe --cpus 999999
	hostile 2 run pipe --cpus abc
	hostile 2 run pipe --cpus ''
	hostile 2 run pipe --cpus 3-1
	hostile 2 run pipe --cpus 0-99999999999999999999
	hostile 2 run pipe --cpus "$(big 120000)"
	hostile 2 run pipe --name ''
	hostile 2 run pipe --name "$(big 120000)"
	hostile 2 run pipe --name $'a\x1b[2Jb'
	hostile 2 run pipe --name $'a\xe2\x80\xaeb'	# U+202E, which reverses the rest of a line
	hostile 2 run pipe --name $'a\xc2\x9bb'	# U+009B, a C1 control
	hostile 2 run pipe --monitors bogus
	hostile 2 run pipe --shuffle=yes
	hostile 2 run pipe --bogus
	hostile 2 run pipe --assume-cpus 0 --dry-run
	hostile 2 run pipe --resume --name no-such-run
}

@test "hostile: run --sweep" {
	hostile 2 run pipe --sweep
	hostile 2 run pipe --sweep ''
	hostile 2 run pipe --sweep loops
	hostile 2 run pipe --sweep loops=
	hostile 2 run pipe --sweep =pow2
	hostile 2 run pipe --sweep loops=bogus
	hostile 2 run pipe --sweep loops=pow2:
	hostile 2 run pipe --sweep loops=pow2:5..1
	hostile 2 run pipe --sweep loops=pow2:0..4
	hostile 2 run pipe --sweep loops=pow2:1..
	hostile 2 run pipe --sweep loops=pow2:..4
	hostile 2 run pipe --sweep loops=pow2:1..2..3
	hostile 2 run pipe --sweep loops=pow2:1..99999999999999999999
	hostile 2 run pipe --sweep loops=stride:-1..4
	hostile 2 run pipe --sweep loops=topology:abc
	hostile 2 run pipe --sweep "loops=pow2:1..$(big 120000)"
	hostile 2 run pipe --sweep bogus=pow2
	hostile 2 run pipe --sweep mode=pow2
	hostile 2 run pipe --sweep loops=pow2 -p loops=5
}

@test "hostile: suite files" {
	hostile 2 run --suite
	hostile 2 run --suite ''
	grep -q "^schedperf: --suite '' names no suite (give a built-in suite: quick, " "$TMP/err"
	hostile 2 run --suite bogus
	hostile 2 run --suite "$TMP"
	hostile 2 run --suite /dev/null
	hostile 2 run --suite /dev/zero
	hostile 2 run --suite "$TMP/missing.yaml"
	hostile 2 run pipe --suite quick
	head -c 50000 /dev/urandom >"$TMP/garbage.yaml"
	hostile 2 run --suite "$TMP/garbage.yaml"
	"$PYTHON" -c "print('[' * 1000000)" >"$TMP/deep.yaml"
	hostile 2 run --suite "$TMP/deep.yaml"
	"$PYTHON" -c "print('- ' * 100000 + 'x')" >"$TMP/deep2.yaml"
	hostile 2 run --suite "$TMP/deep2.yaml"
	local y
	while IFS= read -r y; do
		printf '%b' "$y" >"$TMP/s.yaml"
		hostile 2 run --suite "$TMP/s.yaml" || { echo "suite: $y"; return 1; }
		hostile 2 run --suite "$TMP/s.yaml" --dry-run || { echo "suite: $y"; return 1; }
	done <<-'EOF'
	foo: [
	foo: bar\n
	- 1\n
	[]\n
	\n
	- workload: pipe\n  params: {loops: [1, 2\n
	- workload: bogus\n
	- workload: ''\n
	- workload: [pipe]\n
	- workload: pipe\n  workload: pipe\n
	- workload: pipe\n  bogus: 1\n
	- workload: pipe\n  params: {loops: abc}\n
	- workload: pipe\n  params: {loops: 99999999999999999999}\n
	- workload: pipe\n  params: {loops: []}\n
	- workload: pipe\n  params: {loops: {a: b}}\n
	- workload: pipe\n  params: {loops: 1, loops: 2}\n
	- workload: pipe\n  params: [1]\n
	- workload: pipe\n  params: {"": 1}\n
	- workload: pipe\n  params: {bogus: 1}\n
	- workload: pipe\n  params: {loops: *x}\n
	- workload: pipe\n  iterations: -1\n
	- workload: pipe\n  iterations: 0\n
	- workload: pipe\n  iterations: abc\n
	- workload: pipe\n  iterations: 99999999999999999999\n
	- workload: pipe\n  warmup: -1\n
	- workload: pipe\n  timeout: nan\n
	- workload: pipe\n  timeout: .inf\n
	- workload: pipe\n  timeout: -5\n
	- workload: pipe\n  sweep: {loops: bogus}\n
	- workload: pipe\n  sweep: {loops: "pow2:1..99999999999"}\n
	- workload: pipe\n  sweep: {loops: pow2}\n  params: {loops: 1}\n
	- &a [*a]\n
	%YAML 9.9\n---\n- workload: pipe\n
	- workload: pipe\n\t- workload: pipe\n
	- workload: pipe\n  params: {loops: 1}\n\x00\x01
	EOF
}

@test "hostile: compare, runs, show, env, list, help" {
	hostile 2 compare
	hostile 2 compare a
	hostile 2 compare a a
	hostile 2 compare a bogus
	hostile 2 compare bogus a
	hostile 2 compare '' a
	hostile 2 compare a "$(big 120000)"
	hostile 2 compare a b --format bogus
	hostile 2 compare a b --format ''
	hostile 2 compare a b --style bogus
	hostile 2 compare a b --alpha abc
	hostile 2 compare a b --alpha 2
	hostile 2 compare a b --alpha -1
	hostile 2 compare a b --alpha nan
	hostile 2 compare a b --adjust bogus
	hostile 2 compare a b --margin abc
	hostile 2 compare a b --margin -1
	hostile 2 compare a b --seed abc
	hostile 2 compare a b --bogus
	hostile 2 runs extra
	hostile 2 runs --format bogus
	hostile 2 runs --bogus
	hostile 2 show
	hostile 2 show bogus
	hostile 2 show a b
	hostile 2 show ''
	hostile 2 show "$(big 120000)"
	hostile 2 show a --bogus
	# A mistyped --db is an error, not a new empty store.
	hostile 2 --db "$TMP/none.db" show a
	hostile 2 --db "$TMP/none.db" export a
	[ ! -e "$TMP/none.db" ]
	hostile 2 env extra
	hostile 2 env --bogus
	hostile 2 list bogus
	hostile 2 list "$(big 120000)"
	hostile 2 list --bogus
}

@test "hostile: export" {
	hostile 2 export
	hostile 2 export bogus
	hostile 2 export a bogus
	hostile 2 export ''
	hostile 2 export a -o
	hostile 2 export a -o ''
	hostile 2 export a --bogus
	hostile 3 export a -o "$TMP/no/such/dir/out.json"
	hostile 2 export a -o "$TMP"
	[ ! -e "$TMP/no" ]
	hostile 3 export a -o /dev/full
	# Standard output into a full device is a failure too, for every command.
	local rc=0
	"$SP" export a >/dev/full 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ]
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	rc=0
	"$SP" runs >/dev/full 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ]
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	rc=0
	"$SP" list >/dev/full 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ]
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	# the global --help and --version too, as 'help' and 'runs --help' are
	local opt
	for opt in --help --version; do
		rc=0
		"$SP" $opt >/dev/full 2>"$TMP/err" || rc=$?
		[ "$rc" -eq 3 ] || { echo "$opt: exit $rc"; return 1; }
		[ "$(wc -l <"$TMP/err")" -eq 1 ]
	done
	# a closed standard output is not a full disk: the advice says which
	rc=0
	"$SP" list >&- 2>"$TMP/err" || rc=$?
	[ "$rc" -eq 3 ]
	[[ "$(cat "$TMP/err")" == *"(standard output is closed: give the command one)" ]]
	"$SP" list >/dev/full 2>"$TMP/err" || true
	[[ "$(cat "$TMP/err")" == *"(check free space on the output's file system)" ]]
}

@test "hostile: import files that are not documents" {
	hostile 2 import
	hostile 2 import --bogus
	hostile 2 import ''
	hostile 2 import "$TMP/missing.json"
	hostile 2 import "$TMP"
	hostile 2 import /dev/null
	hostile 2 import "$(big 120000)"
	# a message longer than its line's room keeps its why and how to fix
	local why="File name too long"
	why="$why (give a schedperf-results/1 JSON file, or - for standard input)"
	[[ "$(cat "$TMP/err")" == *"aaa...': $why" ]]
	: >"$TMP/empty.json"
	hostile 2 import "$TMP/empty.json"
	head -c 100000 /dev/urandom >"$TMP/garbage.bin"
	hostile 2 import "$TMP/garbage.bin"
	printf '\x00\x00\x00' >"$TMP/nul.json"
	hostile 2 import "$TMP/nul.json"
	printf '\xef\xbb\xbf{}' >"$TMP/bom.json"
	hostile 2 import "$TMP/bom.json"
	"$PYTHON" -c "print('[' * 100000 + ']' * 100000)" >"$TMP/deep.json"
	hostile 2 import "$TMP/deep.json"
	"$PYTHON" -c "print('{\"schema\": \"schedperf-results/1\", \"runs\": ' + '[' * 3000 + ']' * 3000 + '}')" >"$TMP/deep2.json"
	hostile 2 import "$TMP/deep2.json"
	head -c 300 "$GOOD" >"$TMP/truncated.json"
	hostile 2 import "$TMP/truncated.json"
	printf '{"a": 1, "a": 2}' >"$TMP/dupkey.json"
	hostile 2 import "$TMP/dupkey.json"
	printf '[]' >"$TMP/array.json"
	hostile 2 import "$TMP/array.json"
	printf '"schedperf-results/1"' >"$TMP/string.json"
	hostile 2 import "$TMP/string.json"
	printf '{}' >"$TMP/object.json"
	hostile 2 import "$TMP/object.json"
	# All or nothing: a good file with a bad one imports neither.
	printf '{' >"$TMP/bad.json"
	hostile 2 import "$GOOD" "$TMP/bad.json"
	hostile 2 import "$GOOD" "$GOOD"
}

@test "hostile: import documents with bad values" {
	local f
	spoil "$TMP" <<-'EOF'
	m['samples'][0] = float('nan')
	m['samples'][0] = float('inf')
	m['samples'][0] = float('-inf')
	d = good.replace('1.5', '1e400')
	d = good.replace('1.5', '-1e400')
	d = good.replace('1.5', 'NaN')
	d = good.replace('1.5', 'Infinity')
	m['samples'] = '1,2'
	m['samples'] = [1, '2']
	m['samples'] = [1, None]
	m['samples'] = [1, True]
	m['samples'] = [[1]]
	m['warmup'] = [float('nan')]
	del m['samples']
	m['better'] = 'up'
	m['better'] = ''
	del m['better']
	m['name'] = ''
	m['name'] = 5
	m['unit'] = None
	m['bogus'] = 1
	b['metrics'].append(dict(m))
	b['metrics'] = {}
	b['workload'] = ''
	b['workload'] = 'a' * 100000
	b['workload'] = 7
	b['params'] = {'a': 1}
	b['params'] = {'a': None}
	b['params'] = ['a']
	b['failed_iterations'] = -5
	b['failed_iterations'] = 1e30
	b['failed_iterations'] = 1.5
	b['failed_iterations'] = 'x'
	del r['benchmarks']
	r['name'] = ''
	r['name'] = 'a\u0000b'
	r['name'] = 'a\u202eb'
	r['name'] = 'a\u0085b'
	r['name'] = 'x' * 100000
	r['name'] = ['x']
	del r['name']
	r['started'] = 'yesterday'
	r['started'] = '2026-13-45T99:99:99Z'
	r['started'] = '2026-01-01T00:00:00Zgarbage'
	r['started'] = ''
	r['started'] = 1700000000
	r['complete'] = 'yes'
	del r['complete']
	r['environment'] = {'k': 1}
	r['environment'] = ['k']
	r['bogus'] = {}
	d['runs'].append(dict(r))
	d['runs'].append(5)
	d['runs'] = []
	d['runs'] = {}
	del d['runs']
	d['schema'] = 'schedperf-results/2'
	del d['schema']
	d['schema'] = None
	d['runs'][0] = None
	r['name'] = 'a'; r['started'] = '2020-01-01T00:00:00Z'; d['runs'].append(json.loads(json.dumps(r))); d['runs'][1]['started'] = 'x'
	b['profiles'] = {}
	b['profiles'] = [5]
	b['profiles'] = [p, p]
	p['symbols'][0]['self'] = 3000; b['profiles'] = [p]
	p['symbols'][0]['children'] = 5000; b['profiles'] = [p]
	p['symbols'][0]['self'] = -1; b['profiles'] = [p]
	p['symbols'][0]['self'] = 1.5; b['profiles'] = [p]
	p['symbols'][0]['name'] = ''; b['profiles'] = [p]
	p['symbols'][0]['name'] = 'a\u0001b'; b['profiles'] = [p]
	p['symbols'][0]['dso'] = 'x' * 100000; b['profiles'] = [p]
	p['symbols'][0]['bogus'] = 1; b['profiles'] = [p]
	p['symbols'] = [5]; b['profiles'] = [p]
	del p['symbols']; b['profiles'] = [p]
	p['extra'] = 0; b['profiles'] = [p]
	p['seq'] = -1; b['profiles'] = [p]
	p['frequency'] = 0; b['profiles'] = [p]
	p['total'] = 1.5; b['profiles'] = [p]
	p['lost'] = 2**64; b['profiles'] = [p]
	del p['event']; b['profiles'] = [p]
	p['scope'] = None; b['profiles'] = [p]
	EOF
	[ -e "$TMP/bad80.json" ]
	for f in "$TMP"/bad*.json; do
		hostile 2 import "$f" || { echo "spoilt with: $(cat "${f%.json}.why")"; return 1; }
	done
}

# fixed WANT ARGS...: as hostile, and the line ends with how to fix it: "(...)".
fixed() {
	hostile "$@" || return 1
	[[ "$(cat "$TMP/err")" == *")" ]] || { echo "no fix: $(cat "$TMP/err")"; return 1; }
}

@test "a refused sweep, count, task knob, cgroup value or output path says how to fix it" {
	fixed 2 run pipe --sweep loops=pow2:8..2
	[[ "$(cat "$TMP/err")" == *"(give the smaller first: 2..8)" ]]
	fixed 2 run pipe --sweep loops=pow2:x
	fixed 2 run pipe --sweep loops=pow2:2..
	fixed 2 run pipe --sweep loops=1,2:2..4
	fixed 2 run pipe --sweep loops=topology:100000..200000
	fixed 2 run pipe -p loops=99999999999x
	for knob in nice:99 slice:1 cgroup:cpu.weight=; do
		fixed 2 run pipe --knob "$knob" --dry-run
	done
	fixed 2 export a -o "$TMP/$(big 5000)"
}

@test "a \$SCHEDPERF_JOB_DB_FD that is no worker's pipe is refused: never read, never closed" {
	# a pipe whose writer lives (here, the run itself): read, it waited for ever
	mkfifo "$TMP/fifo"
	run env SCHEDPERF_JOB_DB_FD=4 timeout 60 "$SP" runs 4<>"$TMP/fifo"
	[ "$status" -eq 2 ]
	[ "$output" = "schedperf: SCHEDPERF_JOB_DB_FD 4 is not the pipe 'schedperf worker' $(
		)gives its run (unset it)" ]
	# stderr a file: closed, the error on it was lost; and a terminal or a file is no pipe
	for fd in 2 3; do
		rc=0
		SCHEDPERF_JOB_DB_FD=$fd "$SP" runs 2>"$TMP/err" 3<"$GOOD" || rc=$?
		[ "$rc" -eq 2 ]
		[ "$(cat "$TMP/err")" = "schedperf: SCHEDPERF_JOB_DB_FD $fd is not the pipe $(
			)'schedperf worker' gives its run (unset it)" ]
	done
	# a closed descriptor is a missing one, as before
	SCHEDPERF_JOB_DB_FD=9 hostile 3 runs
}

@test "a \$SCHEDPERF_JOB that is no ID:CLAIM is refused, an id past the range too" {
	for job in junk 0:x 7: -1:x 9223372036854775808:x 99999999999999999999:x; do
		SCHEDPERF_JOB=$job hostile 2 run pipe -p loops=10 -i 1 --no-monitors
		[ "$(cat "$TMP/err")" = "schedperf: SCHEDPERF_JOB '$job' is not ID:CLAIM $(
			)(it is set by 'schedperf worker'; unset it)" ]
	done
	# its worker's patience: once read as 0 and dropped, so the store's own
	for patience in junk 0 -5 10x 2147483648 99999999999999999999; do
		SCHEDPERF_JOB=999:x SCHEDPERF_JOB_PATIENCE=$patience hostile 2 run pipe -p loops=10 \
			-i 1 --no-monitors
		[ "$(cat "$TMP/err")" = "schedperf: SCHEDPERF_JOB_PATIENCE '$patience' is not a $(
			)number of milliseconds from 1 to 2147483647 (it is set by 'schedperf worker'; $(
			)unset it)" ]
	done
}

@test "a worker's lock that is no file a worker makes: a run looks, never waits, warns of none" {
	local lock=$SCHEDPERF_TEST_RUNDIR/schedperf-worker.lock

	# a FIFO: opened to look, it waited for a writer for ever, the knob lock held
	mkfifo "$lock"
	run timeout 60 "$SP" -q run pipe -p loops=10 -i 1 --no-monitors --name fifo
	[ "$status" -eq 0 ]
	[[ "$output" != *"warning: a worker"* ]]
	rm "$lock"
	# a device, held as a worker holds its file: no worker's
	ln -s /dev/null "$lock"
	flock -x "$lock" timeout 60 "$SP" -q run pipe -p loops=10 -i 1 --no-monitors \
		--name device 2>"$TMP/err"
	[[ "$(cat "$TMP/err")" != *"warning: a worker"* ]]
	[ "$(sqlite3 "$SCHEDPERF_DB" "SELECT count(*) FROM batches b JOIN runs r ON $(
		)r.id = b.run_id WHERE r.name IN ('fifo', 'device') AND b.complete")" -eq 2 ]
}
