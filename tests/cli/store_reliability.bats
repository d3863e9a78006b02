#!/usr/bin/env bats
# The store against hostile use: a second process writing the same run,
# --replace that fails, two resumes at once, tasks left by a killed runner,
# reading commands given files they must not change, a full disk while a
# store is created. Every case ends with one line and the documented exit
# status, and the store (or the file given) as it should be. No case waits
# for a time: a run that must still be running is held by stopping its
# iteration's process group (SIGSTOP), and let go afterwards.

load helpers

teardown() {
	local pid
	# a run still going when a test failed: it must not outlive the test
	for pid in ${RUNNERS:-}; do
		kill -KILL "$pid" 2>/dev/null || true
	done
	[ -z "${held:-}" ] || kill -KILL -- "-$held" 2>/dev/null || true
	[ -z "${ORPHAN:-}" ] || kill -KILL -- "-$ORPHAN" 2>/dev/null || true
	if [ -n "${MNT:-}" ] && mountpoint -q "$MNT"; then
		umount "$MNT" || umount -l "$MNT"
	fi
	rm -rf "$TMP"
}

db() {	# db SQL: one value from the store
	sqlite3 "$SCHEDPERF_DB" "$1"
}

# group_recorded RUN: the running iteration of RUN's newest batch has its
# process group in the store, and the group exists; sets GROUP.
group_recorded() {
	GROUP=$(db "SELECT b.tasks_pgid FROM batches b JOIN runs r ON r.id = b.run_id
		WHERE r.name = '$1' AND b.complete = 0 ORDER BY b.id DESC LIMIT 1" 2>/dev/null)
	[ -n "$GROUP" ] && kill -0 -- "-$GROUP" 2>/dev/null
}

# hold RUN: stop the iteration that RUN's newest batch records as running
# (its runner waits for it, alive, outside any transaction); held is the
# stopped group. release_iteration lets it go on.
hold() {
	wait_for hold_recorded "$1"
}

hold_recorded() {
	group_recorded "$1" && stop_group "$GROUP" "$GROUP" && held=$GROUP
}

# exit_is WANT COMMAND...: COMMAND exits WANT with one "schedperf: " line
# on stderr (none when WANT is 0).
exit_is() {
	local want=$1 rc=0 lines=1
	shift
	"$@" >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
	[ "$want" -ne 0 ] || lines=0
	if [ "$rc" -ne "$want" ] || [ "$(wc -l <"$TMP/err")" -ne "$lines" ] ||
	   { [ "$lines" -eq 1 ] && ! grep -q '^schedperf: ' "$TMP/err"; }; then
		echo "$*: exit $rc (expected $want): $(cat "$TMP/err")"
		return 1
	fi
}

err_has() {
	grep -q -- "$1" "$TMP/err" || { echo "stderr lacks '$1': $(cat "$TMP/err")"; return 1; }
}

# params_of RUN: the distinct parameter sets of RUN's stored benchmarks.
params_of() {
	db "SELECT group_concat(p, ' ') FROM (SELECT DISTINCT be.params AS p FROM benchmarks be
		JOIN batches b ON b.id = be.batch_id JOIN runs r ON r.id = b.run_id
		WHERE r.name = '$1' ORDER BY p)"
}

has_iterations() {	# has_iterations RUN N: RUN has N successful iterations or more
	[ "$(iterations_of "$1")" -ge "$2" ]
}

leads_group() {		# leads_group PID: PID runs, the leader of its own process group
	[ "$(cut -d' ' -f5 "/proc/$1/stat" 2>/dev/null)" = "$1" ]
}

iterations_of() {	# iterations_of RUN: its successful iterations
	db "SELECT count(*) FROM iterations i JOIN benchmarks be ON be.id = i.benchmark_id
		JOIN batches b ON b.id = be.batch_id JOIN runs r ON r.id = b.run_id
		WHERE r.name = '$1' AND i.failure IS NULL"
}

# A run that cannot end before the test is done with it: it is held,
# then stopped by a signal. ENDLESS iterations of a few ms each.
ENDLESS=100000

# shrink RUN N: the plan of RUN's incomplete batches asks for N iterations
# (so that a resume of a held run ends soon).
shrink() {
	db "UPDATE batches SET plan = replace(plan, '\"iterations\":$ENDLESS', '\"iterations\":$2')
		WHERE complete = 0 AND run_id = (SELECT id FROM runs WHERE name = '$1')"
}

# interrupted RUN N: RUN of 20 iterations made to look cut short after N
# (its runner gone), as kill -9 leaves it: a run of N to the end, its plan
# then the 20's, and unfinished (the 20 are never run: a resume runs the rest).
interrupted() {
	sp run pipe -p loops=200 -i "$2" --name "$1" -q
	db "UPDATE batches SET complete = 0, finished = NULL,
	    plan = replace(plan, '\"iterations\":$2', '\"iterations\":20')
	    WHERE run_id = (SELECT id FROM runs WHERE name = '$1')"
}

@test "store: --replace of a run a live process writes is refused; its samples keep their labels" {
	"$SP" run pipe -p loops=20000 -p mode=thread -i $ENDLESS --name x -q 2>"$TMP/err-live" &
	local live=$! rc=0
	RUNNERS=$live
	hold x
	exit_is 3 "$SP" run pipe -p loops=2000 -p mode=process -i 2 --name x --replace -q
	err_has "is being written by process $live"
	# nor may it be resumed by another
	exit_is 3 "$SP" run --resume --name x -q
	err_has "process $live"
	release_iteration
	wait_for has_iterations x 2
	kill -TERM "$live"
	wait "$live" || rc=$?
	[ "$rc" -eq 143 ] || { echo "live run: exit $rc: $(cat "$TMP/err-live")"; return 1; }
	[ "$(params_of x)" = '{"cpus":"any","loops":"20000","mode":"thread"}' ]
	[ "$(db 'SELECT count(*) FROM batches')" -eq 1 ]
	[ "$(db 'PRAGMA integrity_check')" = ok ]
	# once it has ended, the name can be replaced
	sp run pipe -p loops=2000 -p mode=process -i 2 --name x --replace -q
	[ "$(params_of x)" = '{"cpus":"any","loops":"2000","mode":"process"}' ]
	[ "$(db 'SELECT count(*) FROM batches')" -eq 1 ]
}

