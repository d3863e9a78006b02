// SPDX-License-Identifier: GPL-2.0
/*
 * Opening an SQLite store: one file, WAL journal. A command that writes
 * creates the store when it is missing, switches it to WAL and upgrades its
 * schema (the caller's @upgrade, store/schema.c: this file knows files, not
 * tables). A command that reads creates nothing, not even SQLite's -wal,
 * -shm or -journal files, nor a schema:
 *
 *  - only a regular file that starts as an SQLite file is opened (a FIFO
 *    would block, /dev/null would get a /dev/null-journal);
 *  - a store with a -wal file (a writer has it open, or was killed) is
 *    opened read-only, read through that -wal;
 *  - else, where the file and its directory are writable, read-write with
 *    query_only set: SQLite then removes the -wal and -shm it makes when it
 *    closes, where a read-only connection would leave them behind;
 *  - else (a read-only file system, someone else's directory, a disk too
 *    full for a -shm) immutable: no -shm, no locks, safe as no -wal exists;
 *  - a store of an older schema is copied into memory and upgraded there;
 *  - another database's -wal, -shm or -journal file, or a name whose own
 *    such file is a database, is refused: SQLite would write over that
 *    database and remove it (check_neighbours()).
 *
 * SQLite keeps the -wal and -shm beside a symbolic link's target, so every
 * check, and the connection, is made on the path realpath() resolved once
 * (sqlite_open()); messages name the location as given.
 *
 * A new store is made under a temporary name and linked into place only
 * once its schema is committed, so that a full disk or a kill leaves no
 * empty file that later commands would take for a store; a terminating
 * signal meanwhile removes that temporary file and its journals too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "store/sqlite/sqlite.h"
#include "util/array.h"
#include "util/signals.h"
#include "util/sqlite_file.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static int open_error(const char *location, const char *path, const char *why,
		      struct error *err)
{
	if (sqlite_read_only(location, path, "open", err))
		return -1;
	return error_set(err, EXIT_ENV, "cannot open store '%s': %s (check the path and its "
			 "permissions, or give another --db)", location, why);
}

/* A path the system refuses as too long (ENAMETOOLONG) is the user's to shorten. */
static int path_too_long(const char *location, struct error *err)
{
	return error_set(err, EXIT_USAGE, "cannot use '%.64s...' as a store: the path, or a name "
			 "in it, is too long (give a shorter --db)", location);
}

/*
 * "file:PATH?OPTION", PATH escaped as RFC 3986 asks of an SQLite URI, and "./" before a
 * relative one: a plain ":memory:" or "file:x" would be SQLite's, not the file checked.
 */
static char *file_uri(const char *path, const char *option)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(path);
	char *uri = xmalloc(7 + 3 * len + 2 + strlen(option)), *p = uri;

	p += sprintf(p, "file:%s", *path == '/' ? "//" : "./");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/-._~", *c)) {
			*p++ = (char)*c;
		} else {
			*p++ = '%';
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
		}
	}
	sprintf(p, "?%s", option);
	return uri;
}

/*
 * SQLite's busy timeout, in steps short enough that a caught signal (Ctrl-C)
 * ends a wait for another writer's lock at once: the statement fails as
 * busy, rolled back whole, and the command says it was interrupted.
 */
#define LOCK_STEP_MS 10
static int wait_for_lock(void *unused, int tries)
{
	if (signals_caught() || tries >= store_busy_timeout_ms() / LOCK_STEP_MS)
		return 0;
	time_sleep_until(time_now() + LOCK_STEP_MS / 1000.0);
	return !signals_caught();
}

/* A connection to @file (URI @option): @path resolved, or a new store's temporary name. */
static struct sqlite_store *connect(const char *location, const char *path, const char *file,
				    const char *option, int flags, struct error *err)
{
	struct sqlite_store *ss = xcalloc(1, sizeof(*ss));
	char *uri = file_uri(file, option);
	int rc;

	ss->base.driver = &store_sqlite;
	ss->base.location = xstrdup(location);
	ss->path = xstrdup(path);
	/* One thread a connection: SQLite's mutexes were 7 % of reading 100,000 benchmarks. */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	rc = sqlite3_open_v2(uri, &ss->db, flags | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		open_error(location, path, ss->db ? sqlite3_errmsg(ss->db) : sqlite3_errstr(rc),
			   err);
		sqlite_close(&ss->base);
		return NULL;
	}
	sqlite3_extended_result_codes(ss->db, 0);
	sqlite3_busy_handler(ss->db, wait_for_lock, NULL);
	if (sqlite_exec(&ss->base, SQLITE_FOREIGN_KEYS_ON, err, "enable foreign keys")) {
		sqlite_close(&ss->base);
		return NULL;
	}
	return ss;
}

