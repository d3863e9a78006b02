/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_DRIVER_H
#define SCHEDPERF_STORE_DRIVER_H

/*
 * An SQL driver: what the store's queries ask of a database, and no more
 * (doc/design.md, "The store"). Every query is written once, above the
 * drivers (queries.h), in one dialect: placeholders $1, $2 ... each first
 * used in that order, "RETURNING id" for the id of an insert, "ON
 * CONFLICT ... DO NOTHING" where a unique key may be taken, booleans as 0
 * and 1, {now} for the time as ISO 8601 UTC with milliseconds. Where the
 * dialects differ (the schema, the job queue's claim) the driver holds
 * its own text.
 *
 * A driver is a directory under src/store/ (sqlite/, postgres/) and one
 * row of store_drivers[] in open.c, chosen by the location's scheme as
 * git chooses its ref storage backends. Only src/store/ includes this;
 * callers use store.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/store.h"

/* What a command will do with the store it opens. */
enum store_access {
	STORE_READ,		/* never create or change anything */
	STORE_WRITE,		/* create it if missing, upgrade its schema */
	STORE_INSPECT,		/* as STORE_READ, as it is: any version, or nothing there */
};

/* Which text of a schema row a driver runs (store/schema.c). */
enum store_dialect {
	DIALECT_SQLITE,
	DIALECT_POSTGRES,
	NR_DIALECTS		/* how many texts a schema row may have */
};

enum store_txn {
	TXN_READ,		/* one snapshot: whole iterations only */
	TXN_WRITE,		/* writers take turns: a check and a claim are one step */
	/*
	 * A write that only adds rows (no UPDATE, no DELETE: no cascade to
	 * run), each referring to rows it found or added itself: another
	 * writer waits for it, so none of those can go before it commits.
	 * Its references are right as it makes them, and a driver need not
	 * look each one up again (import: a fifth of its time).
	 */
	TXN_ADD,
	TXN_SCHEMA,		/* an upgrade: a write that may rebuild tables */
};

/* The part of every driver's handle that the queries read. */
struct store {
	const struct store_driver *driver;
	char *location;		/* as messages show it: no password */
	int64_t job_id;		/* the job this process runs (store_set_job()); 0 */
	char job_claim[192];	/* a claim: jobs.c, new_claim() */
	bool lock_busy;		/* the last error was the write lock held too long */
	int upgraded_from;	/* the version its open upgraded, read under the lock; 0 */
};

/* A prepared statement: the first member of each driver's own. */
struct store_stmt {
	const struct store_driver *driver;
	const char *sql;	/* the text it was prepared from, known by its address */
	bool busy;		/* prepared for a use not yet reset */
};

/* A job's columns, as jobs.c reads them. */
#define STORE_JOB_COLUMNS "id, state, args, machine, priority, attempts, worker, since, " \
	"reason, coalesce(result_batch, 0), claim, max_attempts, command, result, kernel, " \
	"home_kernel, boot_deadline, CASE WHEN state = 'running' AND lease_until < " \
	"clock_timestamp() THEN 1 ELSE 0 END"

/* Bring the schema of @st to STORE_SCHEMA_VERSION (store/schema.c). */
typedef int store_upgrade_fn(struct store *st, struct error *err);

struct store_driver {
	const char *name;
	/* Location prefixes it takes ("postgresql://"); NULL: a file path. */
	const char *const *schemes;
	enum store_dialect dialect;
	/* The time as the store writes it: ISO 8601 UTC, milliseconds. */
	const char *now;
	/*
	 * The job queue's statements in the driver's dialect (store.h,
	 * "Jobs"); NULL for a driver that keeps no queue. claim: $1 the
	 * worker, $2 the claim, $3 the lease in seconds, returning
	 * STORE_JOB_COLUMNS of the job it claimed; $4 the release the
	 * worker's machine runs and $5 whether it can boot another: a job
	 * that needs another kernel only then. renew: $1 the job, $2 the
	 * claim, $3 the lease, returning the id while the claim holds. hold:
	 * $1 the job, $2 the claim, returning the id while the claim holds,
	 * and keeping it until the transaction ends.
	 *
	 * Jobs that need a kernel: booting marks claimed job $1 (claim $2)
	 * as waiting for its machine's boot, the deadline $3 seconds away,
	 * $4 the release the machine ran, its worker's lease $5 seconds
	 * (returning its id; renew renews it while the boot command runs);
	 * booted takes up the job machine $1 booted for, now running release
	 * $2 in boot $5 (an id other than the claim's), under claim $3 with
	 * a lease of $4 (returning STORE_JOB_COLUMNS), unless its deadline
	 * has passed; came_back fails it otherwise ($1 the machine, $2 the
	 * release, $3 the boot; STORE_JOB_COLUMNS), past its deadline with
	 * the reason of boots_over, which fails the jobs whose machine is not
	 * back by their deadline. In the boot of its claim, the machine has
	 * not rebooted yet: boot_lost ($1 the machine, $2 the boot) makes the
	 * job a lost worker's, to be claimed again (or given up) as one,
	 * when its worker's lease ran out (returning STORE_JOB_COLUMNS).
	 */
	const char *job_claim;
	const char *job_renew;
	const char *job_hold;
	const char *job_booting;
	const char *job_booted;
	const char *job_came_back;
	const char *job_boot_lost;
	const char *job_boots_over;

