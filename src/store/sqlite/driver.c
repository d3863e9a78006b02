// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite driver's primitives (driver.h), their faults said by
 * sqlite_error() (calls.c). A statement is prepared on its first use and
 * kept until the store closes: preparing a read's queries again for each
 * batch cost more than running them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/sqlite/sqlite.h"
#include "util/strbuf.h"

/* Parameters are $1, $2 ... as every driver reads them: each first used in its order. */
static int check_parameters(struct sqlite_store *ss, sqlite3_stmt *stmt, const char *sql,
			    struct error *err)
{
	char want[16];

	for (int i = 1; i <= sqlite3_bind_parameter_count(stmt); i++) {
		const char *name = sqlite3_bind_parameter_name(stmt, i);

		snprintf(want, sizeof(want), "$%d", i);
		if (!name || strcmp(name, want))
			return error_set(err, EXIT_INTERNAL, "query '%.60s...' of store '%s': "
					 "parameter %d is not %s", sql, ss->base.location, i, want);
	}
	return 0;
}

static struct store_stmt *prepare(struct store *st, const char *sql, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);
	struct store_stmt *found;
	struct sqlite_stmt *s;
	char *text;
	int rc;

	if (store_stmt_lookup(ss->stmts, sizeof(ss->stmts[0]), ss->nr_stmts, SQLITE_STATEMENTS,
			      sql, &found, err) || found)
		return found;
	s = &ss->stmts[ss->nr_stmts];
	text = store_sql_dialect(sql, st->driver->now);
	rc = sqlite3_prepare_v3(ss->db, text ? text : sql, -1, SQLITE_PREPARE_PERSISTENT,
				&s->stmt, NULL);
	free(text);
	if (rc != SQLITE_OK) {
		sqlite_error(ss, err, "prepare a query");
		return NULL;
	}
	if (check_parameters(ss, s->stmt, sql, err)) {
		sqlite3_finalize(s->stmt);
		return NULL;
	}
	s->base = (struct store_stmt){ .driver = st->driver, .sql = sql, .busy = true };
	s->ss = ss;
	s->bind_rc = 0;
	ss->nr_stmts++;
	return &s->base;
}

static sqlite3_stmt *stmt_of(struct store_stmt *s)
{
	return ((struct sqlite_stmt *)s)->stmt;
}

static void bind_int(struct store_stmt *s, int i, int64_t v)
{
	sqlite3_bind_int64(stmt_of(s), i, v);
}

static void bind_real(struct store_stmt *s, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(stmt_of(s), i);
	else
		sqlite3_bind_double(stmt_of(s), i, v);
}

/*
 * A text longer than SQLite takes (a gigabyte) leaves NULL in its place:
 * step() says so, not the NOT NULL constraint, as if the store were damaged.
 */
static void bind_text(struct store_stmt *s, int i, const char *v)
{
	struct sqlite_stmt *ls = (struct sqlite_stmt *)s;
	int rc;

	if (v)
		rc = sqlite3_bind_text(ls->stmt, i, v, -1, SQLITE_STATIC);
	else
		rc = sqlite3_bind_null(ls->stmt, i);
	if (rc != SQLITE_OK && !ls->bind_rc)
		ls->bind_rc = rc;
}

static int step(struct store_stmt *s, struct error *err, const char *what)
{
	struct sqlite_stmt *ls = (struct sqlite_stmt *)s;
	int rc;

	if (ls->bind_rc)
		return error_set(err, EXIT_USAGE, "cannot %s in store '%s': a text of it is "
				 "longer than SQLite takes (%s; shorten it)", what,
				 ls->ss->base.location, sqlite3_errstr(ls->bind_rc));
	rc = sqlite3_step(ls->stmt);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	return sqlite_error(ls->ss, err, what);
}

static int64_t column_int(struct store_stmt *s, int col)
{
	return sqlite3_column_int64(stmt_of(s), col);
}

/*
 * Only a number is read as one: SQLite reads NULL, and text hand-edited into
 * a REAL column, as 0.0 or its leading digits, which a sample would then
 * be: those read as NAN (column_null() tells NULL apart).
 */
static double column_real(struct store_stmt *s, int col)
{
	sqlite3_stmt *stmt = stmt_of(s);
	int type = sqlite3_column_type(stmt, col);

	return type == SQLITE_FLOAT || type == SQLITE_INTEGER ?
	       sqlite3_column_double(stmt, col) : NAN;
}

static const char *column_text(struct store_stmt *s, int col)
{
	return (const char *)sqlite3_column_text(stmt_of(s), col);
}

static bool column_null(struct store_stmt *s, int col)
{
	return sqlite3_column_type(stmt_of(s), col) == SQLITE_NULL;
}

