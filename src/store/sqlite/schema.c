// SPDX-License-Identifier: GPL-2.0
/*
 * What an SQLite file holds: which schema version of a schedperf store
 * (PRAGMA user_version; PRAGMA application_id marks the file as one, so
 * that a command never takes another program's database for a store), and
 * what is wrong with it. The tables themselves are store/schema.c's.
 */
#include <stdio.h>
#include <string.h>

#include "store/sqlite/sqlite.h"
#include "util/sqlite_file.h"

/*
 * The version of a schedperf store; 0: an empty database, which a writer
 * makes a store; -1 with @err: another program's database, or a store of a
 * newer schema. PRAGMA application_id marks the file as a store; stores
 * before version 3 have none and are known by their version and the six
 * tables every version has.
 */
int sqlite_version(struct store *st, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	int version, application_id, objects, tables;
	bool store_tables;

	if (sqlite_int(ss, "PRAGMA user_version", &version, err) ||
	    sqlite_int(ss, "PRAGMA application_id", &application_id, err) ||
	    sqlite_int(ss, "SELECT count(*) FROM sqlite_master", &objects, err) ||
	    sqlite_int(ss, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
		       "name IN ('runs', 'batches', 'environment', 'benchmarks', 'metrics', "
		       "'samples')", &tables, err))
		return -1;
	store_tables = tables == 6;
	if (application_id == (int)SQLITE_FILE_SCHEDPERF_ID) {
		if (version > STORE_SCHEMA_VERSION)
			return store_too_new(st->location, version, err);
		if (version >= 1 && store_tables)
			return version;
		if (store_tables)
			return store_version_lost(st->location, "PRAGMA user_version", version, err);
		return store_not_ours(st->location, "its schedperf tables are missing", err);
	}
	if (application_id)
		return store_not_ours(st->location, "it is another program's SQLite database", err);
	if (!version && !objects)
		return 0;
	if (version >= 1 && version < 3 && store_tables)
		return version;
	return store_not_ours(st->location, "it is an SQLite database with other tables", err);
}

/* The version, and the id that marks the file as a schedperf store (util/sqlite_file.h). */
int sqlite_set_version(struct store *st, int version, struct error *err)
{
	char sql[96];

	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d; PRAGMA user_version = %d;",
		 (int)SQLITE_FILE_SCHEDPERF_ID, version);
	return sqlite_exec(st, sql, err, "stamp the schema's version");
}

/* Each column of each table, "table.column TYPE [NOT NULL]", in order. */
static const char columns_sql[] =
	"SELECT m.name || '.' || p.name || ' ' || p.type || "
	"  CASE WHEN p.\"notnull\" THEN ' NOT NULL' ELSE '' END "
	"FROM sqlite_master m, pragma_table_info(m.name) p "
	"WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY 1";

/* The next column of @s (its step()'s 1, 0 at the end, or -1 with @err). */
static int next_column(struct store_stmt *s, struct error *err, const char *what)
{
	return s->driver->step(s, err, what);
}

/* Column "table.column ..." of @s, on a row. */
static const char *column(struct store_stmt *s)
{
	return s->driver->column_text(s, 0);
}

/*
 * The first column that a new store has and @st lacks, or that @st has
 * and a new store does not, into @buf: both lists come sorted.
 */
static int columns_differ(struct store *st, struct store *fresh, char *buf, size_t len,
			  struct error *err)
{
	struct store_stmt *want = fresh->driver->prepare(fresh, columns_sql, err);
	struct store_stmt *have = want ? st->driver->prepare(st, columns_sql, err) : NULL;
	int w = have ? next_column(want, err, "read a new store's tables") : -1;
	int h = w < 0 ? -1 : next_column(have, err, "check the store's tables");

	buf[0] = '\0';
	while (w >= 0 && h >= 0 && (w || h) && !buf[0]) {
		int order = !w ? 1 : !h ? -1 : strcmp(column(want), column(have));

		if (order < 0)
			snprintf(buf, len, "column %s is missing", column(want));
		else if (order > 0)
			snprintf(buf, len, "column %s is not schedperf's", column(have));
		if (order <= 0)
			w = next_column(want, err, "read a new store's tables");
		if (order >= 0 && w >= 0)
			h = next_column(have, err, "check the store's tables");
	}
	if (want)
		want->driver->reset(want);
	if (have)
		have->driver->reset(have);
	return w < 0 || h < 0 ? -1 : 0;
}

int sqlite_dangling(struct sqlite_store *ss, char *buf, size_t len, struct error *err,
		    const char *what)
{
	char table[128];
	int rc = sqlite_first(ss, "PRAGMA foreign_key_check", table, sizeof(table), err, what);

	buf[0] = '\0';
	if (rc > 0)
		snprintf(buf, len, "table %s has rows whose references lead nowhere (see them "
			 "with 'sqlite3 FILE \"PRAGMA foreign_key_check\"')", table);
	return rc;
}

int sqlite_damage(struct store *st, int version, struct store *fresh, char *buf, size_t len,
		  struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	char what[256];
	int rc;

	if (sqlite_first(ss, "PRAGMA integrity_check(1)", what, sizeof(what), err,
			 "check the store") < 0)
		return -1;
	for (char *nl = strchr(what, '\n'); nl; nl = strchr(nl, '\n'))
		*nl = ' ';	/* the report is one line */
	if (strcmp(what, "ok")) {
		snprintf(buf, len, "SQLite's integrity check says: %s (restore it from a "
			 "backup; 'sqlite3 FILE .recover' may save its rows)", what);
		return 0;
	}
	rc = sqlite_dangling(ss, buf, len, err, "check the store");
	if (rc)
		return rc < 0 ? -1 : 0;
	if (version < STORE_SCHEMA_VERSION)
		return 0;
	if (columns_differ(st, fresh, what, sizeof(what), err))
		return -1;
	if (what[0])
		snprintf(buf, len, "its tables are not those of schema version %d: %s (restore "
			 "it from a backup, or export its runs with the schedperf that made it)",
			 version, what);
	return 0;
}