void sqlite_close(struct store *st)
{
	struct sqlite_store *ss = sqlite_of(st);

	sqlite_finalize_all(ss);
	sqlite3_close(ss->db);
	free(ss->base.location);
	free(ss->path);
	free(ss);
}

/*
 * Switch the journal to WAL. Two processes opening a new store both try, and
 * SQLite answers SQLITE_BUSY at once where waiting could deadlock, without
 * its busy handler: the busy timeout is applied here, by retrying.
 */
static int switch_to_wal(struct sqlite_store *ss, struct error *err)
{
	double deadline = time_now() + store_busy_timeout_ms() / 1000.0;
	double pause = 0.001;
	int rc;

	for (;;) {
		rc = sqlite3_exec(ss->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);
		if (rc != SQLITE_BUSY || time_now() + pause > deadline || signals_caught())
			break;
		time_sleep_until(time_now() + pause);
		if (pause < 0.05)
			pause *= 2;
	}
	if (rc != SQLITE_OK)
		return sqlite_error(ss, err, "switch the journal to WAL");
	return sqlite_exec(&ss->base, "PRAGMA synchronous = NORMAL", err, "set synchronous mode");
}

/* What the first 100 bytes say, read without SQLite: nothing is created. */
enum file_kind {
	FILE_EMPTY,
	FILE_SQLITE,
};

/* A file of size 0 that the kernel makes as it is read (/proc, /sys): no store. */
static bool kernel_file(int fd)
{
	struct statfs fs;
	char byte;

	if (!fstatfs(fd, &fs) && (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC))
		return true;
	return read(fd, &byte, 1) > 0;
}

static int file_kind(const char *location, const struct stat *sb, enum file_kind *kind,
		     struct error *err)
{
	enum sqlite_file head;
	int fd;

	if (!S_ISREG(sb->st_mode))
		return store_not_ours(location, S_ISDIR(sb->st_mode) ? "it is a directory" :
				      S_ISFIFO(sb->st_mode) ? "it is a FIFO" :
				      S_ISCHR(sb->st_mode) || S_ISBLK(sb->st_mode) ?
				      "it is a device" : "it is not a regular file", err);
	fd = open(location, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && sb->st_size)
		return error_set(err, EXIT_ENV, "cannot read store '%s': %s (check its "
				 "permissions)", location, strerror(errno));
	if (!sb->st_size) {
		bool kernel = fd >= 0 && kernel_file(fd);

		if (fd >= 0)
			close(fd);
		if (kernel)
			return store_not_ours(location, "it is a file the kernel makes as it is "
					      "read (/proc, /sys), not a file on disk", err);
		*kind = FILE_EMPTY;
		return 0;
	}
	head = sqlite_file_kind(fd);
	close(fd);
	if (head != SQLITE_FILE_STORE && head != SQLITE_FILE_DATABASE)
		return store_not_ours(location, "it is not an SQLite database", err);
	*kind = FILE_SQLITE;
	return 0;
}

static bool writable_here(const char *location)
{
	char dir[PATH_MAX];

	sqlite_directory_of(location, dir, sizeof(dir));
	return !access(location, W_OK) && !access(dir, W_OK);
}

/* A connection that reads: query-only, whichever way it was opened. */
static int query_only(struct sqlite_store *ss, struct error *err)
{
	return sqlite_exec(&ss->base, "PRAGMA query_only = ON", err, "open the store for reading");
}

/* An older store read as the current schema unchanged: its copy in memory upgraded. */
static int read_upgraded_copy(struct sqlite_store *ss, store_upgrade_fn *upgrade,
			      struct error *err)
{
	sqlite3 *memory = NULL, *file = ss->db;
	sqlite3_backup *copy;
	int rc;

