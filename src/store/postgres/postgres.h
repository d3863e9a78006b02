/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_POSTGRES_POSTGRES_H
#define SCHEDPERF_STORE_POSTGRES_POSTGRES_H

/*
 * Inside the PostgreSQL driver (driver.h), through libpq (lib.c): the handle
 * and what its files share. driver.c has the primitives and faults, open.c
 * the connection, schema.c a database's version and damage, queue.c the job
 * queue. Values are always parameters, never text pasted into SQL.
 */

#include <libpq-fe.h>
#include <stdbool.h>

#include "store/driver.h"

#define PG_STATEMENTS 64

/* The text of a bound number: an int64 or a double at %.17g, with its NUL. */
#define PG_NUMBER_LEN 32

struct pg_stmt {
	struct store_stmt base;
	struct pg_store *ps;
	const char **values;		/* as the text PostgreSQL reads, one a parameter */
	char (*buf)[PG_NUMBER_LEN];	/* the numbers' texts */
	int nr;				/* the parameters bound: the highest $N */
	PGresult *res;			/* once run: its rows, the one at @row */
	int row;
};

struct pg_store {
	struct store base;
	PGconn *conn;
	bool read_only;		/* not STORE_WRITE: nothing may be written */
	struct pg_stmt stmts[PG_STATEMENTS];
	int nr_stmts;
	bool unanswered;	/* the last call's connection was given up: no answer in time */
};

static inline struct pg_store *pg_of(struct store *st)
{
	return (struct pg_store *)st;
}

/*
 * The advisory lock every write takes first (its key spells "SchPWRIT"):
 * writers take turns, as on SQLite, so a check and its claim are one step.
 */
#define PG_WRITE_LOCK "pg_advisory_xact_lock(6008761022114056532)"

/* driver.c */
/*
 * @sql, not prepared, with $1 @value unless NULL: 0, and the first row's
 * first column as an integer in *@first unless NULL (0 when no row, a
 * boolean 0 or 1); or -1 with @err.
 */
int pg_run(struct pg_store *ps, const char *sql, const char *value, int64_t *first,
	   struct error *err, const char *what);
/* The first line of libpq's message @msg, which may run over several. */
void pg_first_line(const char *msg, char *buf, size_t len);
/*
 * How long a connection waits for the server's answer: the store's patience
 * (store_set_patience()), else connect_timeout's 10 s (open.c, which bounds
 * only a connection's making then: a call without a patience waits on).
 */
int pg_patience_ms(const struct pg_store *ps);
/* Why the connection is lost: libpq's words, or the patience it ran out of. */
void pg_why_lost(struct pg_store *ps, char *buf, size_t len);
/* After a reconnect: every statement prepared so far, again under its name. */
int pg_prepare_again(struct pg_store *ps, struct error *err);

/* open.c */
int pg_open(const char *location, enum store_access access, store_upgrade_fn *upgrade,
	    struct store **out, struct error *err);
void pg_close(struct store *st);
int pg_reconnect(struct store *st, struct error *err);

/* schema.c */
/* The version of the store, 0 for a database without tables, -1 with @err for others'. */
int pg_version(struct store *st, struct error *err);
int pg_set_version(struct store *st, int version, struct error *err);
/* A table of that version missing, a version table of other than one row. */
int pg_damage(struct store *st, int version, struct store *fresh, char *buf, size_t len,
	      struct error *err);

/* queue.c */
extern const char pg_job_claim[], pg_job_renew[], pg_job_hold[];
extern const char pg_job_booting[], pg_job_booted[], pg_job_came_back[], pg_job_boots_over[],
	pg_job_lost_run[];
extern const char pg_job_boot_lost[];

#endif
