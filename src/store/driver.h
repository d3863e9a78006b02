/* SPDX-License-Identifier: GPL-2.0 */
#ifndef SCHEDPERF_STORE_DRIVER_H
#define SCHEDPERF_STORE_DRIVER_H

/*
 * An SQL driver: what the store's queries ask of a database, and no more
 * (doc/design.md, "The store"). Every query is written once, above the
 * drivers (queries.h), in one dialect: $1, $2 ... each first used in that
 * order, "RETURNING id", "ON CONFLICT ... DO NOTHING", booleans as 0 and 1,
 * {now} for the time (ISO 8601 UTC, ms). Where the dialects differ (the
 * schema, the job queue's claim) the driver holds its own text. A driver is
 * a directory under src/store/ and a row of store_drivers[] (open.c); only
 * src/store/ includes this, callers use store.h.
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
	 * A write that only adds rows, each referring to rows it found or added
	 * itself under the write lock: its references are right as it makes
	 * them, and need not be looked up again (a fifth of an import's time).
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
	int patience_ms;	/* a call's bound on the server's answer; 0: none */
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
	 * The fewest metrics a batch has for store_load_each() to read each
	 * batch by its own queries (a few a batch), not the rest of the store
	 * at once: below it, those queries cost more than the memory saves.
	 */
	size_t load_each_metrics;
	/*
	 * The job queue's statements (store.h, "Jobs"); NULL for a driver that
	 * keeps no queue. claim: $1 worker, $2 claim, $3 lease (s), $4 the
	 * release its machine runs, $5 whether it can boot another (a job that
	 * needs another kernel only then); returns STORE_JOB_COLUMNS (COLUMNS).
	 * renew ($1 job, $2 claim, $3 lease) and hold ($1 job, $2 claim; the
	 * row kept until the transaction ends) return the id while the claim
	 * holds.
	 *
	 * Jobs that need a kernel: booting marks claimed job $1 (claim $2) as
	 * waiting for its machine's boot, deadline $3 s away, $4 the release it
	 * ran, its worker's lease $5 s (returns the id; renew renews it while
	 * the boot command runs). booted takes up the job machine $1 booted for,
	 * now on release $2 in boot $5 (not the claim's), under claim $3, lease
	 * $4, unless past its deadline (COLUMNS); came_back fails it otherwise
	 * ($1 machine, $2 release, $3 boot; COLUMNS) with the reason of
	 * boots_over, which fails the jobs whose machine is not back by their
	 * deadline. boot_lost ($1 machine, $2 boot, the claim's: not rebooted
	 * yet) makes the job a lost worker's, to be claimed again or given up,
	 * once its worker's lease ran out (COLUMNS). lost_run queues running
	 * job $1 (claim $2), whose run was killed, again, or gives it up after
	 * its last attempt for reason $3: returns 1 queued, 2 given up.
	 */
	const char *job_claim;
	const char *job_renew;
	const char *job_hold;
	const char *job_booting;
	const char *job_booted;
	const char *job_came_back;
	const char *job_boot_lost;
	const char *job_boots_over;
	const char *job_lost_run;

	/*
	 * Open @location with its schema brought current by @upgrade: for
	 * STORE_WRITE in place (a missing store made), for STORE_READ on a copy
	 * in memory where the driver can, else refused; STORE_INSPECT as it is
	 * (*out NULL: nothing there). Another program's database is refused
	 * (EXIT_USAGE), a newer store too (EXIT_ENV), untouched.
	 */
	int (*open)(const char *location, enum store_access access, store_upgrade_fn *upgrade,
		    struct store **out, struct error *err);
	/* What is wrong with it ("" when nothing); @fresh: a new store, in memory. */
	int (*damage)(struct store *st, int version, struct store *fresh, char *buf, size_t len,
		      struct error *err);
	void (*close)(struct store *st);
	/*
	 * A server's store (store.h, store_set_patience()): whether the last
	 * failure lost the connection, and why; a new session like the first.
	 * NULL for a store that cannot become unreachable.
	 */
	bool (*unreachable)(struct store *st, char *why, size_t len);
	int (*reconnect)(struct store *st, struct error *err);
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

	/* @sql, a constant known by its address: prepared once, in use until reset(). */
	struct store_stmt *(*prepare)(struct store *st, const char *sql, struct error *err);
	/* Parameter @i (from 1); NULL text and a NAN real are SQL NULL. */
	void (*bind_int)(struct store_stmt *s, int i, int64_t v);
	void (*bind_real)(struct store_stmt *s, int i, double v);
	void (*bind_text)(struct store_stmt *s, int i, const char *v);
	/* 1 on a row, 0 at the end, -1 with @err: a lock or I/O error is never "no row". */
	int (*step)(struct store_stmt *s, struct error *err, const char *what);
	/* Column @col: NULL is 0, NAN, NULL; a boolean 0 or 1; a real not a number NAN. */
	int64_t (*column_int)(struct store_stmt *s, int col);
	double (*column_real)(struct store_stmt *s, int col);
	const char *(*column_text)(struct store_stmt *s, int col);
	bool (*column_null)(struct store_stmt *s, int col);
	/* Done with it: its bindings and rows let go, ready for its next use. */
	void (*reset)(struct store_stmt *s);
	/*
	 * NULL, or a query (malloc'd) of the id the next row of @table may be
	 * given in the transaction that writes it, above any it ever had: then
	 * sql_rows gives ids instead of asking a RETURNING (sql.h).
	 */
	char *(*next_id_query)(const char *table);
};

extern const struct store_driver store_sqlite;
extern const struct store_driver store_memory;
extern const struct store_driver store_postgres;

/* Shared by the drivers (driver.c), so that every driver says the same. */

/* Why a write failed when another writer held the lock too long. */
#define STORE_LOCK_HINT "another process holds the store's write lock; run again when it is done"
/* "not a schedperf store" (EXIT_USAGE), with @why. */
int store_not_ours(const char *location, const char *why, struct error *err);
/* A store of @driver, which keeps no job queue, asked for one (EXIT_USAGE). */
int store_no_queue(const char *location, const struct store_driver *driver,
		   struct error *err);
/* Tables whose version (kept in @where) no store has: changed elsewhere (EXIT_USAGE). */
int store_version_lost(const char *location, const char *where, int version,
		       struct error *err);
/* A schema newer than this schedperf knows: left untouched (EXIT_ENV). */
int store_too_new(const char *location, int version, struct error *err);
/*
 * How long a write waits for another writer's lock, in ms: 10 s (writers
 * commit an iteration at a time, so waits are short), or
 * $SCHEDPERF_BUSY_TIMEOUT_MS (tests). A measuring command's writes try
 * again past it (store_lock_busy()).
 */
int store_busy_timeout_ms(void);
/* A $SCHEDPERF_BUSY_TIMEOUT_MS not of 0 to 3600000 ms is refused (EXIT_USAGE), not ignored. */
int store_busy_timeout_check(struct error *err);
/* @location as messages show it: a URI's password (user:PW@, password=) left out. */
void store_location_shown(const char *location, char *buf, size_t len);
/*
 * The prepared statement of @sql among a driver's @nr (@stride bytes apart
 * from @first), marked in use: 0 with *@found, NULL when none (prepare it
 * at index @nr); -1 with @err when in use already, or none and @max made.
 */
int store_stmt_lookup(void *first, size_t stride, int nr, int max, const char *sql,
		      struct store_stmt **found, struct error *err);
/* @sql with {now} spelt @now (malloc'd), or NULL when it has none. */
char *store_sql_dialect(const char *sql, const char *now);

#endif
