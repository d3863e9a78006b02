/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_SCHEMA_H
#define SCHEDPERF_STORE_POSTGRES_SCHEMA_H

/* The PostgreSQL backend's schema and its migrations (postgres_schema.c). */

#include "store/postgres_stmt.h"

/*
 * Bring the schema to STORE_SCHEMA_VERSION (create it in a database
 * without tables), in one transaction; a database of another program or a
 * newer schema is refused before anything is written.
 */
int pg_schema_upgrade(struct pg_store *ps, struct error *err);
/*
 * The schema version of the store, 0 for a database with no tables when
 * @empty_ok, -1 with @err for anything else. Reads only.
 */
int pg_schema_check(struct pg_store *ps, bool empty_ok, struct error *err);
/*
 * What is wrong with the store of schema @version, in @buf ("" when
 * nothing): a table that version has and the database lacks, a version
 * table of other than one row. Reads only the catalogs and the version.
 */
int pg_schema_damage(struct store *st, int version, char *buf, size_t len,
		     struct error *err);

#endif
