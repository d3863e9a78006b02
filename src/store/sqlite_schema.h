/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_SQLITE_SCHEMA_H
#define SCHEDPERF_STORE_SQLITE_SCHEMA_H

/* The SQLite backend's schema and its migrations (sqlite_schema.c). */

#include "store/sqlite_stmt.h"

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
/*
 * What is wrong with the store of schema @version open on @st, in @buf
 * ("" when nothing): SQLite's integrity check, references that lead
 * nowhere and, for the current version, tables and columns other than a
 * new store's. 0, or -1 with @err when it cannot be read.
 */
int sqlite_schema_damage(struct store *st, int version, char *buf, size_t len,
			 struct error *err);

#endif
