#!/usr/bin/env bats
# Every -o (export, report) against every kind of existing file: a store,
# whatever its name or link, and the files SQLite keeps beside one are never
# replaced (exit 2, one line, before anything is written); a directory,
# block device or socket is refused; a read-only file is kept (exit 3); a
# FIFO or character device is written in place; an ordinary file is
# replaced whole.

load helpers

setup_file() {
	export TEMPLATE="$BATS_FILE_TMPDIR/template.db"
	"$SCHEDPERF" --db "$TEMPLATE" run pipe -p loops=100 -i 2 --name a -q --no-monitors
}

setup() {
	TMP=$(mktemp -d)
	export SCHEDPERF_DB="$TMP/store.db"
	SP="$SCHEDPERF"
	ERR="$BATS_TEST_TMPDIR/err"	# outside the directories the tests list
	cp "$TEMPLATE" "$SCHEDPERF_DB"
	# gnuplot's charts are not what these tests are about
	mkdir "$TMP/bin"
	PATH_NO_GNUPLOT="$TMP/bin:/usr/bin:/bin"
	for t in sha256sum cat; do ln -s "$(command -v $t)" "$TMP/bin/$t"; done
}

# refused WANT FILE: export and report into FILE exit WANT with one line,
# FILE (and what it leads to), the store and the directory are as before.
refused() {
	local want=$1 file=$2 before after listing rc cmd
	before=$(sha256sum "$file" 2>/dev/null; sha256sum "$SCHEDPERF_DB")
	listing=$(ls -a "$(dirname "$file")")
	for cmd in export report; do
		rc=0
		PATH=$PATH_NO_GNUPLOT "$SP" $cmd a -o "$file" >/dev/null 2>"$ERR" </dev/null ||
			rc=$?
		[ "$rc" -eq "$want" ] && [ "$(wc -l <"$ERR")" -eq 1 ] &&
			grep -q "^schedperf: " "$ERR" ||
			{ echo "$cmd -o $file: exit $rc, expected $want: $(cat "$ERR")"; return 1; }
		after=$(sha256sum "$file" 2>/dev/null; sha256sum "$SCHEDPERF_DB")
		[ "$before" = "$after" ] || { echo "$cmd -o $file changed it"; return 1; }
		[ "$listing" = "$(ls -a "$(dirname "$file")")" ] ||
			{ echo "$cmd -o $file left a file"; return 1; }
	done
	sp runs | grep -q '^a '
}

@test "-o never replaces the store in use, through any name or link" {
	refused 2 "$SCHEDPERF_DB"
	grep -q "it is a schedperf store" "$ERR"
	mkdir "$TMP/sub"
	refused 2 "$TMP/sub/../store.db"
	refused 2 "$TMP/./store.db"
	(cd "$TMP" && refused 2 store.db)
	ln -s "$SCHEDPERF_DB" "$TMP/sub/link.json"
	refused 2 "$TMP/sub/link.json"
	ln -s link.json "$TMP/sub/link2.json"
	refused 2 "$TMP/sub/link2.json"
	ln "$SCHEDPERF_DB" "$TMP/sub/hard.json"
	refused 2 "$TMP/sub/hard.json"
}

@test "-o never replaces another store, an SQLite database, or their -wal, -shm, -journal" {
	mkdir "$TMP/o"
	sp --db "$TMP/o/other.db" db init -q
	refused 2 "$TMP/o/other.db"
	# a store left by a killed writer: its -wal and -shm files are on disk
	"$PYTHON" - "$TMP/o/x.db" <<-'EOF'
	import os, sqlite3, sys
	c = sqlite3.connect(sys.argv[1])
	c.execute('PRAGMA journal_mode=WAL'); c.execute('CREATE TABLE t(a)'); c.commit()
	os.link(sys.argv[1] + '-wal', os.path.dirname(sys.argv[1]) + '/wal-copy')
	os.link(sys.argv[1] + '-shm', os.path.dirname(sys.argv[1]) + '/shm-copy')
	os._exit(0)
	EOF
	[ -s "$TMP/o/x.db-wal" ]
	[ -s "$TMP/o/x.db-shm" ]
	refused 2 "$TMP/o/x.db"
	grep -q "it is an SQLite database" "$ERR"
	refused 2 "$TMP/o/x.db-wal"
	refused 2 "$TMP/o/x.db-shm"
	# by their contents, whatever their names
	refused 2 "$TMP/o/wal-copy"
	grep -q "write-ahead log" "$ERR"
	refused 2 "$TMP/o/shm-copy"
	grep -q "shared-memory index" "$ERR"
	printf '\xd9\xd5\x05\xf9\x20\xa1\x63\xd7' >"$TMP/o/journal-copy"
	refused 2 "$TMP/o/journal-copy"
	# by their names, where they are not (yet) on disk
	refused 2 "$SCHEDPERF_DB-wal"
	refused 2 "$SCHEDPERF_DB-journal"
	[ ! -e "$SCHEDPERF_DB-journal" ]
	ln -s store.db-shm "$TMP/to-shm"
	refused 2 "$TMP/to-shm"
}