@test "store: ids are never reused, even the newest batch's once deleted" {
	sp run pipe -p loops=100 -i 2 --name a -q
	sp run pipe -p loops=100 -i 2 --name b -q
	local batch bench iteration metric
	batch=$(db 'SELECT max(id) FROM batches')
	bench=$(db 'SELECT max(id) FROM benchmarks')
	iteration=$(db 'SELECT max(id) FROM iterations')
	metric=$(db 'SELECT max(id) FROM metrics')
	db "PRAGMA foreign_keys = ON; DELETE FROM batches WHERE id = $batch"
	sp run pipe -p loops=100 -i 1 --name c -q
	[ "$(db "SELECT min(id) FROM batches WHERE run_id = (SELECT id FROM runs WHERE name = 'c')")" -gt "$batch" ]
	[ "$(db "SELECT min(id) FROM benchmarks WHERE id > $bench - 1")" -gt "$bench" ]
	[ "$(db "SELECT count(*) FROM iterations WHERE id > $iteration")" -eq 1 ]
	[ "$(db "SELECT count(*) FROM iterations WHERE id <= $iteration")" -eq 2 ]
	[ "$(db "SELECT count(*) FROM metrics WHERE id <= $metric AND benchmark_id > $bench")" -eq 0 ]
}

@test "store: a failed --replace keeps the earlier batches; readers never see both" {
	sp run pipe -p loops=1000 -i 3 --name base -q
	sp run pipe -p loops=1000 -i 3 --name x -q
	sp export x -o "$TMP/before.json"
	sp compare base x --format json >"$TMP/cmp-before.json"
	"$SP" run pipe -p loops=2000 -i $ENDLESS --name x --replace -q 2>"$TMP/err-replace" &
	local replacing=$! rc=0
	RUNNERS=$replacing
	hold x
	# in progress: every reader sees the earlier batch only
	sp export x | cmp - "$TMP/before.json"
	sp runs --format json >"$TMP/runs.json"
	[ "$(json "[b['complete'] for r in d if r['name'] == 'x' for b in r['batches']]" "$TMP/runs.json")" = "[True]" ]
	sp show x >"$TMP/show.txt"
	[ "$(grep -c '^run x, batch' "$TMP/show.txt")" -eq 1 ]
	sp compare base x --format json | cmp - "$TMP/cmp-before.json"
	# the replacing run is stopped by a signal: it fails, the earlier batch stays
	kill -TERM "$replacing"
	release_iteration
	wait "$replacing" || rc=$?
	[ "$rc" -eq 143 ]
	sp export x | cmp - "$TMP/before.json"
	[ "$(db "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'x'")" -eq 2 ]
	# runs and show say which batch they leave out, and how to finish it, on stderr
	local note="schedperf: run 'x': batch 3 (started *), a --replace, is unfinished, so the batches it would replace are shown instead (unless a run writes it now, finish it with: schedperf run --resume --name x --db $SCHEDPERF_DB)"
	sp runs 2>"$TMP/note" >/dev/null
	[[ "$(cat "$TMP/note")" == $note ]]
	sp show x 2>"$TMP/note" >"$TMP/show.txt"
	[[ "$(cat "$TMP/note")" == $note ]]
	[ "$(grep -c '^run x, batch' "$TMP/show.txt")" -eq 1 ]
	sp show base 2>"$TMP/note" >/dev/null
	[ ! -s "$TMP/note" ]
	# finishing it replaces, in the transaction that marks it complete
	shrink x 3
	sp run --resume --name x -q
	[ "$(db "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'x'")" -eq 1 ]
	[ "$(params_of x)" = '{"cpus":"any","loops":"2000","mode":"process"}' ]
	[ "$(iterations_of x)" -ge 3 ]
	[ "$(db "SELECT complete FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'x'")" -eq 1 ]
	sp runs 2>"$TMP/note" >/dev/null
	[ ! -s "$TMP/note" ]
}

# The command is printed last and unquoted: inside '...' the name's and the
# --db's own quotes clashed. It is run here exactly as printed.
@test "store: the unfinished --replace's resume command is quoted for a shell, with its --db" {
	local db="$TMP/my dir/my db.db" want cmd
	mkdir "$TMP/my dir"
	SCHEDPERF_DB=$db
	sp run pipe -p loops=100 -i 2 --name "it's a b" -q
	sp run pipe -p loops=100 -i 2 --name "it's a b" -q
	db "UPDATE batches SET replacing = 1, complete = 0 WHERE id = (SELECT max(id) FROM batches)"
	want="schedperf run --resume --name 'it'\\''s a b' --db '$db'"
	sp runs 2>"$TMP/note" >/dev/null
	[[ "$(cat "$TMP/note")" == *"unless a run writes it now, finish it with: $want)" ]] ||
		{ cat "$TMP/note"; false; }
	cd "$TMP"
	"$SP" --db "my dir/my db.db" show "it's a b" 2>"$TMP/note" >/dev/null
	[[ "$(cat "$TMP/note")" == *"finish it with: $want)" ]] || { cat "$TMP/note"; false; }
	# as printed: from after "with: " to the closing parenthesis
	cmd=$(sed -n 's/.*finish it with: \(.*\))$/\1/p' "$TMP/note")
	cd /
	eval "\"\$SP\" ${cmd#schedperf } -q"
	[ "$(db "SELECT count(*) FROM batches WHERE complete = 1")" -eq 1 ]
	sp runs 2>"$TMP/note" >/dev/null
	[ ! -s "$TMP/note" ]
}

