// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite calls that the driver's files share (sqlite.h, "calls.c"):
 * one-off statements and every fault's message. A full disk, a read-only
 * file, a lock held too long or a file-size limit is said as such, never
 * as "no row" (a resume would store a benchmark twice).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store/sqlite/sqlite.h"

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
static const char *read_only_reason(const char *path)
{
	char dir[PATH_MAX];

	if (access(path, W_OK)) {
		if (errno == EROFS)
			return "it is on a read-only file system";
		if (errno == EACCES)
			return "it is not writable by this user";
		if (errno != ENOENT)
			return NULL;
	}
	/* Its directory holds the -wal and -shm files, and a new store. */
	sqlite_directory_of(path, dir, sizeof(dir));
	if (!access(dir, W_OK) || (errno != EROFS && errno != EACCES))
		return NULL;
	return errno == EROFS ? "its directory is on a read-only file system" :
				"its directory is not writable by this user";
}

int sqlite_read_only(const char *location, const char *path, const char *what,
		     struct error *err)
{
	const char *why = read_only_reason(path);

	if (!why)
		return 0;
	return error_set(err, EXIT_ENV, "cannot %s store '%s': %s (make it writable or give "
			 "another --db)", what, location, why);
}

/*
 * SQLite reports a write beyond the file-size limit (EFBIG: SIGXFSZ is
 * ignored) as an I/O error, its errno not always kept (a failed COMMIT rolls
 * back, leaving 0): the limit is to blame when the file kept EFBIG as its
 * last error, or the store or its log reached it.
 */
#define FILE_SIZE_LIMIT_HINT "the file-size limit is too small for the store: raise 'ulimit -f'"

long long sqlite_file_size(const char *path, const char *suffix)
{
	char name[PATH_MAX + 16];
	struct stat sb;

	if (snprintf(name, sizeof(name), "%s%s", path, suffix) >= (int)sizeof(name) ||
	    stat(name, &sb))
		return -1;
	return (long long)sb.st_size;
}

static bool reached_size(const char *path, const char *suffix, rlim_t limit)
{
	long long size = sqlite_file_size(path, suffix);

	return size >= 0 && (rlim_t)size + 65536 >= limit;
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

bool sqlite_out_of_space(sqlite3 *db)
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

	ss->base.lock_busy = code == SQLITE_BUSY;
	/* A full disk, a read-only file or a lock held too long is the machine's doing. */
	if (sqlite_out_of_space(ss->db))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': no space left on "
				 "device, the disk is full (free disk space and run again)",
				 what, path);
	if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN) {
		char doing[128];

		snprintf(doing, sizeof(doing), "%s in", what);
		if (sqlite_read_only(path, ss->path, doing, err))
			return -1;
	}
	return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (%s)", what, path,
			 sqlite3_errmsg(ss->db),
			 over_file_size_limit(ss->db, path) ? FILE_SIZE_LIMIT_HINT :
			 code == SQLITE_BUSY ? STORE_LOCK_HINT :
			 code == SQLITE_READONLY ? "make the store writable or give another --db" :
			 code == SQLITE_CANTOPEN ? "check the path and its permissions" :
			 "check the file with 'sqlite3 FILE \"PRAGMA integrity_check\"'");
}

int sqlite_exec(struct store *st, const char *sql, struct error *err, const char *what)
{
	if (sqlite3_exec(sqlite_of(st)->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_error(sqlite_of(st), err, what);
	return 0;
}

int sqlite_first(struct sqlite_store *ss, const char *sql, char *buf, size_t len,
		 struct error *err, const char *what)
{
	sqlite3_stmt *stmt = NULL;
	const char *text;
	int rc;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(ss->db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return sqlite_error(ss, err, what);
	rc = sqlite3_step(stmt);
	text = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(stmt, 0) : NULL;
	snprintf(buf, len, "%s", text ? text : "");
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		sqlite_error(ss, err, what);
	sqlite3_finalize(stmt);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int sqlite_int(struct sqlite_store *ss, const char *sql, int *out, struct error *err)
{
	char text[32];
	int rc = sqlite_first(ss, sql, text, sizeof(text), err, "read the schema");

	if (!rc)
		return error_set(err, EXIT_INTERNAL, "'%s' returned no row", sql);
	*out = (int)strtol(text, NULL, 10);
	return rc < 0 ? -1 : 0;
}

void sqlite_finalize_all(struct sqlite_store *ss)
{
	for (int i = 0; i < ss->nr_stmts; i++)
		sqlite3_finalize(ss->stmts[i].stmt);
	ss->nr_stmts = 0;
}