@test "-o refuses a directory, a block device, a socket, a read-only file, an empty name" {
	mkdir "$TMP/dir"
	refused 2 "$TMP/dir"
	grep -q "it is a directory" "$ERR"
	echo keep >"$TMP/plain.json"
	ln -s dir "$TMP/to-dir"
	refused 2 "$TMP/to-dir"
	if mknod "$TMP/blk" b 7 200 2>/dev/null; then
		refused 2 "$TMP/blk"
		grep -q "block device" "$ERR"
	fi
	"$PYTHON" -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$TMP/sock"
	refused 2 "$TMP/sock"
	# kept even for root, who could write it
	echo keep >"$TMP/ro.json"
	chmod 444 "$TMP/ro.json"
	refused 3 "$TMP/ro.json"
	grep -q "read-only" "$ERR"
	[ "$(cat "$TMP/ro.json")" = keep ]
	# a name that can only be a directory's, existing or not: refused before
	# writing, not a failure to name the temporary beside it once written
	refused 2 "$TMP/new.html/"
	grep -q "a name ending in '/', '.' or '..' names a directory" "$ERR"
	refused 2 "$TMP/dir/"
	refused 2 "$TMP/dir/."
	refused 2 "$TMP/dir/.."
	refused 2 "$TMP/plain.json/"
	run sp report a -o ''
	[ "$status" -eq 2 ]
	assert_one_line_error
	run sp export a -o ''
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "-o replaces an ordinary file whole, writes a FIFO, a device or a symbolic link in place" {
	echo old >"$TMP/plain.json"
	sp export a -o "$TMP/plain.json"
	json 'd["runs"][0]["name"]' "$TMP/plain.json" | grep -qx a
	sp export a >"$TMP/expected.json"
	cmp "$TMP/plain.json" "$TMP/expected.json"
	echo old >"$TMP/page.html"
	PATH=$PATH_NO_GNUPLOT sp report a -o "$TMP/page.html"
	grep -q '<html' "$TMP/page.html"
	# a link to an ordinary file: the file written, the link kept
	echo old >"$TMP/target.json"
	ln -s target.json "$TMP/link.json"
	sp export a -o "$TMP/link.json"
	[ -L "$TMP/link.json" ]
	cmp "$TMP/target.json" "$TMP/expected.json"
	sp export a -o /dev/null
	mkfifo "$TMP/fifo"
	cat "$TMP/fifo" >"$TMP/from-fifo" &
	sp export a -o "$TMP/fifo"
	wait $!
	cmp "$TMP/from-fifo" "$TMP/expected.json"
	[ -p "$TMP/fifo" ]
}

@test "-o keeps the mode of the file it replaces; a new file has the umask's" {
	# an export holds the host name, the machine id, the kernel command line
	for mode in 600 640 604; do
		echo old >"$TMP/private.json"
		chmod "$mode" "$TMP/private.json"
		sp export a -o "$TMP/private.json"
		[ "$(stat -c %a "$TMP/private.json")" = "$mode" ] || { echo "export $mode"; return 1; }
		json 'd["runs"][0]["name"]' "$TMP/private.json" | grep -qx a
		echo old >"$TMP/page.html"
		chmod "$mode" "$TMP/page.html"
		PATH=$PATH_NO_GNUPLOT sp report a -o "$TMP/page.html"
		[ "$(stat -c %a "$TMP/page.html")" = "$mode" ] || { echo "report $mode"; return 1; }
		grep -q '<html' "$TMP/page.html"
	done
	(umask 027 && sp export a -o "$TMP/new.json")
	[ "$(stat -c %a "$TMP/new.json")" = 640 ]
}

@test "-o - is standard output, as import - is standard input; ./- is a file named -" {
	sp export a >"$TMP/expected.json"
	(cd "$TMP" && "$SP" export a -o - >"$TMP/dash.json")
	[ ! -e "$TMP/-" ]
	cmp "$TMP/dash.json" "$TMP/expected.json"
	sp import - --db "$TMP/other.db" <"$TMP/dash.json"
	(cd "$TMP" && PATH=$PATH_NO_GNUPLOT "$SP" report a -o - >"$TMP/page.html")
	[ ! -e "$TMP/-" ]
	grep -q '<html' "$TMP/page.html"
	(cd "$TMP" && "$SP" export a -o ./-)
	cmp "$TMP/-" "$TMP/expected.json"
	# a full standard output is an error, not a silent loss
	local rc=0
	sp export a -o - >/dev/full 2>"$ERR" || rc=$?
	[ "$rc" -eq 3 ] && [ "$(wc -l <"$ERR")" -eq 1 ] && grep -q "^schedperf: " "$ERR"
}

@test "-o never replaces this machine's knob journal, the journal being written, or the locks" {
	local dir=$SCHEDPERF_TEST_RUNDIR
	: >"$ERR"	# in that directory too: made before its listing is taken
	echo '{"schema": "schedperf-knobs/1"}' >"$dir/schedperf-knobs.journal"
	: >"$dir/schedperf-knobs.lock"
	refused 2 "$dir/schedperf-knobs.journal"
	grep -q "it is this machine's knob journal" "$ERR"
	refused 2 "$dir/schedperf-knobs.journal.new"
	refused 2 "$dir/schedperf-knobs.lock"
	grep -q "it is the lock of this machine's settings" "$ERR"
	: >"$dir/schedperf-worker.lock"
	refused 2 "$dir/schedperf-worker.lock"
	grep -q "it is the lock of this machine's worker" "$ERR"
	(cd "$dir" && refused 2 ./schedperf-knobs.journal)
	ln -s "$dir/schedperf-knobs.journal" "$TMP/journal.json"
	refused 2 "$TMP/journal.json"
	ln "$dir/schedperf-knobs.lock" "$TMP/lock.json"
	refused 2 "$TMP/lock.json"
	# no journal now: a page under its name would make every command that
	# measures refuse, and a journal written later would replace the page
	rm "$dir/schedperf-knobs.journal"
	refused 2 "$dir/schedperf-knobs.journal"
	[ ! -e "$dir/schedperf-knobs.journal" ]
	ln -s "$dir/schedperf-knobs.journal.new" "$TMP/next.json"
	refused 2 "$TMP/next.json"
	[ ! -e "$dir/schedperf-knobs.journal.new" ]
	# without the tests' directory they are /run's (a private /run: the machine's is never touched)
	command -v unshare >/dev/null && unshare -m true 2>/dev/null || return 0
	run unshare -m sh -c 'mount -t tmpfs none /run || exit 1
		unset SCHEDPERF_TEST_RUNDIR
		echo keep >/run/schedperf-knobs.journal
		"$0" export a -o /run/schedperf-knobs.journal; echo "export: $?"
		cat /run/schedperf-knobs.journal' "$SP"
	[ "${lines[1]}" = "export: 2" ]
	[ "${lines[2]}" = "keep" ]
	# and with it, /run's as well: nothing run under a test reaches the machine's
	run unshare -m sh -c 'mount -t tmpfs none /run || exit 1
		echo keep >/run/schedperf-knobs.journal
		: >/run/schedperf-knobs.lock
		"$0" export a -o /run/schedperf-knobs.journal; echo "export: $?"
		"$0" export a -o /run/schedperf-knobs.lock; echo "export: $?"
		"$0" export a -o /run/schedperf-knobs.journal.new; echo "export: $?"
		cat /run/schedperf-knobs.journal /run/schedperf-knobs.lock
		ls /run' "$SP"
	echo "$output"
	[ "${lines[1]}" = "export: 2" ]
	[ "${lines[3]}" = "export: 2" ]
	[ "${lines[5]}" = "export: 2" ]
	[ "${lines[6]}" = "keep" ]
	[ "${#lines[@]}" -eq 9 ]
}