	if (sqlite3_open_v2(":memory:", &memory, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		sqlite3_close(memory);
		return error_set(err, EXIT_ENV, "cannot read store '%s': out of memory (free "
				 "some memory, then try again)",
				 ss->base.location);
	}
	copy = sqlite3_backup_init(memory, "main", file, "main");
	rc = copy ? sqlite3_backup_step(copy, -1) : SQLITE_NOMEM;
	sqlite3_backup_finish(copy);
	if (rc != SQLITE_DONE) {
		sqlite_error(ss, err, "read the store");
		sqlite3_close(memory);
		return -1;
	}
	sqlite_finalize_all(ss);
	ss->db = memory;
	sqlite3_close(file);
	sqlite3_extended_result_codes(ss->db, 0);
	if (upgrade(&ss->base, err))
		return -1;
	return query_only(ss, err);
}

/* A connection that reads @location (the file @path), changing nothing; read-write if @rw. */
static struct sqlite_store *connect_reading(const char *location, const char *path, bool rw,
					    struct error *err)
{
	struct sqlite_store *ss;
	long long wal = sqlite_file_size(path, "-wal");

	if (wal > 0)
		ss = connect(location, path, path, "", SQLITE_OPEN_READONLY, err);
	else if (rw && writable_here(path))
		ss = connect(location, path, path, "", SQLITE_OPEN_READWRITE, err);
	else
		ss = connect(location, path, path, "immutable=1", SQLITE_OPEN_READONLY, err);
	if (!ss)
		return NULL;
	if (query_only(ss, err)) {
		sqlite_close(&ss->base);
		return NULL;
	}
	return ss;
}

/* STORE_READ, an older store read upgraded, or STORE_INSPECT: as it is, or an empty database. */
static int open_for_reading(const char *location, const char *path, enum store_access access,
			    store_upgrade_fn *upgrade, struct store **out, struct error *err)
{
	struct sqlite_store *ss = connect_reading(location, path, true, err);
	int rc;

	if (!ss)
		return -1;
	rc = sqlite_version(&ss->base, err);
	/* A full disk has no room for a read-write connection's -shm: read immutable (above). */
	if (rc < 0 && !sqlite3_db_readonly(ss->db, "main") && sqlite_out_of_space(ss->db)) {
		sqlite_close(&ss->base);
		if (!(ss = connect_reading(location, path, false, err)))
			return -1;
		rc = sqlite_version(&ss->base, err);
	}
	if (!rc && access == STORE_READ)
		rc = store_not_ours(location, "it is an empty database", err);
	if (rc > 0 && rc < STORE_SCHEMA_VERSION && access == STORE_READ &&
	    read_upgraded_copy(ss, upgrade, err))
		rc = -1;
	if (rc <= 0) {
		sqlite_close(&ss->base);
		return rc;
	}
	*out = &ss->base;
	return 0;
}

static int open_for_writing(const char *location, const char *path, store_upgrade_fn *upgrade,
			    struct store **out, struct error *err)
{
	struct sqlite_store *ss;
	int rc;

	if (sqlite_read_only(location, path, "write", err))
		return -1;
	ss = connect(location, path, path, "", SQLITE_OPEN_READWRITE, err);
	if (!ss)
		return -1;
	/* Another program's database, or a newer store, is refused before any change. */
	rc = sqlite_version(&ss->base, err) < 0 || switch_to_wal(ss, err) ||
	     upgrade(&ss->base, err);
	if (rc) {
		sqlite_close(&ss->base);
		return -1;
	}
	*out = &ss->base;
	return 0;
}

/* A database file and the files SQLite keeps beside it. */
static const char *const journal_suffixes[] = { "", "-wal", "-shm", "-journal" };

static void remove_with_journals(const char *path)
{
	char name[PATH_MAX + 16];

	for (size_t i = 0; i < ARRAY_SIZE(journal_suffixes); i++)
		if (snprintf(name, sizeof(name), "%s%s", path, journal_suffixes[i]) <
		    (int)sizeof(name))
			unlink(name);
}

/* Whether a table holds a row (SQLite's own bookkeeping aside): 1, 0, or -1 unknown. */
static int holds_rows(struct sqlite_store *ss)
{
	sqlite3_stmt *tables = NULL, *row = NULL;
	int found = 0, rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(ss->db, "SELECT name FROM sqlite_master WHERE type = 'table' "
			       "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'", -1, &tables,
			       NULL) != SQLITE_OK) {
		sqlite3_finalize(tables);
		return -1;
	}
	while (!found && (rc = sqlite3_step(tables)) == SQLITE_ROW) {
		char *sql = sqlite3_mprintf("SELECT 1 FROM \"%w\" LIMIT 1",
					    (const char *)sqlite3_column_text(tables, 0));

		if (!sql || sqlite3_prepare_v2(ss->db, sql, -1, &row, NULL) != SQLITE_OK)
			found = -1;
		else if ((rc = sqlite3_step(row)) != SQLITE_DONE)
			found = rc == SQLITE_ROW ? 1 : -1;
		sqlite3_finalize(row);
		row = NULL;
		sqlite3_free(sql);
	}
	if (!found && rc != SQLITE_DONE)
		found = -1;
	sqlite3_finalize(tables);
	return found;
}

