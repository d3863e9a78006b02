/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SQLITE_SQLITE_H
#define SCHEDPERF_STORE_SQLITE_SQLITE_H

/*
 * Inside the SQLite driver (driver.h): the handle and what its files share.
 * driver.c has the primitives and faults, open.c how a file is opened,
 * created or read unchanged, schema.c a file's version and damage.
 */

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/driver.h"

#if SQLITE_VERSION_NUMBER < 3035000
#error "SQLite 3.35 or later is needed (RETURNING)"
#endif

#define SQLITE_STATEMENTS 64

/*
 * Foreign keys are a connection's setting, off until it turns them on:
 * on when it opens (open.c), and on again after a transaction that checks
 * no reference turned them off (driver.c, end_txn()).
 */
#define SQLITE_FOREIGN_KEYS_ON "PRAGMA foreign_keys = ON"

struct sqlite_stmt {
	struct store_stmt base;
	struct sqlite_store *ss;
	sqlite3_stmt *stmt;
	int bind_rc;		/* the first binding refused since reset: NULL instead */
};

struct sqlite_store {
	struct store base;
	sqlite3 *db;
	/* The file checked: the location with links resolved (SQLite writes beside the target). */
	char *path;
	enum store_txn txn;	/* of the transaction open */
	struct sqlite_stmt stmts[SQLITE_STATEMENTS];
	int nr_stmts;
};

static inline struct sqlite_store *sqlite_of(struct store *st)
{
	return (struct sqlite_store *)st;
}

/* calls.c */
/* The size of the file @path@suffix ("-wal" ...), -1 when there is none. */
long long sqlite_file_size(const char *path, const char *suffix);
/* The directory that holds @location ("." for a bare name). */
void sqlite_directory_of(const char *location, char *dir, size_t len);
/*
 * -1 with @err ("cannot WHAT store ...: it is on a read-only file system
 * ...") when @path or its directory cannot be written, else 0.
 */
int sqlite_read_only(const char *location, const char *path, const char *what,
		     struct error *err);
/* Whether the connection's last error was a full disk (or quota). */
bool sqlite_out_of_space(sqlite3 *db);
/* @err from the connection's last error: "cannot WHAT in store 'PATH': ... (fix)". */
int sqlite_error(struct sqlite_store *ss, struct error *err, const char *what);
/* SQL without parameters, of one statement or several: 0, or -1 with @err. */
int sqlite_exec(struct store *st, const char *sql, struct error *err, const char *what);
/*
 * The first column of the first row of @sql (a pragma, a check) as text
 * into @buf, "" when none: 1 a row, 0 no row, -1 with @err ("cannot WHAT").
 */
int sqlite_first(struct sqlite_store *ss, const char *sql, char *buf, size_t len,
		 struct error *err, const char *what);
/* The same as an integer (a pragma, a count): 0, or -1 with @err when no row. */
int sqlite_int(struct sqlite_store *ss, const char *sql, int *out, struct error *err);
/* Finalize every prepared statement (before the connection closes or changes). */
void sqlite_finalize_all(struct sqlite_store *ss);

/* open.c */
int sqlite_open(const char *location, enum store_access access, store_upgrade_fn *upgrade,
		struct store **out, struct error *err);
/* A new empty store in memory, whatever @location says (store_memory). */
int sqlite_open_memory(const char *location, enum store_access access,
		       store_upgrade_fn *upgrade, struct store **out, struct error *err);
void sqlite_close(struct store *st);
void sqlite_close_removing_empty(struct store *st);

/* schema.c */
/*
 * What the open connection holds: the schema version of a schedperf store,
 * 0 for an empty database (a writer makes it a store), or -1 with @err for
 * anything else (another program's database, a store of a newer schema).
 * Reads only.
 */
int sqlite_version(struct store *st, struct error *err);
int sqlite_set_version(struct store *st, int version, struct error *err);
/*
 * PRAGMA foreign_key_check: 1 with what it found (a table whose rows'
 * references lead nowhere, and how to see them) in @buf, 0 nothing, "" in
 * @buf; -1 with @err ("cannot WHAT").
 */
int sqlite_dangling(struct sqlite_store *ss, char *buf, size_t len, struct error *err,
		    const char *what);
/*
 * SQLite's integrity check, references that lead nowhere and, for the
 * current version, tables and columns other than those of @fresh, a new
 * store in memory.
 */
int sqlite_damage(struct store *st, int version, struct store *fresh, char *buf, size_t len,
		  struct error *err);

#endif
