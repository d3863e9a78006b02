// SPDX-License-Identifier: GPL-2.0
/*
 * What a PostgreSQL database holds: which schema version of a schedperf
 * store (the one row of schedperf_schema, whose presence marks the
 * database as a store), and what is wrong with it. The tables themselves
 * are store/schema.c's.
 */
#include <stdio.h>

#include "store/postgres/postgres.h"
#include "util/array.h"

int pg_version(struct store *st, struct error *err)
{
	struct pg_store *ps = pg_of(st);
	int64_t ours, tables, version;

	if (pg_run(ps, "SELECT to_regclass('schedperf_schema') IS NOT NULL", NULL, &ours,
		   err, "read the schema") ||
	    pg_run(ps, "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON "
		   "n.oid = c.relnamespace WHERE n.nspname = current_schema() AND "
		   "c.relkind IN ('r', 'p', 'v', 'm')", NULL, &tables, err, "read the schema"))
		return -1;
	if (!ours)
		return tables ? store_not_ours(st->location, "it is a PostgreSQL database with "
					       "other tables", err) : 0;
	if (pg_run(ps, "SELECT max(version) FROM schedperf_schema", NULL, &version, err,
		   "read the schema version"))
		return -1;
	if (version > STORE_SCHEMA_VERSION)
		return store_too_new(st->location, (int)version, err);
	if (version < 3)
		return store_not_ours(st->location, "its schema version is missing", err);
	return (int)version;
}

int pg_set_version(struct store *st, int version, struct error *err)
{
	char text[16];

	snprintf(text, sizeof(text), "%d", version);
	return pg_run(pg_of(st), "UPDATE schedperf_schema SET version = $1", text, NULL, err,
		      "stamp the schema's version");
}

/* The tables of a store, and the version that brought each. */
static const struct {
	const char *name;
	int since;
} store_tables[] = {
	{ "schedperf_schema", 3 }, { "runs", 3 }, { "batches", 3 }, { "environment", 3 },
	{ "benchmarks", 3 }, { "metrics", 3 }, { "iterations", 3 }, { "samples", 3 },
	{ "jobs", 4 }, { "knob_journal", 5 }, { "culprits", 6 }, { "profiles", 8 },
	{ "profile_symbols", 8 }, { "bisections", 10 }, { "packed_samples", 13 },
};

int pg_damage(struct store *st, int version, struct store *fresh, char *buf, size_t len,
	      struct error *err)
{
	struct pg_store *ps = pg_of(st);
	int64_t present, rows;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(store_tables); i++) {
		if (store_tables[i].since > version)
			continue;
		if (pg_run(ps, "SELECT to_regclass($1) IS NOT NULL", store_tables[i].name,
			   &present, err, "check the store's tables"))
			return -1;
		if (!present) {
			snprintf(buf, len, "table %s of schema version %d is missing (restore the "
				 "database from a backup)", store_tables[i].name, version);
			return 0;
		}
	}
	if (pg_run(ps, "SELECT count(*) FROM schedperf_schema", NULL, &rows, err,
		   "check the schema version"))
		return -1;
	if (rows != 1)
		snprintf(buf, len, "table schedperf_schema has %lld rows, not one (keep the row "
			 "of version %d and delete the others)", (long long)rows, version);
	return 0;
}