static bool is_link(const char *path)
{
	struct stat sb;

	return !lstat(path, &sb) && S_ISLNK(sb.st_mode);
}

/*
 * A store behind a symbolic link stays: the link and its file are the user's.
 * Leaving WAL needs the only connection, and the exclusive lock, under which
 * the store is found empty again, keeps others out until it is gone (one
 * that opened it before finds its file moved, and SQLite refuses its
 * writes). Whatever fails, the store stays.
 */
void sqlite_close_removing_empty(struct store *st)
{
	struct sqlite_store *ss = sqlite_of(st);
	struct error err = { 0 };
	char mode[16] = "";

	sqlite_finalize_all(ss);
	/* a store that holds something is not taken out of WAL for nothing */
	if (!is_link(ss->base.location) && !holds_rows(ss) &&
	    sqlite_first(ss, "PRAGMA journal_mode = DELETE", mode, sizeof(mode), &err,
			 "leave WAL") == 1 && !strcmp(mode, "delete") &&
	    sqlite3_exec(ss->db, "BEGIN EXCLUSIVE", NULL, NULL, NULL) == SQLITE_OK &&
	    !holds_rows(ss))
		remove_with_journals(ss->base.location);
	sqlite_close(st);
}

/*
 * Copy the schema from the WAL into the file, checked: only the file is
 * published, and a checkpoint at close that a full disk stopped would go
 * unsaid, leaving a file without its schema.
 */
static int checkpoint(struct sqlite_store *ss, struct error *err)
{
	int log = -1, done = -1;

	if (sqlite3_wal_checkpoint_v2(ss->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, &log,
				      &done) != SQLITE_OK || log != done)
		return sqlite_error(ss, err, "write the new store's schema");
	return 0;
}

/* Make a whole store at @tmp: schema committed and in the file, WAL, closed. */
static int build_new(const char *location, const char *tmp, store_upgrade_fn *upgrade,
		     struct error *err)
{
	struct sqlite_store *ss;
	int rc;

	ss = connect(location, location, tmp, "", SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
		     err);
	if (!ss)
		return -1;
	rc = switch_to_wal(ss, err) || upgrade(&ss->base, err) || checkpoint(ss, err) ? -1 : 0;
	sqlite_close(&ss->base);
	return rc;
}

/*
 * Put the new store at @location unless another process got there first
 * (then theirs is used): link() and RENAME_NOREPLACE never replace a file.
 */
static int publish(const char *tmp, const char *location, struct error *err)
{
	if (!link(tmp, location) || errno == EEXIST)
		return 0;
	if (errno == EPERM || errno == ENOTSUP || errno == EOPNOTSUPP || errno == EMLINK) {
		if (!renameat2(AT_FDCWD, tmp, AT_FDCWD, location, RENAME_NOREPLACE) ||
		    errno == EEXIST)
			return 0;
	}
	return open_error(location, location, strerror(errno), err);
}

/*
 * The new store's temporary file and journals, named before they exist, for
 * a terminating signal to remove: run creates its store before it catches
 * signals, and no later command (another pid) would remove what a kill left
 * (import, which catches them, removes them itself below).
 */
static char pending_store[ARRAY_SIZE(journal_suffixes)][PATH_MAX + 16];

static void remove_pending_store(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(pending_store); i++)
		unlink(pending_store[i]);
}

/* Nothing is at @location, so it is its own path: no link to resolve (open_at()). */
static int create_store(const char *location, store_upgrade_fn *upgrade, struct store **out,
			struct error *err)
{
	char tmp[PATH_MAX];
	int rc;