# A name run refuses (only an edited store holds one) has no command that
# finishes its batch: the note says so, and prints no control character.
@test "store: an unfinished --replace of a run whose name run refuses says no command" {
	sp run pipe -p loops=100 -i 1 --name x -q
	sp run pipe -p loops=100 -i 1 --name x -q
	db "UPDATE batches SET replacing = 1, complete = 0 WHERE id = (SELECT max(id) FROM batches)"
	db "UPDATE runs SET name = 'a' || char(1) || 'b'"
	run sp run --resume --name $'a\x01b'
	[ "$status" -eq 2 ]
	[[ "$output" == *"contains control characters"* ]]
	sp runs 2>"$TMP/note" >/dev/null
	[ "$(cat "$TMP/note")" = "schedperf: run 'a?b': batch 2 (started $(
		db "SELECT started FROM batches WHERE id = 2")), a --replace, is unfinished, so $(
		)the batches it would replace are shown instead (run --resume cannot finish it: $(
		)its name holds control characters or marks that reorder a line, which run $(
		)refuses)" ] || { cat -A "$TMP/note"; false; }
}

@test "store: a --replace none of whose iterations succeeded replaces nothing" {
	sp run command -p cmd=true -i 2 --name x -q
	sp export x -o "$TMP/before.json"
	run sp run command -p cmd=false -i 2 --name x --replace -q
	[ "$status" -eq 1 ]
	assert_one_line_error
	[[ "$output" == *"run 'x': no iteration succeeded, so nothing was measured and nothing replaced (its earlier batches are kept)"* ]]
	sp export x | cmp - "$TMP/before.json"
	# hidden, not complete; a --replace that measures replaces both
	[ "$(db "SELECT count(*) FROM batches WHERE NOT complete AND replacing")" -eq 1 ]
	sp run command -p cmd=true -i 3 --name x --replace -q
	[ "$(db "SELECT count(*) || ' ' || min(complete) FROM batches")" = "1 1" ]
	[ "$(iterations_of x)" -eq 3 ]
}

@test "store: two resumes of one batch at once: one proceeds, the other is refused" {
	local round a b ra rb
	for round in 1 2 3 4 5 6; do
		interrupted "r$round" 5
		"$SP" run --resume --name "r$round" -q 2>"$TMP/err-a" &
		a=$!
		"$SP" run --resume --name "r$round" -q 2>"$TMP/err-b" &
		b=$!
		ra=0
		rb=0
		wait "$a" || ra=$?
		wait "$b" || rb=$?
		# exactly one proceeds; the other is refused up front (3), or finds
		# the batch already finished (2) when the first was done before it looked
		if [ "$ra" -ne 0 ]; then
			rb=$ra
			ra=0
			mv "$TMP/err-a" "$TMP/err-b"
		elif [ "$rb" -eq 0 ]; then
			echo "both proceeded"
			return 1
		fi
		[ "$ra" -eq 0 ] || { echo "both failed: $(cat "$TMP/err-a" "$TMP/err-b")"; return 1; }
		[ "$rb" -eq 3 ] || [ "$rb" -eq 2 ] || { echo "other: $rb $(cat "$TMP/err-b")"; return 1; }
		[ "$(wc -l <"$TMP/err-b")" -eq 1 ]
		[ "$rb" -eq 2 ] || grep -q "is being written by process" "$TMP/err-b"
		[ "$(iterations_of "r$round")" -eq 20 ]
		[ "$(db "SELECT count(*) FROM batches b JOIN runs r ON r.id = b.run_id WHERE r.name = 'r$round' AND complete = 1")" -eq 1 ]
	done
	# a resume refused because another holds the batch names that process
	sp run pipe -p loops=200 -i 3 --name held -q
	db "UPDATE batches SET complete = 0, plan = replace(plan, '\"iterations\":3', '\"iterations\":$ENDLESS')
		WHERE run_id = (SELECT id FROM runs WHERE name = 'held')"
	"$SP" run --resume --name held -q 2>"$TMP/err-a" &
	a=$!
	RUNNERS=$a
	hold held
	exit_is 3 "$SP" run --resume --name held -q
	err_has "is being written by process $a"
	kill -TERM "$a"
	release_iteration
	wait "$a" || true
}

# The tasks of a runner that was killed outlive it unless something kills
# them. Here a process in its own group stands for them: it is recorded as
# the batch's iteration, as the runner records each one.
@test "store: --resume and --replace are refused while tasks of the batch still run" {
	interrupted o 5
	setsid sleep 1000 3>&- &
	ORPHAN=$!
	wait_for leads_group "$ORPHAN"
	local start
	start=$(sed 's/.*) //' "/proc/$ORPHAN/stat" | cut -d' ' -f20)
	db "UPDATE batches SET tasks_pgid = $ORPHAN, tasks_start = $start"
	exit_is 3 "$SP" run --resume --name o -q
	err_has "still run in process group $ORPHAN"
	err_has "kill -KILL -- -$ORPHAN"
	exit_is 3 "$SP" run pipe -p loops=200 -i 1 --name o --replace -q
	kill -KILL "$ORPHAN"
	wait "$ORPHAN" || true
	ORPHAN=
	sp run --resume --name o -q
	[ "$(iterations_of o)" -eq 20 ]
}

@test "store: a killed runner's name is free at once, whatever got its pid" {
	"$SP" run pipe -p loops=200 -i $ENDLESS --name k -q 2>/dev/null &
	local runner=$!
	RUNNERS=$runner
	hold k
	kill -KILL "$runner"
	wait "$runner" || true
	kill -KILL -- "-$held"
	held=
	# its record stays; a live process with its pid (pid reuse) is not it
	[ "$(db 'SELECT writer_pid FROM batches')" -eq "$runner" ]
	db "UPDATE batches SET writer_pid = $$"
	shrink k 3
	sp run --resume --name k -q
	[ "$(db 'SELECT complete FROM batches')" -eq 1 ]
	[ "$(iterations_of k)" -ge 3 ]
}

# reads_change_nothing FILE WANT: runs, show, compare and export on FILE
# exit WANT with one line, and FILE and its directory are as they were.
# They run as $AS (a command prefix such as setpriv ...; none by default).
reads_change_nothing() {
	local file=$1 want=$2 before listing c
	before=$(sha256sum <"$file")
	listing=$(ls -a "$(dirname "$file")")
	for c in "runs" "show a" "compare a b" "export a b"; do
		# shellcheck disable=SC2086
		exit_is "$want" ${AS:-} "$SP" --db "$file" $c || { echo "command: $c"; return 1; }
	done
	[ "$(sha256sum <"$file")" = "$before" ]
	[ "$(ls -a "$(dirname "$file")")" = "$listing" ] ||
		{ echo "files appeared: $(ls -a "$(dirname "$file")")"; return 1; }
}

