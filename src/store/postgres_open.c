// SPDX-License-Identifier: GPL-2.0
/*
 * Connecting to a PostgreSQL store, its errors and its prepared statements.
 *
 * The location is a libpq URI (postgresql://...), given to libpq as it is:
 * credentials come only through libpq's own means (a service file,
 * ~/.pgpass or PGPASSFILE, the PG* variables), and a password written in
 * the URI is never shown: messages name the store by the URI without it
 * (store_location_shown()).
 *
 * A command that writes creates the schema in a database with no tables
 * and upgrades an older one; a command that reads changes nothing, so a
 * role that may only SELECT can run it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/postgres.h"
#include "util/xalloc.h"

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
static void first_line(const char *msg, char *buf, size_t len)
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

	first_line(res ? PQresultErrorMessage(res) : PQerrorMessage(ps->conn), msg,
		   sizeof(msg));
	if (!*msg)
		first_line(PQerrorMessage(ps->conn), msg, sizeof(msg));
	if (PQstatus(ps->conn) == CONNECTION_BAD)
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': the connection to the "
				 "server is lost: %s (check that the server runs, then run again; "
				 "'run --resume' finishes a batch)", what, ps->base.location, msg);
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

/* Notices (an index that exists already ...) are not schedperf's to print. */
static void ignore_notice(void *arg, const char *message)
{
}

static int connect_error(struct pg_store *ps, struct error *err)
{
	char msg[256];

	first_line(PQerrorMessage(ps->conn), msg, sizeof(msg));
	if (strstr(msg, "password") || strstr(msg, "authentication"))
		return error_set(err, EXIT_ENV, "cannot open store '%s': %s (give the password "
				 "through ~/.pgpass, PGPASSFILE or a service file, never on the "
				 "command line)", ps->base.location, msg);
	return error_set(err, EXIT_ENV, "cannot open store '%s': %s (check that the server "
			 "runs and that the URL names it)", ps->base.location, msg);
}

/*
 * libpq's defaults first, the URI's own settings over them: a server that
 * does not answer is given up after 10 s unless the URI says otherwise.
 */
static PGconn *connect_to(const char *location)
{
	static const char *const keys[] = { "connect_timeout", "application_name",
					     "dbname", NULL };
	const char *values[] = { "10", "schedperf", location, NULL };

	return PQconnectdbParams(keys, values, 1);
}

/*
 * A write waits for another writer's lock as long as on SQLite, then
 * fails (lock_timeout 0 would wait for ever).
 */
static int set_lock_timeout(struct pg_store *ps, struct error *err)
{
	struct pg_params p = { .nr = 0 };
	int ms = store_busy_timeout_ms();
	char text[32];

	snprintf(text, sizeof(text), "%dms", ms > 0 ? ms : 1);
	pg_param_text(&p, text);
	return pg_exec(ps, "SELECT set_config('lock_timeout', $1, false)", &p, err,
		       "set the lock timeout");
}

void pg_close(struct store *st)
{
	struct pg_store *ps = pg_of(st);

	PQfinish(ps->conn);
	free(ps->base.location);
	free(ps);
}

int pg_open(const char *location, enum store_access access, struct store **out,
	    struct error *err)
{
	struct pg_store *ps = xcalloc(1, sizeof(*ps));
	char shown[512];
	int rc;

	store_location_shown(location, shown, sizeof(shown));
	ps->base.be = &store_postgres;
	ps->base.location = xstrdup(shown);
	ps->read_only = access == STORE_READ;
	ps->conn = connect_to(location);
	if (!ps->conn) {
		error_set(err, EXIT_ENV, "cannot open store '%s': out of memory", shown);
		goto fail;
	}
	if (PQstatus(ps->conn) != CONNECTION_OK) {
		connect_error(ps, err);
		goto fail;
	}
	PQsetNoticeProcessor(ps->conn, ignore_notice, NULL);
	if (set_lock_timeout(ps, err))
		goto fail;
	if (access == STORE_READ) {
		rc = pg_schema_check(ps, false, err);
		if (rc < 0)
			goto fail;
		if (rc < STORE_SCHEMA_VERSION) {
			error_set(err, EXIT_ENV, "cannot read store '%s': its schema version %d "
				  "is older than this schedperf's (%d) (upgrade it with 'schedperf "
				  "db upgrade' as a role that may)", shown, rc,
				  STORE_SCHEMA_VERSION);
			goto fail;
		}
	} else if (pg_schema_upgrade(ps, err)) {
		goto fail;
	}
	*out = &ps->base;
	return 0;
fail:
	pg_close(&ps->base);
	return -1;
}
