// SPDX-License-Identifier: GPL-2.0
/*
 * The PostgreSQL driver's primitives (driver.h), and every fault's message.
 * A write first takes the store's write lock, so writers take turns as on
 * SQLite; a read is one REPEATABLE READ snapshot, of whole iterations. A
 * statement's rows come whole, on its first step: a round trip costs more.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "store/postgres/lib.h"
#include "store/postgres/postgres.h"
#include "util/signals.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* Column @col of row @row as an integer: 0 for NULL, a boolean 0 or 1. */
static int64_t pg_int(const PGresult *res, int row, int col)
{
	const char *text = PQgetisnull(res, row, col) ? "" : PQgetvalue(res, row, col);

	if (text[0] == 't' || text[0] == 'f')
		return text[0] == 't';	/* a boolean */
	return strtoll(text, NULL, 10);
}

void pg_first_line(const char *msg, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(msg, "\n"), msg);
}

/* The wait for the write lock that a signal ends (take_write_lock()). */
static PGcancel *volatile lock_waiter;
static volatile int lock_waiter_socket = -1;
static volatile sig_atomic_t lock_wait_dropped;	/* its connection shut down */

/*
 * What to do about a failed query: the connection gone (the server
 * stopped, the network failed) is the machine's doing, as is a privilege
 * the role lacks.
 */
static int query_error(struct pg_store *ps, const PGresult *res, struct error *err,
		       const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *primary;
	char msg[256];

	state = state ? state : "";
	/*
	 * a wait for the lock that a signal ended (take_write_lock()) ends as a
	 * busy one, cancelled or its connection shut down
	 */
	ps->base.lock_busy = !strcmp(state, "55P03") ||
			     ((!strcmp(state, "57014") || lock_wait_dropped) && signals_caught());
	/* the server's own words, without libpq's "ERROR:  " before them */
	primary = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	pg_first_line(primary ? primary : res ? PQresultErrorMessage(res) :
		      PQerrorMessage(ps->conn), msg, sizeof(msg));
	if (!*msg || ps->unanswered)
		pg_why_lost(ps, msg, sizeof(msg));
	if (PQstatus(ps->conn) == CONNECTION_BAD)
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': the connection to the "
				 "server is lost: %s (check that the server runs, then run the "
				 "command again)", what, ps->base.location, msg);
	if (!strcmp(state, "55P03"))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (" STORE_LOCK_HINT
				 ")", what, ps->base.location, msg);
	if (!strcmp(state, "42501"))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (this role lacks "
				 "the right: grant it what 'man schedperf' shows under GRANT for "
				 "a worker, a submitter or a reader)", what, ps->base.location,
				 msg);
	if (!strncmp(state, "53", 2))
		return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (the server is out "
				 "of resources: free disk space or memory, then run again)", what,
				 ps->base.location, msg);
	return error_set(err, EXIT_ENV, "cannot %s in store '%s': %s (check the server's "
			 "log)", what, ps->base.location, msg);
}

int pg_patience_ms(const struct pg_store *ps)
{
	return ps->base.patience_ms ? ps->base.patience_ms : 10000;
}

void pg_why_lost(struct pg_store *ps, char *buf, size_t len)
{
	const char *msg = PQerrorMessage(ps->conn);

	if (ps->unanswered)
		snprintf(buf, len, "the server did not answer within %g s",
			 pg_patience_ms(ps) / 1e3);
	else
		pg_first_line(msg + (strncmp(msg, "FATAL:  ", 8) ? 0 : 8), buf, len);
}

static bool unreachable(struct store *st, char *why, size_t len)
{
	struct pg_store *ps = pg_of(st);

	/* not OK: lost, or a reconnect that did not finish */
	if (PQstatus(ps->conn) == CONNECTION_OK)
		return false;
	pg_why_lost(ps, why, len);
	return true;
}

/*
 * The result of what was just sent (@sent: it was), as PQexec() would give
 * it, the server given the store's patience to answer (store_set_patience()),
 * if it has one: past it the connection is shut down, which ends the wait as
 * a lost connection does. A stopped server, or one behind a network that
 * drops what is sent, would otherwise hold the caller for ever on a Unix
 * socket, or for as long as TCP retries. Every query and statement is sent
 * so, a patience or none, so that each is sent and waited for in one way;
 * ROLLBACK and the schema's scripts still go by PQexec().
 */