@test "store: reading another program's SQLite file changes nothing; it is refused, exit 2" {
	mkdir "$TMP/wal" "$TMP/rollback"
	sqlite3 "$TMP/wal/other.db" "PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1);" >/dev/null
	sqlite3 "$TMP/rollback/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (1);"
	reads_change_nothing "$TMP/wal/other.db" 2
	err_has "not a schedperf store"
	reads_change_nothing "$TMP/rollback/other.db" 2
	[ "$(sqlite3 "$TMP/rollback/other.db" 'PRAGMA journal_mode')" = delete ]
	[ -z "$(sqlite3 "$TMP/rollback/other.db" "SELECT name FROM sqlite_master WHERE name = 'runs'")" ]
	# writing commands refuse it too, before any change
	exit_is 2 "$SP" --db "$TMP/rollback/other.db" run pipe -p loops=10 -i 1 -q
	exit_is 2 "$SP" --db "$TMP/rollback/other.db" import \
		"$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	[ "$(sqlite3 "$TMP/rollback/other.db" 'PRAGMA journal_mode')" = delete ]
	# an empty file and a text file are no stores either
	mkdir "$TMP/plain"
	: >"$TMP/plain/empty.db"
	reads_change_nothing "$TMP/plain/empty.db" 2
	echo "some text" >"$TMP/plain/text.db"
	reads_change_nothing "$TMP/plain/text.db" 2
	err_has "not an SQLite database"
}

