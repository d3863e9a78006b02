/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_H
#define SCHEDPERF_STORE_POSTGRES_H

/*
 * Inside the PostgreSQL backend: its handle and the helpers its files
 * share. postgres.c has the queries and the operations table,
 * postgres_open.c the connection, its errors and the statement cache, and
 * postgres_schema.c the schema with its migrations.
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

/* The SQLSTATE of @res's error ("23505": a unique constraint), or "". */
const char *pg_sqlstate(const PGresult *res);

/*
 * The advisory lock that every write transaction takes first (its key
 * spells "SchPWRIT"):
 * writers to a store take turns, as SQLite's do, so that a check and the
 * claim that follows it are one step for every other process (store.c).
 */
#define PG_WRITE_LOCK "pg_advisory_xact_lock(6008761022114056532)"

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

/* Now, as the store writes times: ISO 8601 UTC, milliseconds. */
#define PG_NOW "to_char(clock_timestamp() AT TIME ZONE 'UTC', " \
	"'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"

/* The job queue's operations (postgres_jobs.c; backend.h). */
int pg_job_submit(struct store *st, const char *args, const char *machine,
		  const char *machine_like, int priority, int64_t *id, struct error *err);
int pg_job_claim(struct store *st, const char *worker, const char *claim, int lease,
		 struct store_job *job, struct error *err);
int pg_job_renew(struct store *st, int64_t id, const char *claim, int lease,
		 struct error *err);
int pg_job_fail(struct store *st, int64_t id, const char *claim, const char *reason,
		struct error *err);
int pg_jobs_list(struct store *st, struct store_job **jobs, size_t *nr, struct error *err);
int pg_job_cancel(struct store *st, int64_t id, struct error *err);
int pg_batch_attach_job(struct store *st, int64_t batch_id, int64_t job_id,
			const char *claim, struct error *err);
int pg_job_complete(struct store *st, int64_t batch_id, struct error *err);

int pg_open(const char *location, enum store_access access, struct store **out,
	    struct error *err);
void pg_close(struct store *st);

#endif
