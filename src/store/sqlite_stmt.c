// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite backend's statements and their errors, below everything else
 * in the backend: sqlite.c's queries, sqlite_open.c and sqlite_schema.c
 * all prepare, step and report faults through these, so that every fault
 * reads the same and none passes for "no row".
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite_stmt.h"

void sqlite_directory_of(const char *location, char *dir, size_t len)
{
	const char *slash = strrchr(location, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", slash == location ? 1 : (int)(slash - location),
			 location);
}

/*
 * SQLite says "unable to open database file" whether the path is wrong or
 * the file system is read-only (a WAL store needs its -shm file even to be
 * read); ask the file system which, for a message that says what to fix.
 */
const char *sqlite_read_only_reason(const char *location)
{
	char dir[PATH_MAX];

	if (access(location, W_OK)) {
		if (errno == EROFS)
			return "it is on a read-only file system";
		if (errno == EACCES)
			return "it is not writable by this user";
		if (errno != ENOENT)
			return NULL;
	}
	/* Its directory holds the -wal and -shm files, and a new store. */
	sqlite_directory_of(location, dir, sizeof(dir));
	if (!access(dir, W_OK) || (errno != EROFS && errno != EACCES))
		return NULL;
	return errno == EROFS ? "its directory is on a read-only file system" :
				"its directory is not writable by this user";
}

/*
 * SQLite reports a write beyond the file-size limit (EFBIG, schedperf
 * ignores SIGXFSZ) as a plain I/O error, and does not always keep the
 * errno (a COMMIT that fails rolls back, and sqlite3_system_errno() is
 * then 0): the limit is to blame when the store's file kept EFBIG as its
 * last error, or the store or its log has reached it.
 */
#define FILE_SIZE_LIMIT_HINT "the file-size limit is too small for the store: raise 'ulimit -f'"

static bool reached_size(const char *path, const char *suffix, rlim_t limit)
{
	char name[PATH_MAX];
	struct stat sb;

	snprintf(name, sizeof(name), "%s%s", path, suffix);
	return !stat(name, &sb) && (rlim_t)sb.st_size + 65536 >= limit;
}

static bool over_file_size_limit(sqlite3 *db, const char *path)
{
	struct rlimit rl;
	int last_errno = 0;
	const char *file;

	if (!db || (sqlite3_errcode(db) != SQLITE_IOERR &&
		    sqlite3_errcode(db) != SQLITE_CANTOPEN))
		return false;
	if (sqlite3_system_errno(db) == EFBIG)
		return true;
	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_LAST_ERRNO, &last_errno) ==
	    SQLITE_OK && last_errno == EFBIG)
		return true;
	/* A new store is built under a temporary name: its files are the ones to measure. */
	file = sqlite3_db_filename(db, "main");
	if (file && *file)
		path = file;
	return !getrlimit(RLIMIT_FSIZE, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	       (reached_size(path, "", rl.rlim_cur) || reached_size(path, "-wal", rl.rlim_cur) ||
		reached_size(path, "-shm", rl.rlim_cur));
}

static bool out_of_space(sqlite3 *db)
{
	int code = sqlite3_errcode(db), sys = sqlite3_system_errno(db);

	return code == SQLITE_FULL ||
	       ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN) &&
		(sys == ENOSPC || sys == EDQUOT));
}

int sqlite_error(struct sqlite_store *ss, struct error *err, const char *what)
{
	const char *path = ss->base.location;
	int code = sqlite3_errcode(ss->db);

	/* A full disk, a read-only file or a lock held too long is the machine's doing. */
	if (out_of_space(ss->db))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': no space left on "
				 "device, the disk is full (free disk space and run again)",
				 what, path);
	if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN) {
		const char *read_only = sqlite_read_only_reason(path);

		if (read_only)
			return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (make it "
					 "writable or give another --db)", what, path, read_only);
	}
	return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (%s)", what, path,
			 sqlite3_errmsg(ss->db),
			 over_file_size_limit(ss->db, path) ? FILE_SIZE_LIMIT_HINT :
			 code == SQLITE_BUSY ? "another process holds the store's write lock; "
					       "run again when it is done" :
			 code == SQLITE_READONLY ? "make the store writable or give another --db" :
			 code == SQLITE_CANTOPEN ? "check the path and its permissions" :
			 "check the file with 'sqlite3 FILE \"PRAGMA integrity_check\"'");
}

int sqlite_exec(struct sqlite_store *ss, const char *sql, struct error *err,
		const char *what)
{
	if (sqlite3_exec(ss->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_error(ss, err, what);
	return 0;
}

sqlite3_stmt *sqlite_prepare(struct sqlite_store *ss, const char *sql, struct error *err)
{
	sqlite3_stmt *stmt = NULL;

	if (sqlite3_prepare_v2(ss->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		sqlite_error(ss, err, "prepare a query");
		return NULL;
	}
	return stmt;
}

sqlite3_stmt *sqlite_prepare_cached(struct sqlite_store *ss, const char *sql,
				    struct error *err)
{
	sqlite3_stmt *stmt;
	int i;

	for (i = 0; i < ss->nr_cached; i++)
		if (ss->cached[i].sql == sql)
			return ss->cached[i].stmt;
	if (i == SQLITE_CACHED_STATEMENTS) {
		error_set(err, EXIT_INTERNAL, "more than %d cached queries: raise "
			  "SQLITE_CACHED_STATEMENTS", SQLITE_CACHED_STATEMENTS);
		return NULL;
	}
	stmt = sqlite_prepare(ss, sql, err);
	if (!stmt)
		return NULL;
	ss->cached[i].sql = sql;
	ss->cached[i].stmt = stmt;
	ss->nr_cached++;
	return stmt;
}

void sqlite_finalize_cached(struct sqlite_store *ss)
{
	for (int i = 0; i < ss->nr_cached; i++)
		sqlite3_finalize(ss->cached[i].stmt);
	ss->nr_cached = 0;
}

int sqlite_step(struct sqlite_store *ss, sqlite3_stmt *stmt, struct error *err,
		const char *what)
{
	int rc = sqlite3_step(stmt);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return sqlite_error(ss, err, what);
}

int sqlite_step_done(struct sqlite_store *ss, sqlite3_stmt *stmt, struct error *err,
		     const char *what)
{
	int rc = sqlite_step(ss, stmt, err, what);

	sqlite3_reset(stmt);
	if (rc > 0)
		return error_set(err, EXIT_INTERNAL, "cannot %s: the statement returned a row",
				 what);
	return rc;
}