@test "store: a store never is, nor has, another database's -wal, -shm or -journal: exit 2" {
	mkdir "$TMP/n"
	local x="$TMP/n/x.db" y="$TMP/n/y.db" suffix sums
	sp --db "$x" run pipe -p loops=10 -i 1 --name main -q
	cp "$x" "$TMP/n/copy"
	sums() { sha256sum "$TMP"/n/* 2>/dev/null; ls -a "$TMP/n"; }
	for suffix in -wal -shm -journal; do
		# named as x.db's file: refused by every command, x.db untouched
		sums >"$TMP/before"
		exit_is 2 "$SP" --db "$x$suffix" run pipe -p loops=10 -i 1 --name precious -q
		err_has "the $suffix file of '$x'"
		exit_is 2 "$SP" --db "$x$suffix" import "$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
		exit_is 2 "$SP" --db "$x$suffix" db check
		ln -s "x.db$suffix" "$TMP/n/link.db"
		exit_is 2 "$SP" --db "$TMP/n/link.db" run pipe -p loops=10 -i 1 -q
		rm "$TMP/n/link.db"
		sums | cmp - "$TMP/before"
		# a store already there under that name (made before x.db, or copied)
		cp "$TMP/n/copy" "$x$suffix"
		sums >"$TMP/before"
		exit_is 2 "$SP" --db "$x" runs
		err_has "'$x$suffix' beside it is a schedperf store"
		exit_is 2 "$SP" --db "$x" run pipe -p loops=10 -i 1 -q
		exit_is 2 "$SP" --db "$x$suffix" runs
		# nor a new store whose -wal, -shm or -journal would be that store
		mv "$x$suffix" "$y$suffix"
		exit_is 2 "$SP" --db "$y" import "$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
		exit_is 2 "$SP" --db "$y" run pipe -p loops=10 -i 1 -q
		[ ! -e "$y" ]
		mv "$y$suffix" "$x$suffix"
		sums | cmp - "$TMP/before"
		sqlite3 "$x$suffix" 'SELECT name FROM runs' | grep -qx main
		rm "$x$suffix"
	done
	sp --db "$x" runs | grep -q '^main '
}

@test "store: a device or a FIFO is refused at once, exit 2, nothing created beside it" {
	mkdir "$TMP/dev"
	mknod "$TMP/dev/null" c 1 3 2>/dev/null || skip "cannot create a device node here"
	reads_change_nothing "$TMP/dev/null" 2
	err_has "it is a device"
	exit_is 2 "$SP" --db "$TMP/dev/null" run pipe -p loops=10 -i 1 -q
	[ ! -e "$TMP/dev/null-journal" ]
	[ ! -e "$TMP/dev/null-wal" ]
	exit_is 2 "$SP" --db /dev/null runs
	mkfifo "$TMP/dev/fifo"
	# with no writer, opening it would block: it is refused before that
	exit_is 2 timeout "${WAIT_LIMIT:-300}" "$SP" --db "$TMP/dev/fifo" runs
	err_has "it is a FIFO"
	exit_is 2 timeout "${WAIT_LIMIT:-300}" "$SP" --db "$TMP/dev/fifo" run pipe -p loops=10 -i 1 -q
}

@test "store: a store of a newer schema is left untouched by every command" {
	mkdir "$TMP/new"
	sp --db "$TMP/new/store.db" run pipe -p loops=10 -i 1 --name a -q
	sp --db "$TMP/new/store.db" run pipe -p loops=10 -i 1 --name b -q
	# a version no release has yet, whatever the current one is
	sqlite3 "$TMP/new/store.db" "PRAGMA user_version = 99"
	reads_change_nothing "$TMP/new/store.db" 3
	err_has "schema version 99 is newer"
	err_has "left untouched"
	exit_is 3 "$SP" --db "$TMP/new/store.db" run pipe -p loops=10 -i 1 --name a -q
	[ "$(sqlite3 "$TMP/new/store.db" 'PRAGMA user_version')" -eq 99 ]
	[ "$(sqlite3 "$TMP/new/store.db" 'SELECT count(*) FROM batches')" -eq 2 ]
}

@test "store: reading a store creates no file beside it and changes no byte" {
	mkdir "$TMP/s"
	sp --db "$TMP/s/store.db" run pipe -p loops=10 -i 2 --name a -q
	sp --db "$TMP/s/store.db" run pipe -p loops=10 -i 2 --name b -q
	reads_change_nothing "$TMP/s/store.db" 0
}

# kept_in NAME: the run "kept" of 2 iterations is read back from --db NAME
# (from $SCHEDPERF_DB when NAME is "").
kept_in() {
	exit_is 0 "$SP" ${1:+--db "$1"} export kept || return 1
	[ "$(json "len(d['runs'][0]['benchmarks'][0]['metrics'][0]['samples'])" "$TMP/out")" -eq 2 ]
}

@test "store: a --db of SQLite's own spelling (:memory:, file:NAME, '?') is a plain file name" {
	local name names=(':memory:' 'file:x.db' 'file:q.db?mode=memory' ':a?b#c%41 d é.db')
	mkdir "$TMP/w"
	cd "$TMP/w"
	# each is made under its own name, nothing else, and read back from it
	for name in "${names[@]}" "$TMP/w/file:abs.db?mode=ro"; do
		sp --db "$name" run pipe -p loops=10 -i 2 --name kept -q
		[ -f "$name" ] || { echo "'$name' not made: $(ls -A)"; return 1; }
		kept_in "$name"
	done
	SCHEDPERF_DB=:memory: kept_in ""
	exit_is 0 "$SP" --db file:foo.db import \
		"$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	exit_is 0 "$SP" --db file:foo.db runs
	grep -q '^x ' "$TMP/out"
	[ "$(ls -A | sort)" = "$(printf '%s\n' "${names[@]}" file:abs.db?mode=ro file:foo.db | sort)" ] ||
		{ echo "files: $(ls -A)"; return 1; }
}

@test "store: a readable store in a directory this user cannot write can be read" {
	command -v setpriv >/dev/null || skip "setpriv missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	local dir="$TMP/ro" as_nobody
	mkdir "$dir"
	# the machine's knob lock is read by all, in a directory all may enter, as /run
	export SCHEDPERF_TEST_RUNDIR="$TMP/run"
	mkdir "$SCHEDPERF_TEST_RUNDIR"
	sp --db "$dir/store.db" run pipe -p loops=10 -i 2 --name a -q
	sp --db "$dir/store.db" run pipe -p loops=10 -i 2 --name b -q
	chmod 755 "$TMP" "$dir" "$SCHEDPERF_TEST_RUNDIR"
	chmod 644 "$dir/store.db"
	as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	$as_nobody true || skip "cannot run as nobody here"
	AS=$as_nobody reads_change_nothing "$dir/store.db" 0
	$as_nobody "$SP" --db "$dir/store.db" export a >"$TMP/export.json"
	[ "$(json "len(d['runs'][0]['benchmarks'][0]['metrics'][0]['samples'])" "$TMP/export.json")" -eq 2 ]
	# writing it is refused, naming why
	exit_is 3 $as_nobody "$SP" --db "$dir/store.db" run pipe -p loops=10 -i 1 --name b -q
	err_has "not writable by this user"
	# an older store in such a directory is read as upgraded, and stays as it was
	sqlite3 "$dir/v1.db" <"$BATS_TEST_DIRNAME/../data/store-v1.sql"
	chmod 644 "$dir/v1.db"
	$as_nobody "$SP" --db "$dir/v1.db" export v1-pipe v1-fw >"$TMP/v1.json"
	same_json "$TMP/v1.json" "$BATS_TEST_DIRNAME/../data/store-v1.json"
	[ "$(sqlite3 "$dir/v1.db" 'PRAGMA user_version')" -eq 1 ]
}

@test "store: a reader through a link sees the commits in the -wal beside the link's target" {
	command -v setpriv >/dev/null || skip "setpriv missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	local as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups" live
	$as_nobody true || skip "cannot run as nobody here"
	export SCHEDPERF_TEST_RUNDIR="$TMP/run"
	mkdir "$SCHEDPERF_TEST_RUNDIR" "$TMP/a" "$TMP/b"
	chmod 755 "$TMP" "$TMP/b" "$SCHEDPERF_TEST_RUNDIR"
	chmod 777 "$TMP/a"
	sp --db "$TMP/a/s.db" run pipe -p loops=10 -i 1 --name done -q
	chmod 666 "$TMP/a/s.db"
	ln -s "$TMP/a/s.db" "$TMP/b/link.db"
	# the writer's run is committed to the target's -wal, not yet to the file
	"$SP" --db "$TMP/a/s.db" run pipe -p loops=20000 -i $ENDLESS --name going -q 3>&- &
	live=$!
	RUNNERS=$live
	SCHEDPERF_DB="$TMP/a/s.db" hold going
	# no -wal beside the link must not pass for "no writer": SQLite reads the target's
	exit_is 0 $as_nobody "$SP" --db "$TMP/b/link.db" runs
	grep -q '^going ' "$TMP/out" || { echo "not seen: $(cat "$TMP/out")"; return 1; }
	[ "$(ls -A "$TMP/b")" = link.db ]
	release_iteration
	kill -TERM "$live"
	wait "$live" || true
}

@test "store: a writer through a link is told of the directory beside the link's target" {
	command -v setpriv >/dev/null || skip "setpriv missing"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	local as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	$as_nobody true || skip "cannot run as nobody here"
	mkdir "$TMP/a" "$TMP/b"
	chmod 755 "$TMP" "$TMP/a"
	chmod 777 "$TMP/b"
	sp --db "$TMP/a/s.db" import "$BATS_TEST_DIRNAME/../data/store-v1.json"
	chmod 666 "$TMP/a/s.db"
	ln -s "$TMP/a/s.db" "$TMP/b/link.db"
	# the file is writable, the link's directory too; SQLite's -wal goes beside the target
	exit_is 3 $as_nobody "$SP" --db "$TMP/b/link.db" import \
		"$BATS_TEST_DIRNAME/../data/store-v1.json"
	err_has "cannot write store '$TMP/b/link.db': its directory is not writable by this user"
	[ "$(ls -A "$TMP/b")" = link.db ]
}

@test "store: a full disk while creating a store: 'no space', exit 3, no file left" {
	MNT="$TMP/mnt"
	mkdir -p "$MNT"
	mount -t tmpfs -o size=256k tmpfs "$MNT" 2>/dev/null ||
		skip "cannot mount a tmpfs here (needs root)"
	dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null || true
	exit_is 3 "$SP" --db "$MNT/store.db" run pipe -p loops=10 -i 1 --name a -q
	err_has "no space left on device"
	err_has "free disk space"
	grep -q "integrity_check\|another --db\|another file" "$TMP/err" && return 1
	[ "$(ls "$MNT")" = fill ]
	exit_is 3 "$SP" --db "$MNT/store.db" import \
		"$BATS_TEST_DIRNAME/../fuzz/corpus/fuzz_import/minimal.json"
	err_has "no space left on device"
	[ "$(ls "$MNT")" = fill ]
	# with room again, the store is made (a new store's file and its journal
	# take some 250 KiB while it is made: beyond them it is never half made)
	rm "$MNT/fill"
	mount -o remount,size=1m "$MNT"
	"$SP" --db "$MNT/store.db" run pipe -p loops=10 -i 1 --name a -q
	[ "$(sqlite3 "$MNT/store.db" 'PRAGMA integrity_check')" = ok ]
}

# stop_while_made DB PID: stop the run PID as soon as the temporary file of
# the store DB it makes is there (bash's builtins only, to be quick), and
# succeed when it is still there with PID stopped; fails, PID running or
# gone, when the run was past it first.
stop_while_made() {
	local state

	until compgen -G "$1.tmp.*" >/dev/null; do
		[ -e "/proc/$2" ] || return 1
	done
	kill -STOP "$2" 2>/dev/null || return 1
	until read -r _ _ state _ <"/proc/$2/stat" && [ "$state" = T ]; do
		[ -e "/proc/$2" ] && [ "$state" != Z ] || return 1
	done 2>/dev/null
	compgen -G "$1.tmp.*" >/dev/null
}

@test "store: a signal while a store is made removes its temporary file and journals" {
	local db="$TMP/new.db" pid hits=0 try sig

	for try in 1 2 3 4 5 6; do
		rm -f "$db" "$db"-*
		sig=TERM
		[ $((try % 2)) -eq 0 ] && sig=HUP
		"$SP" --db "$db" run pipe -p loops=10 -i 1 -q 3>&- &
		pid=$!
		stop_while_made "$db" "$pid" && hits=$((hits + 1))
		kill -"$sig" "$pid" 2>/dev/null || true
		kill -CONT "$pid" 2>/dev/null || true
		wait_for all_gone "$pid"
		if compgen -G "$db.tmp.*" >/dev/null; then
			echo "try $try (SIG$sig) left: $(ls "$TMP")"
			return 1
		fi
	done
	# every try may have missed the store being made, and then tested nothing
	[ "$hits" -gt 0 ] || { echo "no try stopped the run while it made the store"; return 1; }
	rm -f "$db" "$db"-*
	"$SP" --db "$db" run pipe -p loops=10 -i 1 -q
	[ "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok ]
	[ "$(ls "$TMP")" = new.db ]
}

@test "store: a PostgreSQL server that is not there: exit 3, no password shown" {
	exit_is 3 "$SP" --db "postgresql://analyst:s3cret@/results?host=$TMP/nowhere" runs
	err_has "cannot open store 'postgresql://analyst@/results"
	grep -q s3cret "$TMP/err" && return 1
	exit_is 3 "$SP" --db "postgres:///results?host=$TMP/nowhere&password=s3cret" run pipe -i 1 -q
	grep -q s3cret "$TMP/err" && return 1
	return 0
}

@test "store: a PostgreSQL URL libpq cannot read is bad input: exit 2, libpq's why, no password shown" {
	exit_is 2 "$SP" --db "postgresql://analyst:s3cret@[::1/results" runs
	err_has "cannot open store 'postgresql://analyst@"
	err_has 'IPv6 host address'
	err_has "give a URL such as postgresql://HOST/DATABASE"
	grep -q s3cret "$TMP/err" && return 1
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	exit_is 2 "$SP" --db "postgresql:///results?bogus=1&password=s3cret" run pipe -i 1 -q
	err_has 'invalid URI query parameter: "bogus"'
	grep -q s3cret "$TMP/err" && return 1
	# a setting libpq refuses before it looks for a server (none is there)
	local u="postgresql://analyst:s3cret@/results?host=$TMP/nowhere"
	exit_is 2 "$SP" --db "$u&port=99999999" runs
	err_has 'invalid port number: "99999999" (fix that setting of the URL)'
	exit_is 2 "$SP" --db "$u&sslmode=bogus" runs
	err_has 'invalid sslmode value: "bogus"'
	exit_is 2 "$SP" --db "$u&port=x" runs
	err_has 'invalid integer value "x" for connection option "port"'
	exit_is 2 "$SP" --db "$u&port=1,2" runs
	grep -q s3cret "$TMP/err" && return 1
	[ "$(wc -l <"$TMP/err")" -eq 1 ]
	return 0
}

@test "store: no PostgreSQL URL shows its password: percent-encoded, given twice, its key encoded, an '@' in it" {
	local url
	for url in "postgresql://analyst:%zzs3cret@localhost/results" \
		"postgresql://analyst:s3%00cret@localhost/results" \
		"postgresql:///results?password=s3%zzcret" \
		"postgresql:///results?password=a&password=s3cret&bogus=1" \
		"postgresql:///results?pass%77ord=s3cret&bogus=1" \
		"postgresql:///results?PASSWORD=s3cret" \
		"postgresql://analyst:p@s3cret@localhost:1/results" \
		"postgresql://analyst:s3cret/x@localhost/results"; do
		"$SP" --db "$url" runs >"$TMP/out" 2>"$TMP/err" && return 1
		[ "$(wc -l <"$TMP/err")" -eq 1 ]
		grep -q s3 "$TMP/err" && { cat "$TMP/err"; return 1; }
		err_has "cannot open store 'postgresql:"
	done
	return 0
}

@test "store: a libpq connection string or a URL of no driver's scheme is refused, exit 2, no file made, no password shown" {
	cd "$TMP"
	exit_is 2 "$SP" --db "host=localhost password=s3cret dbname=results" run pipe -p loops=10 -i 1 -q
	err_has "give --db postgresql://HOST/DATABASE"
	exit_is 2 "$SP" --db "POSTGRESQL://analyst:s3cret@localhost/results" run pipe -p loops=10 -i 1 -q
	err_has "no store is reached by a URL of POSTGRESQL://"
	exit_is 2 "$SP" --db "mysql://localhost/results" runs
	grep -rq s3cret "$TMP" && return 1
	[ -z "$(ls "$TMP" | grep -v -e '^out$' -e '^err$')" ]
}

# A PostgreSQL URL without its "//", or the scheme's word alone, made an
# SQLite file so named, and the run went there unnoticed.
@test "store: a --db that reads as a mistyped PostgreSQL URL is refused, exit 2, no file made" {
	local db
	cd "$TMP"
	for db in postgresql: postgres: postgres:results POSTGRESQL:/results postgres postgresql \
		Postgres; do
		exit_is 2 "$SP" --db "$db" run pipe -p loops=10 -i 1 -q
		err_has "or --db ./$db for "
	done
	err_has "^schedperf: --db 'Postgres' would be a file so named in this directory, not a \
PostgreSQL store (give --db postgres://HOST/DATABASE, or --db ./Postgres for the file)$"
	exit_is 2 "$SP" --db postgresql:x runs
	err_has "^schedperf: --db 'postgresql:x' is not a PostgreSQL URL, which begins \
postgresql:// (give --db postgresql://HOST/DATABASE, or --db ./postgresql:x for a file so named)$"
	[ -z "$(ls "$TMP" | grep -v -e '^out$' -e '^err$')" ]
	# a file so named, as the refusal says, and names that only begin so
	sp --db ./postgres run pipe -p loops=10 -i 1 --name a -q
	sp --db postgres.db run pipe -p loops=10 -i 1 --name a -q
	sp --db postgresql-results run pipe -p loops=10 -i 1 --name a -q
	[ "$(sqlite3 "$TMP/postgres" 'SELECT count(*) FROM runs')" -eq 1 ]
	[ -s postgres.db ]
	[ -s postgresql-results ]
}

@test "store: a --db that is a dangling symbolic link is refused, exit 2, nothing made" {
	ln -s "$TMP/target.db" "$TMP/link.db"
	exit_is 2 "$SP" --db "$TMP/link.db" run pipe -p loops=10 -i 1 -q
	err_has "it is a symbolic link to a file that does not exist"
	exit_is 2 "$SP" --db "$TMP/link.db" import "$BATS_TEST_DIRNAME/../data/store-v1.json"
	[ ! -e "$TMP/target.db" ]
	[ "$(ls "$TMP" | grep -c '^target')" -eq 0 ]
	# a link to a store is followed as ever
	sp --db "$TMP/target.db" run pipe -p loops=10 -i 1 --name a -q
	sp --db "$TMP/link.db" run pipe -p loops=10 -i 1 --name b -q
	[ "$(sqlite3 "$TMP/target.db" 'SELECT count(*) FROM runs')" -eq 2 ]
}

@test "store: a hand-edited seq anywhere in 64 bits is read without overflow (UBSan)" {
	"$SP" run pipe -p loops=10 -i 3 --name a -q
	"$SP" run pipe -p loops=10 -i 2 --name b -q
	for seq in -9223372036854775808 9223372036854775807; do
		sqlite3 "$SCHEDPERF_DB" "UPDATE iterations SET seq = $seq WHERE id = 1"
		"$SP" show a >/dev/null
		"$SP" compare a b >/dev/null
		"$SP" export a b >/dev/null
		"$SP" report -o "$TMP/r.html" a b
	done
	sqlite3 "$SCHEDPERF_DB" "UPDATE iterations SET id = 9223372036854775807 WHERE id = 2"
	"$SP" show a >/dev/null
	"$SP" export a >/dev/null
}

@test "store: a bisection record that cannot be read is a damaged store; missing fields are said missing" {
	"$SP" run pipe -p loops=10 -i 1 --name a -q
	sqlite3 "$SCHEDPERF_DB" "INSERT INTO bisections (repo, machine, state, started, doc)
		VALUES ('/r', 'm', 'done', '2026-01-01T00:00:00Z', '{}')"
	run "$SP" bisect --show
	[ "$status" -eq 0 ]
	[[ "$output" == *"alpha missing per step, margin missing %"* ]]
	[[ "$output" != *nan* ]]
	run "$SP" bisect --show --format markdown
	[[ "$output" == *"alpha missing per step"* ]]
	[[ "$output" != *nan* ]]
	for doc in '{not json' '[1]'; do
		sqlite3 "$SCHEDPERF_DB" "UPDATE bisections SET doc = '$doc'"
		run "$SP" bisect --show
		[ "$status" -eq 3 ]
		assert_one_line_error
		[[ "$output" == *"the record of bisection 1 is not a JSON object: the store is damaged ("*")" ]]
		run "$SP" bisect --list
		[ "$status" -eq 0 ]
		[[ "$output" == *"/r: damaged record (not JSON)"* ]]
	done
}

@test "store: hand-edited packed samples (an import's) are a damaged store: exit 3, one line" {
	cat > "$TMP/bare.json" <<'JSON'
{"schema": "schedperf-results/1", "runs": [
 {"name": "p", "started": "2026-01-01T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "seconds",
   "unit": "s", "better": "lower", "samples": [1.5, 2.5, 3.5]}]}]},
 {"name": "q", "started": "2026-01-02T00:00:00Z", "complete": true, "environment": {},
  "benchmarks": [{"workload": "w", "params": {}, "metrics": [{"name": "seconds",
   "unit": "s", "better": "lower", "samples": [1.25, 2.25, 3.25]}]}]}]}
JSON
	"$SP" import "$TMP/bare.json"
	[ "$(db 'SELECT count(*) FROM packed_samples')" -eq 2 ]
	[ "$(db 'SELECT count(*) FROM samples')" -eq 0 ]
	cp "$SCHEDPERF_DB" "$TMP/good.db"
	run "$SP" db check
	[ "$status" -eq 0 ]
	# an infinity's bits, a digit too few, a letter that is no hex digit, a part
	# missing, a count that is not the values': db check says why, exit 1
	local i edits=("hex = '7ff0000000000000' || substr(hex, 17)" "hex = substr(hex, 2)" \
		"hex = 'g' || substr(hex, 2)" "part = part + 1" "present = present + 1")
	local whys=("hold a value that is not a finite number" "are not whole values" \
		"are not hex digits" "lack a part" "are not as many as their count")
	for i in "${!edits[@]}"; do
		cp "$TMP/good.db" "$SCHEDPERF_DB"
		db "UPDATE packed_samples SET ${edits[i]}"
		for cmd in "compare p q" "export p" "history" "show p"; do
			run $SP $cmd
			[ "$status" -eq 3 ]
			assert_one_line_error
			[[ "$output" == *"of metric 'seconds' ${whys[i]}: the store was "* ]]
		done
		run "$SP" db check
		[ "$status" -eq 1 ]
		[[ "$output" == *"state:          damaged"* ]]
		[ "${lines[-1]}" = "schedperf: db check: store '$SCHEDPERF_DB' is damaged: the $(
			)packed samples of metric 'seconds' of run 'p' ${whys[i]} (restore the $(
			)store from a backup)" ]
	done
	# a NaN's bits are an absent value, as a sample with no row
	cp "$TMP/good.db" "$SCHEDPERF_DB"
	db "UPDATE packed_samples SET hex = '7ff8000000000000' || substr(hex, 17),
		present = present - 1"
	run $SP export p
	[ "$status" -eq 0 ]
	[[ "$(tr -d ' \n' <<<"$output")" == *'"samples":[2.5,3.5]'* ]]
	run "$SP" db check
	[ "$status" -eq 0 ]
	# a run's samples are rows: a part of packed samples beside them is not theirs
	"$SP" run pipe -p loops=10 -i 2 --name r -q
	db "INSERT INTO packed_samples SELECT metric_id, 0, 0, 1, '3ff0000000000000'
		FROM samples LIMIT 1"
	run $SP show r
	[ "$status" -eq 3 ]
	assert_one_line_error
	[[ "$output" == *"the packed samples of metric '"*"' are stored beside rows of its "* ]]
	run "$SP" db check
	[ "$status" -eq 1 ]
	[[ "${lines[-1]}" == "schedperf: db check: store '"*"is damaged: the packed samples of $(
		)metric '"*"' of run 'r' are stored beside rows of its samples ("* ]]
}

@test "store: db check reads every part of packed samples, pages of them, on a read-only file" {
	# 40 runs of a metric of 3 warm-ups and 3 values: 80 parts, pages of 16
	"$PYTHON" -c 'import json
runs = [{"name": "r%d" % i, "started": "2026-01-01T00:00:%02dZ" % i, "complete": True,
	"environment": {}, "benchmarks": [{"workload": "w", "params": {}, "metrics": [
	{"name": "seconds", "unit": "s", "better": "lower", "warmup": [9, 8, 7],
	 "samples": [1.5, 2.5, 3.5]}]}]} for i in range(40)]
print(json.dumps({"schema": "schedperf-results/1", "runs": runs}))' >"$TMP/many.json"
	"$SP" import "$TMP/many.json"
	[ "$(db 'SELECT count(*) FROM packed_samples')" -eq 80 ]
	run "$SP" db check
	[ "$status" -eq 0 ]
	# the last part of all, and a part at a page's end
	for metric in "SELECT max(metric_id) FROM packed_samples" \
		"SELECT metric_id FROM packed_samples ORDER BY 1 LIMIT 1 OFFSET 15"; do
		cp "$SCHEDPERF_DB" "$TMP/damaged.db"
		sqlite3 "$TMP/damaged.db" "UPDATE packed_samples SET present = 2
			WHERE metric_id = ($metric) AND part = 1"
		chmod 444 "$TMP/damaged.db"
		run "$SP" --db "$TMP/damaged.db" db check
		[ "$status" -eq 1 ]
		[[ "${lines[-1]}" == *"is damaged: the packed samples of metric 'seconds' of $(
			)run 'r"*"' are not as many as their count ("* ]]
		rm -f "$TMP/damaged.db"
	done
	[ ! -e "$TMP/damaged.db-wal" ]
}

@test "store: a hand-edited infinite sample is a damaged store: every reader says so, exit 3, none hangs" {
	"$SP" run pipe -p loops=10 -i 3 --name a -q
	"$SP" run pipe -p loops=10 -i 3 --name b -q
	# SQLite keeps 1e999 as an infinity; once, compare --format json looped for ever on it
	sqlite3 "$SCHEDPERF_DB" "UPDATE samples SET value = 1e999"
	for cmd in "compare a b" "compare --format json a b" "compare --style lkp a b" \
		"export a" "history" "detect" "show a"; do
		run $SP $cmd
		[ "$status" -eq 3 ]
		assert_one_line_error
		[[ "$output" == *"a sample of metric '"*"' is inf, not a finite number: the store was "* ]]
	done
}

@test "store: a hand-edited text sample is a damaged store, exit 3, never read as 0.0" {
	"$SP" run pipe -p loops=10 -i 3 --name a -q
	"$SP" run pipe -p loops=10 -i 3 --name b -q
	# SQLite reads text as 0.0, or as its leading digits ('12abc': 12)
	for v in "'abc'" "'12abc'" "x'00'"; do
		sqlite3 "$SCHEDPERF_DB" "UPDATE samples SET value = $v WHERE (iteration_id, $(
			)metric_id) = (SELECT iteration_id, metric_id FROM samples LIMIT 1)"
		for cmd in "compare a b" "export a" "history" "detect" "show a"; do
			run $SP $cmd
			[ "$status" -eq 3 ] || { echo "$v $cmd: $output"; false; }
			assert_one_line_error
			[[ "$output" == *"a sample of metric '"*"' is not a number: the store was "* ]]
		done
	done
}