	/*
	 * Open the store at @location with its schema current, @upgrade
	 * bringing it there: for STORE_WRITE in place (a missing store
	 * made), for STORE_READ on a copy in memory where the driver can
	 * make one, else refused; for STORE_INSPECT (store_inspect()) as
	 * it is, *out NULL when nothing is stored there yet. Another
	 * program's database is refused (EXIT_USAGE), a newer store too
	 * (EXIT_ENV), untouched.
	 */
	int (*open)(const char *location, enum store_access access, store_upgrade_fn *upgrade,
		    struct store **out, struct error *err);
	/* What is wrong with it ("" when nothing); @fresh: a new store, in memory. */
	int (*damage)(struct store *st, int version, struct store *fresh, char *buf, size_t len,
		      struct error *err);
	void (*close)(struct store *st);
	/* Close, and remove the store when it holds nothing and is no one else's; may be NULL. */
	void (*close_removing_empty)(struct store *st);
	/* In a child that will use no store: unmap the libraries it loaded; may be NULL. */
	void (*forget_in_child)(void);

	/* The schema: its version (0: no store yet), a script of DDL, a new version. */
	int (*version)(struct store *st, struct error *err);
	int (*script)(struct store *st, const char *sql, struct error *err, const char *what);
	int (*set_version)(struct store *st, int version, struct error *err);

	int (*begin)(struct store *st, enum store_txn txn, struct error *err);
	int (*commit)(struct store *st, struct error *err);
	void (*rollback)(struct store *st);

	/*
	 * The statement of @sql, a string constant known by its address:
	 * prepared once per connection, in use until reset(). NULL with @err.
	 */
	struct store_stmt *(*prepare)(struct store *st, const char *sql, struct error *err);
	/* Parameter @i (from 1); NULL text and a NAN real are SQL NULL. */
	void (*bind_int)(struct store_stmt *s, int i, int64_t v);
	void (*bind_real)(struct store_stmt *s, int i, double v);
	void (*bind_text)(struct store_stmt *s, int i, const char *v);
	/*
	 * 1 on a row, 0 at the end, -1 with @err ("cannot WHAT in store
	 * ..."): a lock held too long, an I/O error or a damaged file is
	 * never "no row".
	 */
	int (*step)(struct store_stmt *s, struct error *err, const char *what);
	/*
	 * Column @col of the row: NULL is 0, NAN, NULL; a boolean is 0 or 1.
	 * A real that is not a number (text in SQLite's REAL column) is NAN.
	 */
	int64_t (*column_int)(struct store_stmt *s, int col);
	double (*column_real)(struct store_stmt *s, int col);
	const char *(*column_text)(struct store_stmt *s, int col);
	bool (*column_null)(struct store_stmt *s, int col);
	/* Done with it: its bindings and rows let go, ready for its next use. */
	void (*reset)(struct store_stmt *s);
	/*
	 * NULL, or the text of a query of one row and column, made with
	 * malloc: the id the next row of @table may be given, above any the
	 * table ever had, in the transaction that writes it. sql_rows then
	 * gives the ids of the rows it inserts instead of asking a RETURNING
	 * for them (sql.h). PostgreSQL's identity columns give their own.
	 */
	char *(*next_id_query)(const char *table);
};

extern const struct store_driver store_sqlite;
extern const struct store_driver store_memory;
extern const struct store_driver store_postgres;

/*
 * Shared by the drivers (driver.c), so that every driver says the same.
 */

/* "not a schedperf store" (EXIT_USAGE), with @why. */
int store_not_ours(const char *location, const char *why, struct error *err);
/* A store of @driver, which keeps no job queue, asked for one (EXIT_USAGE). */
int store_no_queue(const char *location, const struct store_driver *driver,
		   struct error *err);
/*
 * A store's tables whose schema version, kept in @where, is @version,
 * which no store of theirs has (0: none; changed outside schedperf): not
 * read as a store (EXIT_USAGE).
 */
int store_version_lost(const char *location, const char *where, int version,
		       struct error *err);
/* A schema newer than this schedperf knows: left untouched (EXIT_ENV). */
int store_too_new(const char *location, int version, struct error *err);
/*
 * How long a write waits for another writer's lock before it gives up with
 * an error, in ms: 10 s (a second `schedperf run` on the same store
 * commits one iteration at a time, so waits are short), or
 * $SCHEDPERF_BUSY_TIMEOUT_MS (tests). A measuring command's writes, from
 * its batch's begin to its end, try again past it (store_lock_busy()).
 */
int store_busy_timeout_ms(void);
/*
 * A $SCHEDPERF_BUSY_TIMEOUT_MS that is not a whole number of ms from 0 to
 * an hour is refused (EXIT_USAGE) before a store is opened, never taken
 * for the default.
 */
int store_busy_timeout_check(struct error *err);
/*
 * @location as messages show it: a URI's password (user:PASSWORD@host, or
 * password=... among its parameters) is left out.
 */
void store_location_shown(const char *location, char *buf, size_t len);
/*
 * A driver's prepared statement of @sql among its @nr (@stride bytes apart
 * from @first), marked in use: 0 with *@found set, or NULL when @sql has
 * none yet (prepare it at index @nr); -1 with @err when it is in use
 * already, or when none is and @max are prepared.
 */
int store_stmt_lookup(void *first, size_t stride, int nr, int max, const char *sql,
		      struct store_stmt **found, struct error *err);
/* @sql with {now} spelt @now (malloc'd), or NULL when it has none. */
char *store_sql_dialect(const char *sql, const char *now);

#endif