static PGresult *answer(struct pg_store *ps, int sent)
{
	int patience = ps->base.patience_ms;
	double until = time_now() + patience / 1000.0;
	PGresult *res, *last = NULL;

	ps->unanswered = false;
	while (sent && PQisBusy(ps->conn)) {
		struct pollfd p = { PQsocket(ps->conn), POLLIN, 0 };
		double left = until - time_now();

		if (patience && left <= 0) {
			ps->unanswered = true;
			shutdown(p.fd, SHUT_RDWR);
			break;
		}
		if (poll(&p, 1, patience ? (int)(left * 1000) + 1 : -1) < 0 && errno != EINTR)
			break;
		if (!PQconsumeInput(ps->conn))
			break;
	}
	while ((res = PQgetResult(ps->conn))) {
		PQclear(last);
		last = res;
	}
	return last;
}

/* @res if it went well, else NULL with @err (and @res cleared). */
static PGresult *result(struct pg_store *ps, PGresult *res, struct error *err,
			const char *what)
{
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

int pg_run(struct pg_store *ps, const char *sql, const char *value, int64_t *first,
	   struct error *err, const char *what)
{
	PGresult *res = answer(ps, PQsendQueryParams(ps->conn, sql, value ? 1 : 0, NULL, &value,
						     NULL, NULL, 0));

	res = result(ps, res, err, what);
	if (res && first)
		*first = PQntuples(res) ? pg_int(res, 0, 0) : 0;
	PQclear(res);
	return res ? 0 : -1;
}

/* The parameters of @sql: the highest $N in it. */
static int parameters(const char *sql)
{
	int most = 0;

	for (const char *p = strchr(sql, '$'); p; p = strchr(p + 1, '$')) {
		int n = atoi(p + 1);

		if (n > most)
			most = n;
	}
	return most;
}

/* Prepare @sql on the server as statement @nr: 0, or -1 with @err. */
static int prepare_as(struct pg_store *ps, int nr, const char *sql, struct error *err)
{
	char name[16], *text = store_sql_dialect(sql, ps->base.driver->now);
	PGresult *res;

	snprintf(name, sizeof(name), "sp%d", nr);
	res = answer(ps, PQsendPrepare(ps->conn, name, text ? text : sql, 0, NULL));
	res = result(ps, res, err, "prepare a query");
	free(text);
	if (!res)
		return -1;
	PQclear(res);
	return 0;
}

int pg_prepare_again(struct pg_store *ps, struct error *err)
{
	for (int i = 0; i < ps->nr_stmts; i++)
		if (prepare_as(ps, i, ps->stmts[i].base.sql, err))
			return -1;
	return 0;
}

static struct store_stmt *prepare(struct store *st, const char *sql, struct error *err)
{
	struct pg_store *ps = pg_of(st);
	struct store_stmt *found;
	struct pg_stmt *s;
	int params;

	if (store_stmt_lookup(ps->stmts, sizeof(ps->stmts[0]), ps->nr_stmts, PG_STATEMENTS, sql,
			      &found, err) || found)
		return found;
	s = &ps->stmts[ps->nr_stmts];
	if (prepare_as(ps, ps->nr_stmts, sql, err))
		return NULL;
	memset(s, 0, sizeof(*s));
	s->base = (struct store_stmt){ .driver = st->driver, .sql = sql, .busy = true };
	s->ps = ps;
	params = parameters(sql);
	s->values = xcalloc(params ? params : 1, sizeof(*s->values));
	s->buf = xcalloc(params ? params : 1, sizeof(*s->buf));
	ps->nr_stmts++;
	return &s->base;
}

static struct pg_stmt *pg_stmt_of(struct store_stmt *s)
{
	return (struct pg_stmt *)s;
}

static void bind_text(struct store_stmt *s, int i, const char *v)
{
	struct pg_stmt *ps = pg_stmt_of(s);

	ps->values[i - 1] = v;
	if (i > ps->nr)
		ps->nr = i;
}

static void bind_int(struct store_stmt *s, int i, int64_t v)
{
	char *buf = pg_stmt_of(s)->buf[i - 1];

	snprintf(buf, PG_NUMBER_LEN, "%" PRId64, v);
	bind_text(s, i, buf);
}

/* %.17g reads back as the same double; NAN (not measured) is NULL, never 'NaN'. */
static void bind_real(struct store_stmt *s, int i, double v)
{
	char *buf = pg_stmt_of(s)->buf[i - 1];

	snprintf(buf, PG_NUMBER_LEN, "%.17g", v);
	bind_text(s, i, isnan(v) ? NULL : buf);
}

static int step(struct store_stmt *s, struct error *err, const char *what)
{
	struct pg_stmt *ls = pg_stmt_of(s);
	char name[16];

	if (!ls->res) {
		snprintf(name, sizeof(name), "sp%d", (int)(ls - ls->ps->stmts));
		ls->res = answer(ls->ps, PQsendQueryPrepared(ls->ps->conn, name, ls->nr,
							     ls->values, NULL, NULL, 0));
		ls->res = result(ls->ps, ls->res, err, what);
		if (!ls->res)
			return -1;
		ls->row = -1;
	}
	return ++ls->row < PQntuples(ls->res);
}

static int64_t column_int(struct store_stmt *s, int col)
{
	return pg_int(pg_stmt_of(s)->res, pg_stmt_of(s)->row, col);
}

static double column_real(struct store_stmt *s, int col)
{
	struct pg_stmt *ls = pg_stmt_of(s);

	return PQgetisnull(ls->res, ls->row, col) ? NAN :
	       strtod(PQgetvalue(ls->res, ls->row, col), NULL);
}

static const char *column_text(struct store_stmt *s, int col)
{
	struct pg_stmt *ls = pg_stmt_of(s);

	return PQgetisnull(ls->res, ls->row, col) ? NULL : PQgetvalue(ls->res, ls->row, col);
}

static bool column_null(struct store_stmt *s, int col)
{
	return PQgetisnull(pg_stmt_of(s)->res, pg_stmt_of(s)->row, col);
}

static void reset(struct store_stmt *s)
{
	struct pg_stmt *ls = pg_stmt_of(s);

	PQclear(ls->res);
	ls->res = NULL;
	memset(ls->values, 0, (size_t)ls->nr * sizeof(*ls->values));
	ls->nr = 0;
	ls->base.busy = false;
}

static void rollback(struct store *st)
{
	struct pg_store *ps = pg_of(st);

	if (PQtransactionStatus(ps->conn) != PQTRANS_IDLE &&
	    PQstatus(ps->conn) == CONNECTION_OK)
		PQclear(PQexec(ps->conn, "ROLLBACK"));
}

/*
 * TXN_ADD checks its references too: only a superuser may turn them off.
 * A check is planned once a connection, for its table's size then, and a
 * TXN_ADD fills tables that may be empty at that point: a whole-table scan
 * planned then, run for every row after, makes an import quadratic. So it
 * plans without them where an index serves.
 */
#define PG_ADD_PLANS "SET LOCAL enable_seqscan = off"

/*
 * The wait for the write lock is libpq's, which a signal does not end: a
 * caught one (Ctrl-C) cancels it on the server, so that the command stops
 * at once, as on SQLite. PQcancel() connects anew, blocking, bounded only
 * by tcp_user_timeout (open.c) on a server it cannot reach; when it fails
 * the handler shuts the connection down, which ends the wait at once (the
 * server ends that session when its wait is over).
 */
static void cancel_lock_wait(void)
{
	char why[256];	/* PQcancel()'s, on this stack: async-signal-safe */

	if (lock_waiter && !PQcancel(lock_waiter, why, sizeof(why)) && lock_waiter_socket >= 0) {
		lock_wait_dropped = 1;
		shutdown(lock_waiter_socket, SHUT_RDWR);
	}
}

static int take_write_lock(struct pg_store *ps, struct error *err)
{
	PGcancel *cancel = PQgetCancel(ps->conn);
	int rc;

	lock_waiter = cancel;
	lock_waiter_socket = PQsocket(ps->conn);
	signals_end_wait_with(cancel_lock_wait);
	/* after a signal, a lock held by another is not waited for (ab's discard, a run's end) */
	rc = (signals_caught() &&
	      pg_run(ps, "SET LOCAL lock_timeout = 1", NULL, NULL, err, "start a transaction")) ||
	     pg_run(ps, "SELECT " PG_WRITE_LOCK, NULL, NULL, err, "take the store's write lock");
	signals_end_wait_with(NULL);
	lock_waiter = NULL;
	lock_waiter_socket = -1;
	PQfreeCancel(cancel);
	return rc ? -1 : 0;
}

static int begin(struct store *st, enum store_txn txn, struct error *err)
{
	struct pg_store *ps = pg_of(st);

	if (txn == TXN_READ)
		return pg_run(ps, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL, NULL,
			      err, "start reading");
	if ((txn == TXN_WRITE || txn == TXN_ADD) && ps->read_only)
		return error_set(err, EXIT_INTERNAL, "a write to store '%s' opened for reading",
				 st->location);
	if (pg_run(ps, "BEGIN", NULL, NULL, err, txn == TXN_SCHEMA ? "start the upgrade" :
		   "start a transaction"))
		return -1;
	if (take_write_lock(ps, err) ||
	    (txn == TXN_ADD && pg_run(ps, PG_ADD_PLANS, NULL, NULL, err, "start a transaction"))) {
		rollback(st);
		return -1;
	}
	return 0;
}

static int commit(struct store *st, struct error *err)
{
	if (pg_run(pg_of(st), "COMMIT", NULL, NULL, err, "commit")) {
		rollback(st);
		return -1;
	}
	return 0;
}

/* Constant SQL of several statements (DDL): no parameters, so not prepared. */
static int script(struct store *st, const char *sql, struct error *err, const char *what)
{
	struct pg_store *ps = pg_of(st);
	PGresult *res = PQexec(ps->conn, sql);
	int rc = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = error_set(err, EXIT_ENV, "cannot %s in store '%s': %.*s (check the "
			       "server's log, and that this role may create tables)", what,
			       ps->base.location,
			       (int)strcspn(PQresultErrorMessage(res), "\n"),
			       PQresultErrorMessage(res));
	PQclear(res);
	return rc;
}

static const char *const postgres_schemes[] = { "postgresql://", "postgres://", NULL };

const struct store_driver store_postgres = {
	.name = "PostgreSQL",
	.schemes = postgres_schemes,
	.dialect = DIALECT_POSTGRES,
	/*
	 * Each query is a round trip to the server: history of 3,000 batches
	 * of 100 metrics, a batch at a time, took 1.9 times as long as whole
	 * (a fifth of the memory), and far longer before the server had
	 * analysed a fresh import's tables.
	 */
	.load_each_metrics = 256,
	.now = "to_char(clock_timestamp() AT TIME ZONE 'UTC', "
	       "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')",
	.job_claim = pg_job_claim,
	.job_renew = pg_job_renew,
	.job_hold = pg_job_hold,
	.job_booting = pg_job_booting,
	.job_booted = pg_job_booted,
	.job_came_back = pg_job_came_back,
	.job_boot_lost = pg_job_boot_lost,
	.job_boots_over = pg_job_boots_over,
	.job_lost_run = pg_job_lost_run,
	.open = pg_open,
	.damage = pg_damage,
	.close = pg_close,
	.unreachable = unreachable,
	.reconnect = pg_reconnect,
	.forget_in_child = pg_library_forget,
	.version = pg_version,
	.script = script,
	.set_version = pg_set_version,
	.begin = begin,
	.commit = commit,
	.rollback = rollback,
	.prepare = prepare,
	.bind_int = bind_int,
	.bind_real = bind_real,
	.bind_text = bind_text,
	.step = step,
	.column_int = column_int,
	.column_real = column_real,
	.column_text = column_text,
	.column_null = column_null,
	.reset = reset,
};
