/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SQLITE_H
#define SCHEDPERF_STORE_SQLITE_H

/*
 * Inside the SQLite backend: its handle and the helpers its three files
 * share. sqlite.c has the queries and the operations table, sqlite_open.c
 * how a file is opened, created or read without being changed, and
 * sqlite_schema.c the schema with its migrations.
 */

#include <sqlite3.h>
#include <stdbool.h>

#include "store/backend.h"

struct sqlite_store {
	struct store base;
	sqlite3 *db;
	bool read_only;		/* STORE_READ: nothing may be written */
};

static inline struct sqlite_store *sqlite_of(struct store *st)
{
	return (struct sqlite_store *)st;
}

/* @err from the connection's last error: "cannot WHAT in store 'PATH': ... (fix)". */
int sqlite_error(struct sqlite_store *ss, struct error *err, const char *what);
int sqlite_exec(struct sqlite_store *ss, const char *sql, struct error *err,
		const char *what);
sqlite3_stmt *sqlite_prepare(struct sqlite_store *ss, const char *sql, struct error *err);

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

/*
 * Bring the schema of an open connection to STORE_SCHEMA_VERSION: create
 * it in an empty database, or run the migrations it lacks, in one
 * transaction. Refuses a database that is not a schedperf store and one of
 * a newer schema, before anything is written.
 */
int sqlite_schema_upgrade(struct sqlite_store *ss, struct error *err);
/*
 * What the open connection holds: the schema version of a schedperf store,
 * 0 for an empty database when @empty_ok (a writer makes it a store), or
 * -1 with @err for anything else (another program's database, a store of a
 * newer schema). Reads only.
 */
int sqlite_schema_check(struct sqlite_store *ss, bool empty_ok, struct error *err);

int sqlite_open(const char *location, enum store_access access, struct store **out,
		struct error *err);
void sqlite_close(struct store *st);

#endif
