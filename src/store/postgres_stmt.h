/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_STMT_H
#define SCHEDPERF_STORE_POSTGRES_STMT_H

/*
 * Inside the PostgreSQL backend, below its other files: the handle and the
 * statement helpers they share. postgres.c has the queries and the
 * operations table, postgres_jobs.c the job queue, postgres_profile.c the
 * CPU profiles, postgres_open.c the connection, and postgres_schema.c the
 * schema with its migrations; none of them calls another's functions
 * except through here and their own headers.
 *
 * Every query is a prepared statement with its values as parameters,
 * never text pasted into SQL; each is prepared once per connection, on
 * its first use.
 */

#include <libpq-fe.h>
#include <stdbool.h>

#include "store/backend.h"

#define PG_MAX_PARAMS 12
#define PG_MAX_STATEMENTS 64

struct pg_store {
	struct store base;	/* base.location: the URL without its password */
	PGconn *conn;
	bool read_only;		/* STORE_READ: nothing may be written */
	const char *prepared[PG_MAX_STATEMENTS];	/* by the SQL's address */
	int nr_prepared;
};

static inline struct pg_store *pg_of(struct store *st)
{
	return (struct pg_store *)st;
}

/* A query's parameters, as the text PostgreSQL reads them. */
struct pg_params {
	const char *values[PG_MAX_PARAMS];
	char buf[PG_MAX_PARAMS][32];
	int nr;
};

void pg_param_text(struct pg_params *p, const char *s);	/* NULL: SQL NULL */
void pg_param_int(struct pg_params *p, int64_t v);
void pg_param_bool(struct pg_params *p, bool v);
void pg_param_double(struct pg_params *p, double v);

/*
 * Run the prepared statement @sql (a string constant: it is known by its
 * address) with @params (may be NULL). The result on success, to be
 * PQclear()ed; NULL with @err on any fault, "cannot WHAT in store ...".
 */
PGresult *pg_query(struct pg_store *ps, const char *sql, const struct pg_params *params,
		   struct error *err, const char *what);
/* The same for a statement whose result is not needed: 0, or -1 with @err. */
int pg_exec(struct pg_store *ps, const char *sql, const struct pg_params *params,
	    struct error *err, const char *what);

/* Column @col of row @row: "" for NULL, an integer, a boolean. */
const char *pg_text(const PGresult *res, int row, int col);
int64_t pg_int(const PGresult *res, int row, int col);
bool pg_bool(const PGresult *res, int row, int col);

/* The first line of libpq's message @msg, which may run over several. */
void pg_first_line(const char *msg, char *buf, size_t len);

/* The SQLSTATE of @res's error ("23505": a unique constraint), or "". */
const char *pg_sqlstate(const PGresult *res);

/*
 * The advisory lock that every write transaction takes first (its key
 * spells "SchPWRIT"):
 * writers to a store take turns, as SQLite's do, so that a check and the
 * claim that follows it are one step for every other process (store.c).
 */
#define PG_WRITE_LOCK "pg_advisory_xact_lock(6008761022114056532)"

/* Now, as the store writes times: ISO 8601 UTC, milliseconds. */
#define PG_NOW "to_char(clock_timestamp() AT TIME ZONE 'UTC', " \
	"'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

#endif
