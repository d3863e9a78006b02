/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SQLITE_STMT_H
#define SCHEDPERF_STORE_SQLITE_STMT_H

/*
 * Inside the SQLite backend, below its other files: the handle and the
 * statement helpers they share. sqlite.c has the queries and the
 * operations table, sqlite_open.c how a file is opened, created or read
 * without being changed, and sqlite_schema.c the schema with its
 * migrations; none of them calls another's functions except through here,
 * sqlite_open.h and sqlite_schema.h.
 */

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/backend.h"

#define SQLITE_CACHED_STATEMENTS 16

struct sqlite_store {
	struct store base;
	sqlite3 *db;
	bool read_only;		/* STORE_READ: nothing may be written */
	/* sqlite_prepare_cached()'s statements, by the SQL's address */
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cached[SQLITE_CACHED_STATEMENTS];
	int nr_cached;
};

static inline struct sqlite_store *sqlite_of(struct store *st)
{
	return (struct sqlite_store *)st;
}

/* The directory that holds @location ("." for a bare name). */
void sqlite_directory_of(const char *location, char *dir, size_t len);
/*
 * Why the store at @location cannot be written ("it is on a read-only file
 * system"), or NULL when nothing about the file says so.
 */
const char *sqlite_read_only_reason(const char *location);

/* @err from the connection's last error: "cannot WHAT in store 'PATH': ... (fix)". */
int sqlite_error(struct sqlite_store *ss, struct error *err, const char *what);
int sqlite_exec(struct sqlite_store *ss, const char *sql, struct error *err,
		const char *what);
sqlite3_stmt *sqlite_prepare(struct sqlite_store *ss, const char *sql, struct error *err);

/*
 * The statement of @sql (a string constant: it is known by its address),
 * prepared on its first use and kept until sqlite_finalize_cached(), for
 * the queries that run once per batch or per benchmark when a store is
 * read: preparing them again each time cost more than running them. The
 * caller resets it after use and never finalizes it. NULL with @err on a
 * fault.
 */
sqlite3_stmt *sqlite_prepare_cached(struct sqlite_store *ss, const char *sql,
				    struct error *err);
/* Finalize every cached statement (before the connection closes). */
void sqlite_finalize_cached(struct sqlite_store *ss);

/*
 * sqlite3_step() for every statement: 1 for a row, 0 when there is none
 * (more), -1 with @err on anything else. Busy, I/O errors and a damaged
 * file (SQLITE_CORRUPT, part-way through a read) must never pass for "no
 * row": a resume that took an error for "not there yet" would store a
 * benchmark twice.
 */
int sqlite_step(struct sqlite_store *ss, sqlite3_stmt *stmt, struct error *err,
		const char *what);
/* A statement that returns no row (INSERT, UPDATE): 0, or -1 with @err. */
int sqlite_step_done(struct sqlite_store *ss, sqlite3_stmt *stmt, struct error *err,
		     const char *what);

#endif