	if (sqlite_read_only(location, location, "create", err))
		return -1;
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", location, (long)getpid()) >=
	    (int)sizeof(tmp))
		return path_too_long(location, err);
	for (size_t i = 0; i < ARRAY_SIZE(pending_store); i++)
		snprintf(pending_store[i], sizeof(pending_store[i]), "%s%s", tmp,
			 journal_suffixes[i]);
	signals_hold_cleanup(remove_pending_store);
	remove_with_journals(tmp);	/* a leftover of a killed process with our pid */
	rc = build_new(location, tmp, upgrade, err) || publish(tmp, location, err) ? -1 : 0;
	remove_with_journals(tmp);
	signals_drop_cleanup(remove_pending_store);
	return rc ? -1 : open_for_writing(location, location, upgrade, out, err);
}

/*
 * Not where SQLite keeps another database's -wal, -shm or -journal, nor with
 * such a file that is a database: SQLite would write over it and remove it
 * when the last connection closes, even a reading one.
 */
static int check_neighbours(const char *location, const char *path, struct error *err)
{
	char other[PATH_MAX];
	enum sqlite_file kind;
	const char *suffix;

	if ((suffix = sqlite_file_beside_database(path, other, sizeof(other), &kind)))
		return error_set(err, EXIT_USAGE, "cannot use '%s' as a store: it is the name of "
				 "the %s file of '%s', %s, which SQLite would write over and remove "
				 "(give another --db)", location, suffix, other,
				 sqlite_file_describe(kind));
	if ((suffix = sqlite_file_database_beside(path, other, sizeof(other), &kind)))
		return error_set(err, EXIT_USAGE, "cannot use '%s' as a store: '%s' beside it is "
				 "%s, which SQLite would take for the store's %s file, write over "
				 "and remove (rename that file, or give another --db)", location,
				 other, sqlite_file_describe(kind), suffix);
	return 0;
}

/* A file at @location (1, of @kind), or nothing there (0), or -1 with @err. */
static int locate(const char *location, const char *path, enum file_kind *kind,
		  struct error *err)
{
	struct stat sb;

	if (check_neighbours(location, path, err))
		return -1;
	if (!stat(location, &sb))
		return file_kind(location, &sb, kind, err) ? -1 : 1;
	if (errno == ENAMETOOLONG)
		return path_too_long(location, err);
	return errno == ENOENT ? 0 : open_error(location, path, strerror(errno), err);
}

/* Open the store at @location, whose file, links resolved, is @path. */
static int open_at(const char *location, const char *path, enum store_access access,
		   store_upgrade_fn *upgrade, struct store **out, struct error *err)
{
	enum file_kind kind = FILE_SQLITE;
	int rc = locate(location, path, &kind, err);

	*out = NULL;
	if (rc < 0 || (access == STORE_INSPECT && (!rc || kind == FILE_EMPTY)))
		return rc < 0 ? -1 : 0;
	if (!rc && access == STORE_READ)
		return error_set(err, EXIT_USAGE, "no store at '%s': nothing was stored there "
				 "yet (give the --db of an existing store, or run 'schedperf run' "
				 "first)", location);
	if (!rc && is_link(location))
		return error_set(err, EXIT_USAGE, "no store at '%s': it is a symbolic link to a "
				 "file that does not exist, and a new store is not made behind a "
				 "link (give its target as --db, or remove the link)", location);
	if (!rc)
		return create_store(location, upgrade, out, err);
	if (access == STORE_READ && kind == FILE_EMPTY)
		return store_not_ours(location, "it is an empty file", err);
	if (access == STORE_WRITE)
		return open_for_writing(location, path, upgrade, out, err);
	return open_for_reading(location, path, access, upgrade, out, err);
}

int sqlite_open(const char *location, enum store_access access, store_upgrade_fn *upgrade,
		struct store **out, struct error *err)
{
	char *path = realpath(location, NULL);	/* NULL when nothing is there */
	int rc = open_at(location, path ? path : location, access, upgrade, out, err);

	free(path);
	return rc;
}

int sqlite_open_memory(const char *location, enum store_access access,
		       store_upgrade_fn *upgrade, struct store **out, struct error *err)
{
	struct sqlite_store *ss = connect(location, location, "memory", "mode=memory",
					  SQLITE_OPEN_READWRITE, err);

	if (!ss)
		return -1;
	ss->base.driver = &store_memory;
	if (upgrade(&ss->base, err)) {
		sqlite_close(&ss->base);
		return -1;
	}
	*out = &ss->base;
	return 0;
}