static void reset(struct store_stmt *s)
{
	struct sqlite_stmt *ls = (struct sqlite_stmt *)s;

	sqlite3_reset(ls->stmt);
	sqlite3_clear_bindings(ls->stmt);
	ls->bind_rc = 0;
	ls->base.busy = false;
}

/*
 * AUTOINCREMENT's next id: above the largest the table ever had (kept in
 * sqlite_sequence) and the largest it has. A row given it in the write
 * transaction raises sqlite_sequence as a row SQLite numbers would.
 */
static char *next_id_query(const char *table)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = "
		    "'%s'), 0), coalesce((SELECT max(id) FROM %s), 0)) + 1", table, table);
	return strbuf_detach(&sb);
}

/* Whether transactions of kind @txn run with foreign keys off (begin()). */
static bool unchecked(enum store_txn txn)
{
	return txn == TXN_SCHEMA || txn == TXN_ADD;
}

static void end_txn(struct sqlite_store *ss)
{
	if (unchecked(ss->txn))
		sqlite3_exec(ss->db, SQLITE_FOREIGN_KEYS_ON, NULL, NULL, NULL);
	ss->txn = TXN_READ;
}

/*
 * A write takes the write lock at once (IMMEDIATE): a busy store waits here,
 * not mid-way. A read is one transaction, to see whole iterations. Foreign
 * keys are off for an upgrade (dropping a table would delete the rows that
 * refer to it) and for TXN_ADD (driver.h); the pragma is a no-op inside a
 * transaction, so it is set around it, and on again if that did not start.
 */
static int begin(struct store *st, enum store_txn txn, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);

	ss->txn = txn;
	if (txn == TXN_READ)
		return sqlite_exec(st, "BEGIN", err, "start reading");
	if (unchecked(txn) &&
	    sqlite_exec(st, "PRAGMA foreign_keys = OFF", err, txn == TXN_SCHEMA ?
			"prepare the upgrade" : "start a transaction"))
		return -1;
	if (sqlite_exec(st, "BEGIN IMMEDIATE", err, txn == TXN_SCHEMA ?
			"start the upgrade" : "start a transaction")) {
		end_txn(ss);
		return -1;
	}
	return 0;
}

static void rollback(struct store *st)
{
	struct sqlite_store *ss = sqlite_of(st);

	if (!sqlite3_get_autocommit(ss->db))
		sqlite3_exec(ss->db, "ROLLBACK", NULL, NULL, NULL);
	end_txn(ss);
}

/* Every reference still leads somewhere after an upgrade. */
static int references_intact(struct sqlite_store *ss, struct error *err)
{
	char why[256];
	int rc = sqlite_dangling(ss, why, sizeof(why), err, "check the upgraded schema");

	if (rc > 0)
		return error_set(err, EXIT_ENV, "cannot upgrade store '%s', nothing was changed: %s",
				 ss->base.location, why);
	return rc;
}

static int commit(struct store *st, struct error *err)
{
	struct sqlite_store *ss = sqlite_of(st);

	if ((ss->txn == TXN_SCHEMA && references_intact(ss, err)) ||
	    sqlite_exec(st, "COMMIT", err, ss->txn == TXN_SCHEMA ? "commit the upgrade" :
			"commit")) {
		rollback(st);
		return -1;
	}
	end_txn(ss);
	return 0;
}

/*
 * load_each_metrics: history of 10,000 batches of 3 metrics each, a batch
 * at a time, took 20 % more CPU than whole; of 10 metrics, the same CPU
 * and a third of the memory.
 */
#define SQLITE_PRIMITIVES							\
	.dialect = DIALECT_SQLITE,						\
	.load_each_metrics = 8,							\
	.now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",				\
	.close = sqlite_close,							\
	.version = sqlite_version,						\
	.script = sqlite_exec,							\
	.set_version = sqlite_set_version,					\
	.begin = begin,								\
	.commit = commit,							\
	.rollback = rollback,							\
	.prepare = prepare,							\
	.bind_int = bind_int,							\
	.bind_real = bind_real,							\
	.bind_text = bind_text,							\
	.step = step,								\
	.column_int = column_int,						\
	.column_real = column_real,						\
	.column_text = column_text,						\
	.column_null = column_null,						\
	.reset = reset,								\
	.next_id_query = next_id_query

const struct store_driver store_sqlite = {
	.name = "SQLite",
	.schemes = NULL,
	.open = sqlite_open,
	.damage = sqlite_damage,
	.close_removing_empty = sqlite_close_removing_empty,
	SQLITE_PRIMITIVES,
};

/* A store in memory, new and empty, gone when closed: for unit tests (store_open_memory()). */
const struct store_driver store_memory = {
	.name = "SQLite",
	.open = sqlite_open_memory,
	.damage = sqlite_damage,
	SQLITE_PRIMITIVES,
};
