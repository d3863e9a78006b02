// SPDX-License-Identifier: GPL-2.0
/*
 * The PostgreSQL backend's statements, their parameters and their errors,
 * below everything else in the backend: every query of postgres.c,
 * postgres_jobs.c, postgres_open.c and postgres_schema.c is prepared once
 * per connection and run through pg_query(), so that every fault reads the
 * same.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/postgres_stmt.h"

void pg_param_text(struct pg_params *p, const char *s)
{
	p->values[p->nr++] = s;
}

void pg_param_int(struct pg_params *p, int64_t v)
{
	snprintf(p->buf[p->nr], sizeof(p->buf[0]), "%" PRId64, v);
	p->values[p->nr] = p->buf[p->nr];
	p->nr++;
}

void pg_param_bool(struct pg_params *p, bool v)
{
	p->values[p->nr++] = v ? "true" : "false";
}

/* %.17g reads back as the same double. */
void pg_param_double(struct pg_params *p, double v)
{
	snprintf(p->buf[p->nr], sizeof(p->buf[0]), "%.17g", v);
	p->values[p->nr] = p->buf[p->nr];
	p->nr++;
}

const char *pg_text(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? "" : PQgetvalue(res, row, col);
}

int64_t pg_int(const PGresult *res, int row, int col)
{
	return strtoll(pg_text(res, row, col), NULL, 10);
}

bool pg_bool(const PGresult *res, int row, int col)
{
	return pg_text(res, row, col)[0] == 't';
}

const char *pg_sqlstate(const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	return state ? state : "";
}

/* The first line of libpq's message, which may run over several. */
void pg_first_line(const char *msg, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(msg, "\n"), msg);
}

/*
 * What to do about a failed query: the connection gone (the server
 * stopped, the network failed) is the machine's doing, as is a privilege
 * the role lacks.
 */
static int query_error(struct pg_store *ps, const PGresult *res, struct error *err,
		       const char *what)
{
	const char *state = pg_sqlstate(res);
	char msg[256];

	pg_first_line(res ? PQresultErrorMessage(res) : PQerrorMessage(ps->conn), msg,
		   sizeof(msg));
	if (!*msg)
		pg_first_line(PQerrorMessage(ps->conn), msg, sizeof(msg));
	if (PQstatus(ps->conn) == CONNECTION_BAD)
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': the connection to the "
				 "server is lost: %s (check that the server runs, then run the "
				 "command again)", what, ps->base.location, msg);
	if (!strcmp(state, "55P03"))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (another process "
				 "holds the store's write lock; run again when it is done)", what,
				 ps->base.location, msg);
	if (!strcmp(state, "42501"))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (this role may not; "
				 "see GRANT in schedperf(1))", what, ps->base.location, msg);
	if (!strncmp(state, "53", 2))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (the server is out "
				 "of resources: free disk space or memory, then run again)", what,
				 ps->base.location, msg);
	return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (check the server's "
			 "log)", what, ps->base.location, msg);
}

/* The name of @sql's prepared statement, preparing it on first use; NULL on a fault. */
static const char *statement(struct pg_store *ps, const char *sql, int nr_params,
			     char *name, size_t len, struct error *err)
{
	PGresult *res;
	int i;

	for (i = 0; i < ps->nr_prepared; i++)
		if (ps->prepared[i] == sql)
			break;
	snprintf(name, len, "sp%d", i);
	if (i < ps->nr_prepared)
		return name;
	if (i == PG_MAX_STATEMENTS) {
		error_set(err, EXIT_INTERNAL, "more than %d distinct queries: raise "
			  "PG_MAX_STATEMENTS", PG_MAX_STATEMENTS);
		return NULL;
	}
	res = PQprepare(ps->conn, name, sql, nr_params, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		query_error(ps, res, err, "prepare a query");
		PQclear(res);
		return NULL;
	}
	PQclear(res);
	ps->prepared[ps->nr_prepared++] = sql;
	return name;
}

PGresult *pg_query(struct pg_store *ps, const char *sql, const struct pg_params *params,
		   struct error *err, const char *what)
{
	int nr = params ? params->nr : 0;
	char name[16];
	PGresult *res;

	if (!statement(ps, sql, nr, name, sizeof(name), err))
		return NULL;
	res = PQexecPrepared(ps->conn, name, nr, params ? params->values : NULL, NULL, NULL,
			     0);
	switch (PQresultStatus(res)) {
	case PGRES_COMMAND_OK:
	case PGRES_TUPLES_OK:
		return res;
	default:
		query_error(ps, res, err, what);
		PQclear(res);
		return NULL;
	}
}

int pg_exec(struct pg_store *ps, const char *sql, const struct pg_params *params,
	    struct error *err, const char *what)
{
	PGresult *res = pg_query(ps, sql, params, err, what);

	PQclear(res);
	return res ? 0 : -1;
}
